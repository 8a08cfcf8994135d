/* tests/unit/test_load.c — reading the stored functions back
 * (store_load_functions, db/facts.c) by one thread or by several: a real
 * scan of a generated file with more functions than one thread's share
 * stores the facts, and every way of loading them gives the same
 * functions, block by block and event by event. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/driver/scan.h"
#include "db.h"
#include "db/facts.h"

static char dir[] = "/tmp/kcsan-load-XXXXXX";
static char db_path[128];

/* A file of N functions, each with a branch, a plain and a marked access
 * of shared memory, a call and a loop, so that blocks, edges, events and
 * their items all vary from one function to the next. */
static void scan_generated(int n)
{
	char src[128], *paths[1];
	struct scan_options o = { 0 };
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(src, sizeof src, "%s/many.c", dir);
	f = fopen(src, "w");
	cr_assert_not_null(f);
	fputs("#include <kcsan/lkmm.h>\nint data[64], flag[64];\nstatic void touch(int *p) { *p += 1; }\n", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "void f%d(int k) {\n"
			"\tif (k > %d) data[%d] = k; else touch(&data[%d]);\n"
			"\tfor (int j = 0; j < k; j++) if (READ_ONCE(flag[%d]) == j) break;\n"
			"\tWRITE_ONCE(flag[%d], %d);\n}\n", i, i, i % 64, (i + 1) % 64, i % 64, (i + 3) % 64, i);
	fclose(f);
	paths[0] = src;
	snprintf(db_path, sizeof db_path, "%s/k.db", dir);
	o.db_path = db_path;
	o.jobs = 1;
	o.paths = paths;
	o.npaths = 1;
	o.quiet = 1;
	cr_assert_eq(scan_run(&o), 0, "scan failed");
}

static void remove_dir(void)
{
	char p[160];
	const char *names[] = { "many.c", "k.db", "k.db-wal", "k.db-shm" };

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

static void load(int threads, struct function **fns, int *n)
{
	char err[256];
	sqlite3 *db = kdb_open(db_path, KDB_READ_ONLY, err, sizeof err);

	cr_assert_not_null(db, "%s", err);
	cr_assert_eq(store_load_functions(db, threads, fns, n), 0, "load with %d threads failed", threads);
	kdb_close(db);
}

static int same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void expect_same_event(const struct event *a, const struct event *b, const char *fn)
{
	cr_expect_eq(a->id, b->id, "%s: event ids %lld and %lld", fn, a->id, b->id);
	cr_expect_eq(a->kind, b->kind, "%s: event %lld's kind", fn, a->id);
	cr_expect_eq(a->access, b->access, "%s: event %lld's access", fn, a->id);
	cr_expect_eq(a->marked, b->marked, "%s: event %lld's marking", fn, a->id);
	cr_expect_eq(a->line, b->line, "%s: event %lld's line", fn, a->id);
	cr_expect(same_text(a->object, b->object), "%s: event %lld's object", fn, a->id);
	cr_expect(same_text(a->name, b->name), "%s: event %lld's name", fn, a->id);
	cr_expect_eq(a->deps.n, b->deps.n, "%s: event %lld's dependencies", fn, a->id);
	cr_expect_eq(a->def_local, b->def_local, "%s: event %lld's local", fn, a->id);
}

static void expect_same_functions(const struct function *a, int na, const struct function *b, int nb)
{
	cr_assert_eq(na, nb, "%d functions against %d", na, nb);
	for (int i = 0; i < na; i++) {
		cr_assert(same_text(a[i].name, b[i].name), "function %d: %s against %s", i, a[i].name, b[i].name);
		cr_assert_eq(a[i].nblocks, b[i].nblocks, "%s: blocks", a[i].name);
		cr_expect_eq(a[i].nlocals, b[i].nlocals, "%s: locals", a[i].name);
		for (int k = 0; k < a[i].nblocks; k++) {
			const struct block *x = &a[i].blocks[k], *y = &b[i].blocks[k];

			cr_assert_eq(x->nsucc, y->nsucc, "%s: block %d's edges", a[i].name, k);
			for (int s = 0; s < x->nsucc; s++)
				cr_expect_eq(x->succ[s], y->succ[s], "%s: block %d's edge %d", a[i].name, k, s);
			cr_assert_eq(x->nevents, y->nevents, "%s: block %d's events", a[i].name, k);
			for (int e = 0; e < x->nevents; e++)
				expect_same_event(&x->events[e], &y->events[e], a[i].name);
		}
	}
}

static void free_functions(struct function *fns, int n)
{
	for (int i = 0; i < n; i++)
		function_free(&fns[i]);
	free(fns);
}

TestSuite(load, .fini = remove_dir, .timeout = 120);

/* 300 functions: several shares of work, so that helper threads read
 * some of them; the counts checked first show the file was read at all. */
Test(load, several_threads_read_what_one_reads)
{
	struct function *one, *three;
	int n1, n3, events = 0;

	scan_generated(300);
	load(1, &one, &n1);
	cr_assert_geq(n1, 300, "only %d functions stored", n1);
	for (int i = 0; i < n1; i++)
		for (int k = 0; k < one[i].nblocks; k++)
			events += one[i].blocks[k].nevents;
	cr_assert_geq(events, 300 * 4, "only %d events stored", events);
	load(3, &three, &n3);
	expect_same_functions(one, n1, three, n3);
	free_functions(three, n3);
	load(2, &three, &n3);
	expect_same_functions(one, n1, three, n3);
	free_functions(three, n3);
	free_functions(one, n1);
}
