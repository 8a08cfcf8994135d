/*
 * focus_db.c — reading the static pass's sites from $KCSAN_DB for focus.
 *
 * Three kinds of rows (db/schema.sql):
 *   - the plain access of every candidate (file, line, read/write/rmw);
 *   - the marked access that a writer-side candidate publishes with: right
 *     after it, the delayed plain access is checked again with a watchpoint;
 *   - barrier sites (events of kind 'barrier' with an ordering): the runtime
 *     applies them by code address, because a barrier written as inline
 *     assembly behind a macro is invisible to the instrumentation.
 *     pthread_* and sem_* "barriers" are left out: interpose.c already
 *     applies them where they really run.
 *
 * The database is opened read-only, with libsqlite3 loaded by dlopen (dynlib.c, as
 * dbwrite.c does: programs run without a database never load it), and
 * closed before returning: no connection survives into a fork()ed child.
 * Runs once, from kcsan_init(), with the runtime still disabled.
 */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynlib.h"
#include "focus.h"

/*
 * One query for all three kinds: kind 0 plain, 1 marked, 2 barrier; what
 * is the access (read/write/rmw) or the barrier's ordering.
 *
 * Only the candidates of findings (held by a pair that has a finding): the
 * others are patterns the static pass saw no other side for -- a loop
 * bound read beside a relaxed atomic, a thread's private field -- and the
 * scan's verdict on them is "no race".  Focusing on them too cost every
 * execution of their code the filter and their watches, in the hot loops
 * they are usually in (bench/runtime: 2-4x the cost of --no-focus), and
 * slowed the very code a finding needs to meet: pointer-publish's reader
 * watched its loop bound instead of meeting the writer's re-check.  They
 * keep the ordinary sampling of all code.
 */
static const char sites_sql[] =
	/* (IN over a list built once: a correlated subquery per candidate
	 * took seconds on a large tree's database, pairs having no index.) */
	/* (The TUs that include kcsan/lkmm.h, listed once: a join per
	 * barrier event took 60 of the 106 ms this query took on Concurrency
	 * Kit's database, 37,000 barrier events -- at the start of every
	 * process, most of a short test program's run.) */
	"WITH lkmm(tu) AS (SELECT d.tu_id FROM tu_dependencies d"
	"    JOIN files df ON df.id = d.file_id WHERE df.path LIKE '%/kcsan/lkmm.h'),"
	" found(id) AS ("
	"    SELECT p.writer_candidate_id FROM pairs p JOIN findings fi ON fi.pair_id = p.id"
	"      WHERE p.writer_candidate_id IS NOT NULL"
	"    UNION SELECT p.reader_candidate_id FROM pairs p JOIN findings fi ON fi.pair_id = p.id"
	"      WHERE p.reader_candidate_id IS NOT NULL)"
	"SELECT 0, f.path, e.line, e.access FROM candidates c"
	"  JOIN events e ON e.id = c.plain_event_id JOIN files f ON f.id = e.file_id"
	"  WHERE c.id IN found"
	" UNION "
	"SELECT 1, f.path, e.line, e.access FROM candidates c"
	"  JOIN events e ON e.id = c.marked_event_id JOIN files f ON f.id = e.file_id"
	"  WHERE c.side = 'writer' AND c.id IN found"
	" UNION "
	"SELECT 2, f.path, e.line, e.ord FROM events e JOIN files f ON f.id = e.file_id"
	"  WHERE e.kind = 'barrier' AND e.ord IN ('full', 'grace', 'wmb', 'rmb', 'release', 'acq_rel')"
	"  AND coalesce(e.name, '') NOT LIKE 'pthread\\_%' ESCAPE '\\'"
	"  AND coalesce(e.name, '') NOT LIKE 'sem\\_%' ESCAPE '\\'"
	/* Fences the instrumentation reports itself (C11 and GNU builtins), and
	 * kcsan/lkmm.h's barriers, which call the runtime's hooks: applying
	 * them by address as well would end a delayed access too early (the
	 * store of smp_store_mb() and the smp_mb() after it share one line). */
	"  AND coalesce(e.name, '') NOT IN ('atomic_thread_fence', '__atomic_thread_fence',"
	"    '__sync_synchronize', 'atomic_signal_fence', '__atomic_signal_fence',"
	"    '__c11_atomic_thread_fence', '__c11_atomic_signal_fence')"
	/* (Tested first: no TU includes lkmm.h, as in a tree that does not
	 * use it, and no barrier's function is looked up -- 3,772 random
	 * reads of the functions table in CK's database.) */
	"  AND (coalesce(e.name, '') = 'asm' OR NOT EXISTS (SELECT 1 FROM lkmm)"
	"    OR NOT EXISTS (SELECT 1 FROM functions fn"
	"    WHERE fn.id = e.function_id AND fn.tu_id IN lkmm))";

static int site_of_row(int kind, const char *what, struct kcsan_focus_site *s)
{
	what = what ? what : "";
	if (kind == 0) {
		if (!strcmp(what, "read"))
			s->flags = KCSAN_FOCUS_READ;
		else if (!strcmp(what, "write"))
			s->flags = KCSAN_FOCUS_WRITE;
		else
			s->flags = KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE;
		return 1;
	}
	if (kind == 1) {
		s->flags = KCSAN_FOCUS_MARKED;
		return 1;
	}
	s->flags = KCSAN_FOCUS_BARRIER;
	if (!strcmp(what, "full"))
		s->barrier = KCSAN_BARRIER_MB;
	else if (!strcmp(what, "wmb"))
		s->barrier = KCSAN_BARRIER_WMB;
	else if (!strcmp(what, "rmb"))
		s->barrier = KCSAN_BARRIER_RMB;
	else
		s->barrier = KCSAN_BARRIER_RELEASE;
	return 1;
}

int kcsan_focus_read_db(const char *path, struct kcsan_focus_sites *out,
			char *why, size_t whylen)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	size_t cap = 0, scap = 0, slen = 0, i;
	size_t *offs = NULL;	/* file name offsets into strings */
	int rc = -1, r;

	memset(out, 0, sizeof(*out));
	if (kcsan_load_sqlite(why, whylen))
		return -1;
	if (kcsan_sq.open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(why, whylen, "cannot open %s: %s", path, db ? kcsan_sq.errmsg(db) : "?");
		goto out;
	}
	kcsan_sq.busy_timeout(db, 5000);
	if (kcsan_sq.prepare_v2(db, sites_sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(why, whylen, "%s: %s", path, kcsan_sq.errmsg(db));
		goto out;
	}
	while ((r = kcsan_sq.step(st)) == SQLITE_ROW) {
		const char *file = (const char *)kcsan_sq.column_text(st, 1);
		struct kcsan_focus_site s = { .line = kcsan_sq.column_int(st, 2) };
		size_t fl;

		if (!file || !site_of_row(kcsan_sq.column_int(st, 0),
					  (const char *)kcsan_sq.column_text(st, 3), &s))
			continue;
		if (out->n == cap) {
			void *nv = realloc(out->v, (cap = cap ? 2 * cap : 64) * sizeof(*out->v));
			void *no = realloc(offs, cap * sizeof(*offs));

			if (nv)
				out->v = nv;
			if (no)
				offs = no;
			if (!nv || !no)
				goto oom;
		}
		fl = strlen(file) + 1;
		if (slen + fl > scap) {
			char *ns;

			while (slen + fl > scap)
				scap = scap ? 2 * scap : 4096;
			if (!(ns = realloc(out->strings, scap)))
				goto oom;
			out->strings = ns;
		}
		memcpy(out->strings + slen, file, fl);
		offs[out->n] = slen;
		slen += fl;
		out->v[out->n++] = s;
	}
	if (r != SQLITE_DONE) {
		snprintf(why, whylen, "%s: %s", path, kcsan_sq.errmsg(db));
		goto out;
	}
	/* The block no longer moves: point the sites at their names. */
	for (i = 0; i < out->n; i++)
		out->v[i].file = out->strings + offs[i];
	rc = 0;
	goto out;
oom:
	snprintf(why, whylen, "out of memory");
out:
	if (st)
		kcsan_sq.finalize(st);
	if (db)
		kcsan_sq.close(db);
	free(offs);
	if (rc)
		kcsan_focus_free_sites(out);
	return rc;
}

void kcsan_focus_free_sites(struct kcsan_focus_sites *s)
{
	free(s->v);
	free(s->strings);
	memset(s, 0, sizeof(*s));
}
