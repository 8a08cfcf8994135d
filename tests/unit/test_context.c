/* tests/unit/test_context.c — precision on real-code shapes (docs/history/real-code-reviews.md):
 * which objects are really shared (weakness 3: private locals passed to
 * helpers, memory fresh from malloc), which code really runs concurrently
 * (weakness 5), and which programs really run together (weakness 6).  Each
 * correct shape must give nothing and its buggy twin must still be
 * reported.  Real scans, through scan_helper.c. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan_helper.h"

#define LKMM "#include <kcsan/lkmm.h>\n"

/* ---- weakness 3: object identity ---- */

Test(identity, private_local_passed_to_a_helper_is_not_shared)
{
	expect_one(LKMM "int flag;\n"
		   "struct buf { int v; };\n"
		   "void consume(struct buf *b);\n"
		   "static void fill(struct buf *b, int v) { b->v = v; }\n"
		   "void writer(void) { struct buf mine; fill(&mine, 1); WRITE_ONCE(flag, 1); consume(&mine); }\n"
		   "void reader(void) { struct buf other; if (READ_ONCE(flag)) { fill(&other, 2); consume(&other); } }\n");
}

Test(identity, shared_struct_passed_to_the_same_helper_still_races)
{
	expect_one(LKMM "int flag;\n"
		   "struct buf { int v; } shared;\n"
		   "static void fill(struct buf *b, int v) { b->v = v; /*W*/ }\n"
		   "void writer(void) { fill(&shared, 1); WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { return smp_load_acquire(&flag) ? shared.v : 0; }\n");
}

Test(identity, private_local_array_passed_to_a_helper_is_not_shared)
{
	expect_one(LKMM "int flag;\n"
		   "static void zero(long *v, int n) { for (int i = 0; i < n; i++) v[i] = 0; }\n"
		   "void writer(void) { long mask[4]; zero(mask, 4); WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) { long mask[4]; if (READ_ONCE(flag)) zero(mask, 4); }\n");
}

Test(identity, initialising_fresh_memory_after_a_flag_read_races_with_nothing)
{
	expect_one(LKMM "#include <stdlib.h>\n"
		   "struct node { int a; } *gp, *spare;\n"
		   "int flag;\n"
		   "void writer(void) { gp->a = 1; WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) {\n"
		   "	if (READ_ONCE(flag)) {\n"
		   "		struct node *n = malloc(sizeof *n);\n"
		   "		if (!n)\n"
		   "			return;\n"
		   "		n->a = 2;\n"
		   "		smp_store_release(&spare, n);\n"
		   "	}\n"
		   "}\n");
}

Test(identity, fresh_memory_written_after_its_publication_still_races)
{
	expect_one(LKMM "#include <stdlib.h>\n"
		   "struct node { int a; } *gp, *spare;\n"
		   "int flag;\n"
		   "void writer(void) { gp->a = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) {\n"
		   "	if (READ_ONCE(flag)) {\n"
		   "		struct node *n = calloc(1, sizeof *n);\n"
		   "		smp_store_release(&spare, n);\n"
		   "		n->a = 2; /*R*/\n"
		   "	}\n"
		   "}\n");
}

Test(identity, fresh_memory_published_without_release_is_still_reported)
{
	expect_one(LKMM "#include <stdlib.h>\n"
		   "struct node { int a; } *head;\n"
		   "void push(int v) { struct node *n = malloc(sizeof *n); n->a = v; /*W*/ WRITE_ONCE(head, n); }\n"
		   "int get(void) { struct node *p = smp_load_acquire(&head); return p ? p->a : 0; }\n");
}

/* ---- weakness 5: concurrency context ---- */

#define CTOR_READER "void reader(void) { if (READ_ONCE(ready)) r = feature; }\n"

Test(context, constructor_runs_before_any_thread)
{
	expect_one(LKMM "int feature, ready, r;\n"
		   "__attribute__((constructor)) static void init(void) { feature = 1; WRITE_ONCE(ready, 1); }\n"
		   CTOR_READER);
}

Test(context, the_same_init_without_constructor_races)
{
	expect_one(LKMM "int feature, ready, r;\n"
		   "void init(void) { feature = 1; /*W*/ WRITE_ONCE(ready, 1); }\n"
		   "void reader(void) { if (READ_ONCE(ready)) r = feature; /*R*/ }\n");
}

#define UPDATER \
	"int cur, idx;\n" \
	"void *updater(void *a) { if (READ_ONCE(cur) >= 0) idx++; WRITE_ONCE(cur, idx); return a; }\n"

Test(context, start_routine_created_once_does_not_pair_with_itself)
{
	expect_one(LKMM "#include <pthread.h>\n" UPDATER
		   "int main(void) { pthread_t t; pthread_create(&t, 0, updater, 0); pthread_join(t, 0); return 0; }\n");
}

Test(context, start_routine_created_in_a_loop_pairs_with_itself)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int cur, idx;\n"
		   "void *updater(void *a) {\n"
		   "	if (READ_ONCE(cur) >= 0)\n"
		   "		idx++; /*W*/ /*R*/ /*D*/\n"
		   "	WRITE_ONCE(cur, idx); /*W*/\n"
		   "	return a;\n"
		   "}\n"
		   "int main(void) {\n"
		   "	pthread_t t[2];\n"
		   "	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, updater, 0);\n"
		   "	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n"
		   "	return 0;\n"
		   "}\n");
}

#define HARNESS \
	"#include <pthread.h>\n" \
	"int cur, idx, goflag, cfg;\n" \
	"static pthread_t tids[16]; static int ntids;\n" \
	"static void create_thread(void *(*fn)(void *), void *arg) { pthread_create(&tids[ntids++], 0, fn, arg); }\n" \
	"static void wait_all(void) { for (int i = 0; i < ntids; i++) pthread_join(tids[i], 0); }\n"
#define READER "void *reader(void *a) { while (!READ_ONCE(goflag)); return (void *)(long)READ_ONCE(cur) + cfg + (long)a; }\n"

Test(context, thread_creating_wrapper_binds_its_start_routine)
{
	expect_one(LKMM HARNESS READER
		   "void *updater(void *a) { while (!READ_ONCE(goflag)); if (READ_ONCE(cur) >= 0) idx++; WRITE_ONCE(cur, idx); return (void *)(long)cfg + (long)a; }\n"
		   "int main(int argc, char **argv) {\n"
		   "	(void)argv;\n"
		   "	cfg = argc;\n"
		   "	create_thread(updater, 0);\n"
		   "	for (int i = 0; i < 4; i++)\n"
		   "		create_thread(reader, 0);\n"
		   "	WRITE_ONCE(goflag, 1);\n"
		   "	wait_all();\n"
		   "	return 0;\n"
		   "}\n");
}

Test(context, thread_creating_wrapper_in_a_loop_and_late_setup_still_race)
{
	expect_one(LKMM HARNESS
		   "void *reader(void *a) { while (!READ_ONCE(goflag)); return (void *)(long)READ_ONCE(cur) + cfg + (long)a; /*R*/ }\n"
		   "void *updater(void *a) {\n"
		   "	if (READ_ONCE(cur) >= 0)\n"
		   "		idx++; /*W*/ /*R*/ /*D*/\n"
		   "	WRITE_ONCE(cur, idx); /*W*/\n"
		   "	return a;\n"
		   "}\n"
		   "int main(int argc, char **argv) {\n"
		   "	(void)argv;\n"
		   "	for (int i = 0; i < 4; i++)\n"
		   "		create_thread(reader, 0);\n"
		   "	for (int i = 0; i < 2; i++)\n"
		   "		create_thread(updater, 0);\n"
		   "	cfg = argc; /*W*/\n"
		   "	WRITE_ONCE(goflag, 1);\n"
		   "	wait_all();\n"
		   "	return 0;\n"
		   "}\n");
}

Test(context, setup_before_a_loop_of_pthread_create_then_go_flag)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int cfg, go, nthreads = 4;\n"
		   "void *thr(void *a) { while (!smp_load_acquire(&go)); return (void *)(long)cfg + (long)a; }\n"
		   "int main(int argc, char **argv) {\n"
		   "	pthread_t t[4];\n"
		   "	(void)argv;\n"
		   "	cfg = argc;\n"
		   "	for (int i = 0; i < nthreads; i++) pthread_create(&t[i], 0, thr, 0);\n"
		   "	WRITE_ONCE(go, 1);\n"
		   "	for (int i = 0; i < nthreads; i++) pthread_join(t[i], 0);\n"
		   "	return 0;\n"
		   "}\n");
}

Test(context, setup_after_the_threads_started_still_races)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int cfg, go, nthreads = 4;\n"
		   "void *thr(void *a) { while (!smp_load_acquire(&go)); return (void *)(long)cfg + (long)a; }\n"
		   "int main(int argc, char **argv) {\n"
		   "	pthread_t t[4];\n"
		   "	(void)argv;\n"
		   "	for (int i = 0; i < nthreads; i++) pthread_create(&t[i], 0, thr, 0);\n"
		   "	cfg = argc; /*W*/\n"
		   "	WRITE_ONCE(go, 1);\n"
		   "	for (int i = 0; i < nthreads; i++) pthread_join(t[i], 0);\n"
		   "	return 0;\n"
		   "}\n");
}

/* ---- weakness 6: several programs in one tree ---- */

#define PROG_WRITER \
	LKMM "#include <pthread.h>\n" \
	"int flag, x;\n" \
	"static void *writer(void *a) { x = 1; WRITE_ONCE(flag, 1); return a; }\n"
#define PROG_READER \
	LKMM "#include <pthread.h>\n" \
	"int flag, x, r;\n" \
	"static void *reader(void *a) { if (READ_ONCE(flag)) r = x; return a; }\n"

Test(programs, same_global_name_in_two_programs_is_two_objects)
{
	struct src s[] = {
		{ "prog1.c", PROG_WRITER
		  "int main(void) { pthread_t t; pthread_create(&t, 0, writer, 0); pthread_join(t, 0); return x; }\n" },
		{ "prog2.c", PROG_READER
		  "int main(void) { pthread_t t; pthread_create(&t, 0, reader, 0); pthread_join(t, 0); return r; }\n" },
	};

	expect_findings(s, 2, NULL);
}

Test(programs, one_program_in_two_files_still_shares_its_globals)
{
	struct src s[] = {
		{ "prog.c", LKMM "#include <pthread.h>\n"
		  "extern int flag, x;\n"
		  "void *writer(void *a) { x = 1; /*W*/ WRITE_ONCE(flag, 1); return a; }\n"
		  "void *reader(void *a);\n"
		  "int main(void) {\n"
		  "	pthread_t t[2];\n"
		  "	pthread_create(&t[0], 0, writer, 0);\n"
		  "	pthread_create(&t[1], 0, reader, 0);\n"
		  "	pthread_join(t[0], 0);\n"
		  "	pthread_join(t[1], 0);\n"
		  "	return 0;\n"
		  "}\n" },
		{ "other.c", LKMM "int flag, x, r;\n"
		  "void *reader(void *a) { if (READ_ONCE(flag)) r = x; /*R*/ return a; }\n" },
		{ "tool.c", "int x;\nint main(void) { return x; }\n" },
	};

	expect_findings(s, 3, NULL);
}

/* Two functions that only main()'s thread runs (after the threads were
 * started, so not initialisation) cannot race with each other. */
Test(context, functions_only_main_runs_do_not_pair)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int x, flag, other;\n"
		   "void produce(void) { x = 1; WRITE_ONCE(flag, 1); }\n"
		   "int consume(void) { return READ_ONCE(flag) ? x : 0; }\n"
		   "void *bystander(void *a) { WRITE_ONCE(other, 1); return a; }\n"
		   "int main(void) { pthread_t t; pthread_create(&t, 0, bystander, 0);"
		   " produce(); int r = consume(); pthread_join(t, 0); return r; }\n");
}

Test(context, consumer_in_a_thread_still_pairs_with_main)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int x, flag;\n"
		   "void produce(void) { x = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "int consume(void) { return READ_ONCE(flag) ? x : 0; } /*R*/\n"
		   "void *reader(void *a) { return (void *)(long)consume(); }\n"
		   "int main(void) { pthread_t t; pthread_create(&t, 0, reader, 0);"
		   " produce(); pthread_join(t, 0); return 0; }\n");
}

/* ---- W2 of docs/history/real-code-reviews.md: code that cannot run at the same time ---- */

/* Calls one thread makes run one after the other: a single-threaded
 * program calling run() twice has one activation of it at a time. */
Test(context, sequential_calls_are_one_activation_at_a_time)
{
	expect_one(LKMM "int data, flag;\n"
		   "static void run(void) { data = 1; WRITE_ONCE(flag, 1); if (READ_ONCE(flag)) (void)data; }\n"
		   "int main(void) { run(); for (int i = 0; i < 3; i++) run(); return 0; }\n");
}

Test(context, the_same_calls_from_two_threads_still_race)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int data, flag;\n"
		   "static void run(void) { data = 1; /*W*/ WRITE_ONCE(flag, 1);\n"
		   "	if (READ_ONCE(flag)) (void)data; /*R*/ }\n"
		   "void *thr(void *a) { run(); return a; }\n"
		   "int main(void) { pthread_t t; pthread_create(&t, 0, thr, 0); run(); run();"
		   " pthread_join(t, 0); return 0; }\n");
}

/* main() reading the flag before any thread exists, or after joining them
 * all, is no consumer for a thread's writer pattern. */
Test(context, reads_before_the_first_thread_or_after_the_joins_pair_with_nothing)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int cfg, res, flag, done;\n"
		   "void *thr(void *a) { (void)cfg; WRITE_ONCE(flag, 1); res = 1; WRITE_ONCE(done, 1); return a; }\n"
		   "int main(void) { pthread_t t[2]; if (READ_ONCE(flag)) return 1; cfg = 1;\n"
		   "	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, thr, 0);\n"
		   "	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n"
		   "	return READ_ONCE(done) ? res : 0; }\n");
}

Test(context, reads_while_the_threads_run_still_pair)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int res, done;\n"
		   "void *thr(void *a) { res = 1; /*W*/ WRITE_ONCE(done, 1); return a; }\n"
		   "int main(void) { pthread_t t[2]; int r = 0;\n"
		   "	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, thr, 0);\n"
		   "	if (READ_ONCE(done)) r = res; /*R*/\n"
		   "	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n"
		   "	return r; }\n");
}

/* A helper that main() calls before its first thread creation
 * initialises, like main's own code there; one that main calls after
 * joining (wait_all() joins for it) is quiet. */
Test(context, helpers_called_before_the_threads_or_after_the_joins_are_quiet)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int data, flag, stat, fin;\n"
		   "static pthread_t t[2];\n"
		   "static void setup(void) { data = 1; WRITE_ONCE(flag, 1); }\n"
		   "static void wait_all(void) { for (int i = 0; i < 2; i++) pthread_join(t[i], 0); }\n"
		   "static int summary(void) { return READ_ONCE(fin) ? stat : 0; }\n"
		   "void *thr(void *a) { if (READ_ONCE(flag)) (void)data; stat = 1; WRITE_ONCE(fin, 1); return a; }\n"
		   "int main(void) { setup();\n"
		   "	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, thr, 0);\n"
		   "	wait_all(); return summary(); }\n");
}

Test(context, helpers_called_while_the_threads_run_still_race)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int data, flag, stat, fin;\n"
		   "static pthread_t t[2];\n"
		   "static void setup(void) { data = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "static void wait_all(void) { for (int i = 0; i < 2; i++) pthread_join(t[i], 0); }\n"
		   "static int summary(void) { return READ_ONCE(fin) ? stat : 0; } /*R*/\n"
		   "void *thr(void *a) { if (READ_ONCE(flag)) (void)data; /*R*/ stat = 1; /*W*/ WRITE_ONCE(fin, 1); return a; }\n"
		   "int main(void) {\n"
		   "	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, thr, 0);\n"
		   "	setup(); int r = summary(); wait_all(); return r; }\n");
}

/* A helper called both before the threads exist and while they run is
 * not initialisation. */
Test(context, a_helper_also_called_while_threads_run_still_races)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int data, flag;\n"
		   "static void setup(void) { data = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "void *thr(void *a) { if (READ_ONCE(flag)) (void)data; /*R*/ return a; }\n"
		   "int main(void) { pthread_t t; setup(); pthread_create(&t, 0, thr, 0);"
		   " setup(); pthread_join(t, 0); return 0; }\n");
}

/* Each thread gets its own element of an array, written before its
 * creation: the creation orders it, for a direct pthread_create and for a
 * create_thread() wrapper. */
Test(context, each_thread_reads_its_own_argument_element)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "struct ctx { int tid; } ctx[2]; int go;\n"
		   "static pthread_t w[2];\n"
		   "void *thr(void *a) { struct ctx *c = a; while (!READ_ONCE(go)) ; return (void *)(long)c->tid; }\n"
		   "static void create_thread(void *(*fn)(void *), void *arg, int k) { pthread_create(&w[k], 0, fn, arg); }\n"
		   "void *thr2(void *a) { struct ctx *c = a; while (!READ_ONCE(go)) ; return (void *)(long)c->tid; }\n"
		   "int main(void) { pthread_t t[2];\n"
		   "	for (int i = 0; i < 2; i++) { ctx[i].tid = i; pthread_create(&t[i], 0, thr, &ctx[i]); }\n"
		   "	for (int i = 0; i < 2; i++) { ctx[i].tid = i; create_thread(thr2, &ctx[i], i); }\n"
		   "	WRITE_ONCE(go, 1); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n");
}

Test(context, a_shared_argument_still_races)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "struct ctx { int tid; } shared; int go;\n"
		   "void *thr(void *a) { struct ctx *c = a; while (!READ_ONCE(go)) ; return (void *)(long)c->tid; } /*R*/\n"
		   "int main(void) { pthread_t t[2];\n"
		   "	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, thr, &shared);\n"
		   "	shared.tid = 1; /*W*/\n"
		   "	WRITE_ONCE(go, 1);\n"
		   "	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n"
		   "	return 0; }\n");
}

Test(context, an_argument_element_published_while_threads_run_still_races)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "struct ctx { int res, done; } ctx[2];\n"
		   "void *worker(void *a) { struct ctx *c = a; c->res = 1; /*W*/ WRITE_ONCE(c->done, 1); return a; }\n"
		   "int main(void) { pthread_t u[2]; int r = 0;\n"
		   "	for (int i = 0; i < 2; i++) pthread_create(&u[i], 0, worker, &ctx[i]);\n"
		   "	if (READ_ONCE(ctx[0].done)) r = ctx[0].res; /*R*/\n"
		   "	for (int i = 0; i < 2; i++) pthread_join(u[i], 0);\n"
		   "	return r; }\n");
}

/* ---- W11 of docs/history/real-code-reviews.md: lock wrappers ---- */

Test(locks, a_wrapper_that_always_locks_its_argument_is_a_lock)
{
	expect_one("#include <pthread.h>\n#include <stdlib.h>\n"
		   "static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
		   "int count;\n"
		   "static void lock(pthread_mutex_t *p)   { if (pthread_mutex_lock(p)) abort(); }\n"
		   "static void unlock(pthread_mutex_t *p) { if (pthread_mutex_unlock(p)) abort(); }\n"
		   "void a(void) { pthread_mutex_lock(&m); count++; pthread_mutex_unlock(&m); }\n"
		   "void b(void) { lock(&m); count++; unlock(&m); }\n");
}

Test(locks, a_wrapper_that_locks_on_some_paths_only_is_no_lock)
{
	expect_one("#include <pthread.h>\n"
		   "static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
		   "int count;\n"
		   "static void maybe_lock(pthread_mutex_t *p, int c) { if (c) pthread_mutex_lock(p); }\n"
		   "static void maybe_unlock(pthread_mutex_t *p, int c) { if (c) pthread_mutex_unlock(p); }\n"
		   "void a(void) { pthread_mutex_lock(&m); count++; pthread_mutex_unlock(&m); }\n"
		   "void b(int c) { maybe_lock(&m, c);\n count++; /*D*/\n maybe_unlock(&m, c); }\n");
}

/* ---- W5 of docs/history/real-code-reviews.md: one field object for every instance ---- */

#define TWO_LISTS "#include <pthread.h>\n" \
	"struct list_head { struct list_head *next, *prev; };\n" \
	"static inline void list_add(struct list_head *n, struct list_head *h)\n" \
	"{ n->next = h->next; n->prev = h; h->next->prev = n; h->next = n; }\n" \
	"static struct list_head readers = { &readers, &readers }, callbacks = { &callbacks, &callbacks };\n" \
	"static pthread_mutex_t readers_lock = PTHREAD_MUTEX_INITIALIZER, cb_lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"void add_reader(struct list_head *n)   { pthread_mutex_lock(&readers_lock); list_add(n, &readers);   pthread_mutex_unlock(&readers_lock); }\n" \
	"void add_callback(struct list_head *n) { pthread_mutex_lock(&cb_lock);      list_add(n, &callbacks); pthread_mutex_unlock(&cb_lock); }\n"

/* Two lists, each under its own lock: a field accessed under different
 * locks is taken for two instances. */
Test(locks, a_field_under_two_different_locks_is_two_instances)
{
	expect_one(TWO_LISTS);
}

Test(locks, a_field_accessed_under_no_lock_still_races)
{
	expect_one(TWO_LISTS "int empty(void) { return readers.next == &readers; } /*D*/\n");
}

/* ---- W8 of docs/history/real-code-reviews.md: identity across programs ---- */

/* Two file statics of the same name in files of the same base name are
 * two objects (clang's USR names only the base name). */
Test(identity, same_named_statics_of_two_same_named_files_are_two_objects)
{
	struct src s[] = {
		{ "x/s.c", LKMM "static int keys; int xflag;\n"
			   "void x_publish(void) { keys = 1; WRITE_ONCE(xflag, 1); }\n" },
		{ "y/s.c", LKMM "static int keys; extern int xflag;\n"
			   "void y_use(void) { if (READ_ONCE(xflag)) keys = 2; }\n" },
	};

	expect_findings(s, 2, NULL);
}

Test(identity, a_file_static_still_pairs_within_its_file)
{
	struct src s[] = {
		{ "x/s.c", LKMM "static int keys; int xflag;\n"
			   "void x_publish(void) { keys = 1; /*W*/ WRITE_ONCE(xflag, 1); }\n"
			   "void x_use(void) { if (READ_ONCE(xflag))\n keys = 2; /*R*/ }\n" },
		{ "y/s.c", LKMM "static int keys;\n void y_set(void) { keys = 3; }\n" },
	};

	expect_findings(s, 2, NULL);
}

/* ---- W15: the main()s of two programs never run together ---- */

#define MAP_LIB "#include <kcsan/lkmm.h>\n" \
	"struct map { unsigned n_entries; unsigned bound; };\n" \
	"void map_put(struct map *m);\nunsigned map_get(struct map *m);\n"
#define MAP_C "#include \"map.h\"\n" \
	"void map_put(struct map *m) { m->n_entries++; WRITE_ONCE(m->bound, m->n_entries); }\n" \
	"unsigned map_get(struct map *m) { return READ_ONCE(m->bound); }\n"
#define PROG_A(writer_thread, mark) "#include \"map.h\"\n#include <pthread.h>\n" \
	"static struct map m;\n" \
	"static void *reader(void *arg) { (void)arg; " writer_thread " return (void *)(long)map_get(&m); }\n" \
	"int main(void) { pthread_t t; pthread_create(&t, 0, reader, 0);\n" \
	"	for (int i = 0; i < 10; i++) { map_put(&m); if (map_get(&m) > 5) m.n_entries = 0; } " mark "\n" \
	"	pthread_join(t, 0); return 0; }\n"
#define PROG_B "#include \"map.h\"\nstatic struct map bm;\n" \
	"int main(void) { map_put(&bm); return (int)map_get(&bm); }\n"

Test(context, library_code_run_by_the_main_of_two_programs)
{
	struct src s[] = { { "map.h", MAP_LIB }, { "map.c", MAP_C }, { "a.c", PROG_A("", "") }, { "b.c", PROG_B } };

	expect_findings(s, 4, NULL);
}

Test(context, library_code_run_by_two_threads_of_one_program_still_races)
{
	struct src s[] = { { "map.h", MAP_LIB },
			   { "map.c", "#include \"map.h\"\n"
				      "void map_put(struct map *m) { m->n_entries++; /*W*/ /*D*/ WRITE_ONCE(m->bound, m->n_entries); }\n"
				      "unsigned map_get(struct map *m) { return READ_ONCE(m->bound); }\n" },
			   { "a.c", PROG_A("map_put(&m);", "/*R*/") }, { "b.c", PROG_B } };

	expect_findings(s, 4, NULL);
}

/* ---- start routines of two programs (W15's remainder) ---- */

/* Two test programs of one tree, each starting its own thread, both
 * running the same library code: the threads of one program never meet
 * those of the other. */
#define LIB_H "#include <kcsan/lkmm.h>\n" \
	"struct box { int v; int ready; };\n" \
	"extern struct box shared_box;\n" \
	"void put(int v);\nint get(void);\n"
#define LIB_C(wmark, rmark) "#include \"lib.h\"\n" \
	"struct box shared_box;\n" \
	"void put(int v) { shared_box.v = v; " wmark " WRITE_ONCE(shared_box.ready, 1); }\n" \
	"int get(void) { return READ_ONCE(shared_box.ready) ? shared_box.v : 0; " rmark " }\n"
#define PROG(thread_body, main_body) "#include \"lib.h\"\n#include <pthread.h>\n" \
	"static void *worker(void *arg) { (void)arg; " thread_body " return 0; }\n" \
	"int main(void) { pthread_t t; pthread_create(&t, 0, worker, 0); " main_body \
	" pthread_join(t, 0); return 0; }\n"

Test(programs, start_routines_of_two_programs_never_run_together)
{
	/* worker() of writer.c only puts, worker() of reader.c only gets:
	 * each main() does nothing else. */
	struct src s[] = { { "lib.h", LIB_H }, { "lib.c", LIB_C("", "") },
			   { "writer.c", PROG("put(1);", "") }, { "reader.c", PROG("get();", "") } };

	expect_findings(s, 4, NULL);
}

Test(programs, start_routines_of_one_program_still_race)
{
	struct src s[] = { { "lib.h", LIB_H }, { "lib.c", LIB_C("/*W*/", "/*R*/") },
			   { "both.c", PROG("put(1);", "get();") }, { "other.c", PROG("get();", "") } };

	expect_findings(s, 4, NULL);
}

/* A relay passes the news on only in its own program.  The library's
 * functions are reached from both programs (their globals stay one
 * object each); relay.c's threads read 'a' and then write 'stop', but
 * never run while pair.c's writer and reader do, so pair.c's writer
 * publishes nothing to its reader through them.  When pair.c runs such a
 * relay thread too, the chain exists and x is reported on both sides. */
#define RELAY_LIB_H "#include <kcsan/lkmm.h>\n" \
	"void put(void);\nint get(void);\nint seen(void);\nint running(void);\nvoid halt(void);\n"
#define RELAY_LIB_C(wmark, rmark) "#include \"relay_lib.h\"\n" \
	"int x, a, stop;\n" \
	"void put(void) { x = 1; WRITE_ONCE(a, 1); } " wmark "\n" \
	"int get(void) { return x; } " rmark "\n" \
	"int seen(void) { return smp_load_acquire(&a); }\n" \
	"int running(void) { return !READ_ONCE(stop); }\n" \
	"void halt(void) { smp_store_release(&stop, 1); }\n"
#define RELAY_THREAD "static void *rel(void *p) { while (!seen()) ; halt(); return p; }\n"
#define PAIR_PROG(extra, create) "#include \"relay_lib.h\"\n#include <pthread.h>\n" extra \
	"static void *w(void *p) { put(); return p; }\n" \
	"static void *r(void *p) { while (running()) ; return (void *)(long)get(); }\n" \
	"int main(void) { pthread_t t[3]; pthread_create(&t[0], 0, w, 0); pthread_create(&t[1], 0, r, 0); " create \
	" pthread_join(t[0], 0); pthread_join(t[1], 0); if (seen()) halt(); return 0; }\n"
#define RELAY_PROG "#include \"relay_lib.h\"\n#include <pthread.h>\n" RELAY_THREAD \
	"int main(void) { pthread_t t[2]; pthread_create(&t[0], 0, rel, 0); pthread_create(&t[1], 0, rel, 0);\n" \
	"  pthread_join(t[0], 0); pthread_join(t[1], 0); put(); while (running()) ; return get(); }\n"

Test(programs, a_relay_in_another_program_passes_nothing_on)
{
	struct src s[] = { { "relay_lib.h", RELAY_LIB_H }, { "relay_lib.c", RELAY_LIB_C("", "") },
			   { "pair.c", PAIR_PROG("", "") }, { "relay.c", RELAY_PROG } };

	expect_findings(s, 4, NULL);
}

Test(programs, a_relay_in_the_same_program_still_passes_the_news_on)
{
	struct src s[] = { { "relay_lib.h", RELAY_LIB_H }, { "relay_lib.c", RELAY_LIB_C("/*W*/", "/*R*/") },
			   { "pair.c", PAIR_PROG(RELAY_THREAD, "pthread_create(&t[2], 0, rel, 0);") },
			   { "relay.c", RELAY_PROG } };

	expect_findings(s, 4, NULL);
}

/* Two implementations of one interface (perfbook's maze_fg.c and
 * maze_part.c), each linked with the shared common.c into its own program:
 * both define visit() and solve(), so no program links both.  impl_b.c's
 * child calls visit() through common.c's step(), which the analysis binds
 * to one of the definitions, impl_a.c's: a pattern of impl_b's flag and
 * impl_a's access mixes two programs and is dropped.  When impl_b's child
 * calls its own visit(), the pair is one program's, reported both ways. */
#define IMPL_COMMON_H "#include <kcsan/lkmm.h>\n#include <pthread.h>\n" \
	"struct state { int done; int cell; };\nextern struct state st;\n" \
	"void solve(void);\nvoid visit(void);\nvoid step(void);\n"
#define IMPL_COMMON_C "#include \"common.h\"\nstruct state st;\n" \
	"void step(void) { visit(); }\nint main(void) { solve(); return 0; }\n"
#define IMPL_A_C "#include \"common.h\"\nvoid visit(void) { st.cell = 1; }\n" \
	"static void *child(void *p) { visit(); return p; }\n" \
	"void solve(void) { pthread_t t[2]; pthread_create(&t[0], 0, child, 0); pthread_create(&t[1], 0, child, 0);\n" \
	"  pthread_join(t[0], 0); pthread_join(t[1], 0); }\n"
#define IMPL_B_C(call, rmark, wmark) "#include \"common.h\"\nvoid visit(void) { st.cell = 2; } " rmark "\n" \
	"static void *child(void *p) { if (READ_ONCE(st.done)) " call "(); return p; }\n" \
	"static void *parent(void *p) { st.cell = 3; WRITE_ONCE(st.done, 1); return p; } " wmark "\n" \
	"void solve(void) { pthread_t t[2]; pthread_create(&t[0], 0, child, 0); pthread_create(&t[1], 0, parent, 0);\n" \
	"  pthread_join(t[0], 0); pthread_join(t[1], 0); }\n"

Test(programs, a_pattern_mixing_two_implementations_of_one_function_is_dropped)
{
	struct src s[] = { { "common.h", IMPL_COMMON_H }, { "common.c", IMPL_COMMON_C },
			   { "impl_a.c", IMPL_A_C }, { "impl_b.c", IMPL_B_C("step", "", "") } };

	expect_findings(s, 4, NULL);
}

Test(programs, a_pattern_inside_one_implementation_is_still_found)
{
	struct src s[] = { { "common.h", IMPL_COMMON_H }, { "common.c", IMPL_COMMON_C },
			   { "impl_a.c", IMPL_A_C }, { "impl_b.c", IMPL_B_C("visit", "/*R*/", "/*W*/") } };

	expect_findings(s, 4, NULL);
}

/* ---- a helper called from a thread and again after the join ---- */

/* read_total() runs in the reader thread and in main() after the joins:
 * it is not quiet (only a function every call site of which is quiet
 * is), so the lock it takes itself is seen (perfbook's count_lim.c,
 * whose read_count() was reported as holding no lock). */
#define REPORT_PROG(body, mark) LKMM "#include <pthread.h>\n" \
	"int total; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static int read_total(void) { int v; " body " return v; } " mark "\n" \
	"static void add(int d) { pthread_mutex_lock(&m); total += d; pthread_mutex_unlock(&m); }\n" \
	"void *reader(void *a) { for (int i = 0; i < 100; i++) read_total(); return a; }\n" \
	"void *writer(void *a) { add(1); return a; }\n" \
	"int main(void) { pthread_t r, w; pthread_create(&r, 0, reader, 0); pthread_create(&w, 0, writer, 0);\n" \
	"  pthread_join(r, 0); pthread_join(w, 0); return read_total(); }\n"

Test(context, helper_called_from_a_thread_and_after_the_join_keeps_its_lock)
{
	expect_one(REPORT_PROG("pthread_mutex_lock(&m); v = total; pthread_mutex_unlock(&m);", ""));
}

Test(context, helper_called_from_a_thread_and_after_the_join_without_its_lock_races)
{
	expect_one(REPORT_PROG("v = total;", "/*D*/"));
}

/* ---- W24: main() in a harness header that each program includes ---- */

/* perfbook's counttorture.h, routetorture.h: each program includes the
 * harness, which defines main() and the threads; the program's file
 * defines the operations they run. */
#define TORTURE_H "#include <kcsan/lkmm.h>\n#include <pthread.h>\n" \
	"void op(void);\nint check(void);\n" \
	"static void *worker(void *a) { op(); return a; }\n" \
	"static void *checker(void *a) { (void)a; return (void *)(long)check(); }\n" \
	"int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0);\n" \
	"  pthread_create(&u, 0, checker, 0); pthread_join(t, 0); pthread_join(u, 0); return 0; }\n"
#define CORRECT_C "#include \"torture.h\"\nint data, flag;\n" \
	"void op(void) { data = 1; smp_store_release(&flag, 1); }\n" \
	"int check(void) { return smp_load_acquire(&flag) ? data : 0; }\n"

Test(programs, main_in_a_harness_header_makes_a_program_of_each_file)
{
	/* b.c publishes nothing that anyone in b.c reads: the a.c reader is
	 * another program's. */
	struct src s[] = { { "torture.h", TORTURE_H }, { "a.c", CORRECT_C },
			   { "b.c", "#include \"torture.h\"\nint data, flag;\n"
				    "void op(void) { data = 2; WRITE_ONCE(flag, 1); }\n"
				    "int check(void) { return 0; }\n" } };

	expect_findings(s, 3, NULL);
}

Test(programs, race_inside_one_program_of_a_harness_header_is_found)
{
	struct src s[] = { { "torture.h", TORTURE_H }, { "a.c", CORRECT_C },
			   { "b.c", "#include \"torture.h\"\nint data, flag;\n"
				    "void op(void) { data = 2; /*W*/ WRITE_ONCE(flag, 1); }\n"
				    "int check(void) { return READ_ONCE(flag) ? data : 0; } /*R*/\n" } };

	expect_findings(s, 3, NULL);
}

/* ---- thread-join wrappers ---- */

#define JOIN_PROG(join, rmark, wmark) LKMM "#include <pthread.h>\n" \
	"int data, flag;\n" \
	"static pthread_t tid[2];\n" \
	"static void wait_one(int i) { pthread_join(tid[i], 0); }\n" \
	"static void wait_all(void) { for (int i = 0; i < 2; i++) wait_one(i); }\n" \
	"static void *reader(void *arg) { (void)arg; if (READ_ONCE(flag)) return (void *)(long)data; " rmark " return 0; }\n" \
	"int main(void) {\n" \
	"	WRITE_ONCE(flag, 1);\n" \
	"	for (int i = 0; i < 2; i++) pthread_create(&tid[i], 0, reader, 0);\n" \
	"	" join "\n" \
	"	data = 2; " wmark "\n" \
	"	WRITE_ONCE(flag, 0);\n" \
	"	return 0; }\n"

Test(context, a_write_after_a_join_wrapper_two_calls_deep_races_with_nothing)
{
	expect_one(JOIN_PROG("wait_all();", "", ""));
}

Test(context, the_same_write_without_the_join_still_races)
{
	/* data is written while the readers run, after the flag that
	 * publishes it (the write before the threads start): a reader that
	 * saw it reads data at the same time.  The 0 stored after data
	 * publishes nothing: the readers go on to data only on another
	 * value, so no release or acquire would help (valuetests.h) */
	expect_one(JOIN_PROG("", "", "/*D*/"));
}

/* W8: two programs that each define their own struct ctx; the fields of
 * the two types are one object, but one program's writer thread never
 * meets the other's reader. */
#define CTX_A(mark) "#include <kcsan/lkmm.h>\n#include <pthread.h>\n" \
	"struct ctx { int tid; int done; };\n" \
	"void *worker(void *p) { struct ctx *c = p; c->tid = 1; " mark " WRITE_ONCE(c->done, 1); return p; }\n"
#define CTX_A_MAIN "int main(void) { static struct ctx c; pthread_t t; pthread_create(&t, 0, worker, &c); pthread_join(t, 0); return c.tid; }\n"
#define CTX_B "#include <kcsan/lkmm.h>\n#include <pthread.h>\n" \
	"struct ctx { int tid; int done; };\n" \
	"void *waiter(void *p) { struct ctx *c = p; while (!READ_ONCE(c->done)) ; c->tid = 2; return p; }\n"

Test(programs, struct_fields_of_two_programs_never_meet)
{
	struct src s[] = { { "a.c", CTX_A("") CTX_A_MAIN },
			   { "b.c", CTX_B "int main(void) { static struct ctx c; pthread_t t; pthread_create(&t, 0, waiter, &c); pthread_join(t, 0); return 0; }\n" } };

	expect_findings(s, 2, NULL);
}

Test(programs, struct_fields_of_one_program_still_race)
{
	/* both start routines in one program, on one instance */
	struct src s[] = { { "a.c", CTX_A("/*W*/") "void *waiter(void *p) { struct ctx *c = p; "
				    "while (!READ_ONCE(c->done)) ; c->tid = 2; /*R*/ return p; }\n"
				    "int main(void) { static struct ctx c; pthread_t t, u;\n"
				    "	pthread_create(&t, 0, worker, &c); pthread_create(&u, 0, waiter, &c);\n"
				    "	pthread_join(t, 0); pthread_join(u, 0); return 0; }\n" } };

	expect_findings(s, 1, NULL);
}

/* ---- W11: locks taken by one function and released by another ---- */

#define GLOBAL_LOCK "#include <pthread.h>\n" \
	"static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n" \
	"int count;\n" \
	"void a(void) { pthread_mutex_lock(&m); count++; pthread_mutex_unlock(&m); }\n"

Test(locks, a_wrapper_of_a_global_lock_is_a_lock)
{
	expect_one(GLOBAL_LOCK
		   "static void lock_count(void) { pthread_mutex_lock(&m); }\n"
		   "static void unlock_count(void) { pthread_mutex_unlock(&m); }\n"
		   "void b(void) { lock_count(); count++; unlock_count(); }\n");
}

Test(locks, a_wrapper_of_a_global_lock_on_some_paths_is_no_lock)
{
	expect_one(GLOBAL_LOCK
		   "static void lock_count(int c) { if (c) pthread_mutex_lock(&m); }\n"
		   "static void unlock_count(int c) { if (c) pthread_mutex_unlock(&m); }\n"
		   "void b(int c) { lock_count(c); count++; /*D*/ unlock_count(c); }\n");
}

/* ck_cohort's shape: lock() takes the lock its structure points to through
 * a wrapper of a wrapper (LL(cohort->local_lock) is lock_with_context(),
 * which calls the lock primitive) and returns with it held; unlock()
 * resets the count and then releases it the same way.  The two halves
 * make a lock pair, and the count is always accessed holding it.  The
 * twin resets the count after the release: a race. */
#define COHORT(unlock_body) "#include <pthread.h>\n" \
	"struct cohort { pthread_mutex_t *local; int count; };\n" \
	"static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static struct cohort co = { &m, 0 };\n" \
	"static void lock_with_context(pthread_mutex_t *l, void *ctx) { (void)ctx; pthread_mutex_lock(l); }\n" \
	"static void unlock_with_context(pthread_mutex_t *l, void *ctx) { (void)ctx; pthread_mutex_unlock(l); }\n" \
	"static void cohort_lock(struct cohort *c) { lock_with_context(c->local, 0); c->count++; }\n" \
	"static void cohort_unlock(struct cohort *c) { " unlock_body " }\n" \
	"static void *thr(void *a) { cohort_lock(&co); cohort_unlock(&co); return a; }\n" \
	MAIN_TWO_THREADS("thr")

Test(locks, a_lock_taken_and_released_through_wrappers_of_wrappers_is_a_lock_pair)
{
	expect_one(COHORT("c->count = 0; unlock_with_context(c->local, 0);"));
}

Test(locks, an_access_after_the_wrapped_release_still_races)
{
	expect_one(COHORT("unlock_with_context(c->local, 0);\n c->count = 0; /*D*/"));
}

/* pthread_atfork's handlers: before_fork() takes the lock, after_fork()
 * writes under it and releases it. */
Test(locks, fork_handlers_hold_the_lock_between_them)
{
	expect_one(GLOBAL_LOCK
		   "static void before_fork(void) { pthread_mutex_lock(&m); }\n"
		   "static void after_fork(void) { count = 0; pthread_mutex_unlock(&m); }\n"
		   "void install(void) { pthread_atfork(before_fork, after_fork, after_fork); }\n");
}

Test(locks, a_handler_that_releases_nothing_still_races)
{
	expect_one(GLOBAL_LOCK
		   "static void after_fork(void) { count = 0; /*D*/ }\n"
		   "void install(void) { pthread_atfork(0, after_fork, after_fork); }\n");
}

/* A writer and a reader whose data accesses both hold one lock never meet
 * there, although the flag is read outside it and another access of the
 * data holds no lock (that one is the race). */
#define PAIR_UNDER_LOCK(reader_lock, reader_unlock, wmark, rmark) LKMM "#include <pthread.h>\n" \
	"static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n" \
	"int data, flag;\n" \
	"static void *w(void *a) { pthread_mutex_lock(&m); data = 1; " wmark " WRITE_ONCE(flag, 1); pthread_mutex_unlock(&m); return a; }\n" \
	"static void *r(void *a) { int v = 0; if (READ_ONCE(flag)) { " reader_lock " v = data; " rmark " " reader_unlock " } return (void *)(long)v; }\n" \
	"static void *peek(void *a) { (void)a; return (void *)(long)data; } /*D*/\n" \
	"int main(void) { pthread_t t[3]; pthread_create(&t[0], 0, w, 0); pthread_create(&t[1], 0, r, 0);\n" \
	"	pthread_create(&t[2], 0, peek, 0); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); return 0; }\n"

Test(locks, a_pair_under_one_lock_is_no_race)
{
	expect_one(PAIR_UNDER_LOCK("pthread_mutex_lock(&m);", "pthread_mutex_unlock(&m);", "", ""));
}

Test(locks, a_pair_with_one_side_unlocked_still_races)
{
	/* the writer's data is then published to an unlocked reader: both
	 * sides are reported, and the reader's read races with the locked
	 * write */
	expect_one(PAIR_UNDER_LOCK("", "", "/*W*/", "/*R*/ /*D*/"));
}

/* The locks held inside a recursive component, as its callers see them.
 * b() takes m around x++ and a() and b() call each other: their
 * summaries are run in rounds until they stop changing, and t1() sees
 * through a() that x++ holds m.  A round that made b()'s summary again,
 * unchanged, used to free the arrays that a()'s cached view of it still
 * read (AddressSanitizer: heap-use-after-free; without it, whatever the
 * allocator had put there).  The twin takes no lock in t2(). */
#define LOCKED_IN_RECURSION(lock, unlock, mark) \
	"#include <pthread.h>\n" \
	"static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n" \
	"int x;\n" \
	"void a(int n);\n" \
	"void b(int n) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); if (n) a(n - 1); }\n" \
	"void a(int n) { if (n) b(n - 1); }\n" \
	"static void *t1(void *p) { a(3); return p; }\n" \
	"static void *t2(void *p) { " lock " x++; " unlock " return p; } " mark "\n" \
	"int main(void) { pthread_t u, v; pthread_create(&u, 0, t1, 0); pthread_create(&v, 0, t2, 0);\n" \
	"  pthread_join(u, 0); pthread_join(v, 0); return 0; }\n"

Test(locks, a_lock_held_inside_a_recursive_component_is_seen_by_its_callers)
{
	expect_one(LOCKED_IN_RECURSION("pthread_mutex_lock(&m);", "pthread_mutex_unlock(&m);", ""));
}

Test(locks, an_unlocked_access_racing_with_one_inside_a_recursive_component_is_reported)
{
	expect_one(LOCKED_IN_RECURSION("", "", "/*D*/"));
}

/* A lockset race names the function that makes each access, and the
 * caller whose lock it names: the review of 2026-12-04 found the caller
 * given as the writer. */
Test(locks, a_lockset_race_names_the_access_and_its_caller)
{
	expect_one("#include <pthread.h>\n"
		   "static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
		   "int count;\n"
		   "static void bump(void) { count++; }\n"
		   "void locked(void) { pthread_mutex_lock(&m); bump(); pthread_mutex_unlock(&m); }\n"
		   "int peek(void) { return count; } /*D*/\n");
	cr_assert_not_null(strstr(last_findings_text(), "the read-modify-write in bump() called from locked() holds 'm'"),
			   "%s", last_findings_text());
}

/* W20: main() picks its test through a local function pointer (perfbook's
 * torture harnesses).  The pointer holds only stress_test, so the call is
 * a direct call: what stress_test() does before its first pthread_create
 * runs alone, and its write of mode is initialisation that the children's
 * unordered read of mode cannot race with. */
#define STRESS \
	"#include <pthread.h>\n#include <stdio.h>\n#include <string.h>\n" \
	"struct child { long ops; } cp[2];\n" \
	"static int goflag;\n" \
	"int mode;\n" \
	"static void *child(void *arg) {\n" \
	"	struct child *c = arg;\n" \
	"	int m = mode; %s\n" \
	"	while (!READ_ONCE(goflag))\n" \
	"		;\n" \
	"	c->ops += m;\n" \
	"	return NULL;\n" \
	"}\n" \
	"static void stress_test(void) {\n" \
	"	pthread_t t[2];\n" \
	"	long ops = 0;\n" \
	"	mode = 1;\n" \
	"	for (int i = 0; i < 2; i++) {\n" \
	"		cp[i].ops = 0;\n" \
	"		pthread_create(&t[i], 0, child, &cp[i]);\n" \
	"	}\n" \
	"	WRITE_ONCE(goflag, 1);\n" \
	"	for (int i = 0; i < 2; i++)\n" \
	"		pthread_join(t[i], 0);\n" \
	"	for (int i = 0; i < 2; i++)\n" \
	"		if (READ_ONCE(goflag))\n" \
	"			ops += cp[i].ops;\n" \
	"	printf(\"%%ld\\n\", ops);\n" \
	"}\n" \
	"static void smoke_test(void) { }\n" \
	"extern void (*hook)(void);\n" \
	"int main(int argc, char **argv) {\n" \
	"	void (*test_to_do)(void) = NULL;\n" \
	"	if (argc > 1 && strcmp(argv[1], \"--stresstest\") == 0)\n" \
	"		test_to_do = stress_test;\n" \
	"	else\n" \
	"		test_to_do = %s;\n" \
	"	if (test_to_do)\n" \
	"		test_to_do();\n" \
	"	return 0;\n" \
	"}\n"

/* MARKER: the expected finding's marker at the children's read of mode;
 * OTHER: what main() may store in the pointer besides stress_test;
 * EXTRA: a second file, or NULL. */
static void expect_stress(const char *marker, const char *other, const char *extra)
{
	size_t size = strlen(LKMM STRESS) + strlen(marker) + strlen(other) + 1;
	char *text = malloc(size);
	struct src s[2] = { { "t.c", NULL }, { "hook.c", extra } };

	cr_assert(text && snprintf(text, size, LKMM STRESS, marker, other) > 0);
	s[0].text = text;
	expect_findings(s, extra ? 2 : 1, NULL);
	free(text);
}

Test(context, test_picked_through_a_local_function_pointer_is_called_by_main)
{
	expect_stress("", "smoke_test", NULL);
}

/* The other direction: a pointer that may also hold what another file
 * returns is a call through an unknown pointer, as before: stress_test()
 * may run in any thread, its write of mode while others run. */
Test(context, test_picked_through_an_unknown_pointer_runs_in_any_thread)
{
	expect_stress("/*D*/", "hook", "void (*hook)(void);\n");
}

/* Facts come from the settled states only.  run() may be called from any
 * thread, so its accesses count while threads run, until its loop of
 * pthread_join: after it the writers are joined (the dataflow's join
 * rule).  Before the states settle, the first walk reached the code after
 * that loop from the loop's entry alone, as if no join had run, and the
 * read of data was reported with the write it cannot race with.  The twin
 * reads before the joins, while the writers run. */
#define JOIN_THEN_READ(wmark, early, late) \
	LKMM "#include <pthread.h>\n" \
	"int data, flag;\n" \
	"static void *writer(void *a) { data = 1; WRITE_ONCE(flag, 1); return a; } " wmark "\n" \
	"int run(void) {\n" \
	"	pthread_t t[2];\n" \
	"	int sum = 0;\n" \
	"	for (int i = 0; i < 2; i++)\n" \
	"		pthread_create(&t[i], 0, writer, 0);\n" \
	"	" early "\n" \
	"	for (int i = 0; i < 2; i++)\n" \
	"		pthread_join(t[i], 0);\n" \
	"	" late "\n" \
	"	return sum;\n" \
	"}\n"

Test(context, reads_after_a_loop_of_joins_are_not_reported)
{
	expect_one(JOIN_THEN_READ("", "", "if (READ_ONCE(flag)) sum = data;"));
}

Test(context, reads_before_the_joins_are_reported)
{
	expect_one(JOIN_THEN_READ("/*W*/", "if (READ_ONCE(flag)) sum = data; /*R*/", ""));
}

/* The same for the ordering rules (W5): a helper's accesses to list
 * fields (one object for every list) made holding ma in one thread and mb
 * in the other are two instances, each kept apart by its own lock, and
 * the flag between the threads publishes nothing from one to the other.
 * Without the second lock the pair is still reported. */
#define LOCKED_LISTS(lock, unlock, m1, m2, m3) \
	"#include <pthread.h>\n" \
	"struct node { int v; struct node *next; };\n" \
	"struct list { struct node *first; };\n" \
	"struct list la, lb;\n" \
	"struct node na, nb;\n" \
	"pthread_mutex_t ma, mb;\n" \
	"int ready;\n" \
	"static void add(struct list *l, struct node *n) { n->next = l->first; " m1 " l->first = n; " m2 " }\n" \
	"static void *t1(void *a) {\n" \
	"	pthread_mutex_lock(&ma);\n" \
	"	add(&la, &na);\n" \
	"	pthread_mutex_unlock(&ma);\n" \
	"	WRITE_ONCE(ready, 1);\n" \
	"	return a;\n" \
	"}\n" \
	"static void *t2(void *a) {\n" \
	"	if (READ_ONCE(ready)) { " m3 "\n" \
	"		" lock "\n" \
	"		add(&lb, &nb);\n" \
	"		" unlock "\n" \
	"	}\n" \
	"	return a;\n" \
	"}\n" \
	"int main(void) {\n" \
	"	pthread_t x, y;\n" \
	"	pthread_create(&x, 0, t1, 0);\n" \
	"	pthread_create(&y, 0, t2, 0);\n" \
	"	pthread_join(x, 0);\n" \
	"	pthread_join(y, 0);\n" \
	"	return 0;\n" \
	"}\n"

Test(locks, two_lists_each_under_its_own_mutex_publish_nothing_to_each_other)
{
	expect_one(LKMM LOCKED_LISTS("pthread_mutex_lock(&mb);", "pthread_mutex_unlock(&mb);", "", "", ""));
}

Test(locks, a_list_updated_without_its_mutex_still_pairs_with_the_flag)
{
	/* the writes of n->next and l->first, each a missing-acquire */
	expect_one(LKMM LOCKED_LISTS("", "", "/*R*/", "/*R*/", ""));
}

/* main() of the record tests below: two workers and a scanner. */
#define WORKERS_AND_SCANNER_MAIN \
	"int main(void) {\n" \
	"	pthread_t t[3];\n" \
	"	pthread_create(&t[0], 0, worker, 0);\n" \
	"	pthread_create(&t[1], 0, worker, 0);\n" \
	"	pthread_create(&t[2], 0, scanner, 0);\n" \
	"	for (int i = 0; i < 3; i++)\n" \
	"		pthread_join(t[i], 0);\n" \
	"	return 0;\n" \
	"}\n"

/* W16: each thread allocates its record and links it into a global list
 * for a scanner, which reads only 'active'.  'count' is touched by the
 * owner alone, through its own pointer: no race on it, whatever the flag
 * around it (analysis/owned.c).  When the scanner reads 'count' through
 * the list too, it is shared and the pairings come back. */
#define RECORDS(scanned, mark, mark2) \
	"#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct rec { int count; int active; struct rec *next; };\n" \
	"static struct rec *recs;\n" \
	"static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static int go;\n" \
	"static void *worker(void *a) {\n" \
	"	struct rec *r = malloc(sizeof(*r));\n" \
	"	if (!r) abort();\n" \
	"	r->count = 0;\n" \
	"	r->active = 0;\n" \
	"	pthread_mutex_lock(&reg_lock);\n" \
	"	r->next = recs;\n" \
	"	recs = r;\n" \
	"	pthread_mutex_unlock(&reg_lock);\n" \
	"	for (int i = 0; i < 100; i++) {\n" \
	"		if (READ_ONCE(go))\n" \
	"			r->count++; " mark "\n" \
	"		WRITE_ONCE(go, 1);\n" \
	"		WRITE_ONCE(r->active, r->count & 1); " mark2 "\n" \
	"	}\n" \
	"	return a;\n" \
	"}\n" \
	"static void *scanner(void *a) {\n" \
	"	int n = 0;\n" \
	"	pthread_mutex_lock(&reg_lock);\n" \
	"	for (struct rec *p = recs; p; p = p->next)\n" \
	"		n += READ_ONCE(p->active)" scanned ";\n" \
	"	pthread_mutex_unlock(&reg_lock);\n" \
	"	return (void *)(long)n;\n" \
	"}\n" \
	WORKERS_AND_SCANNER_MAIN

Test(identity, a_field_only_its_owner_touches_races_with_nothing)
{
	expect_one(LKMM RECORDS("", "", ""));
}

Test(identity, a_field_a_scanner_reads_through_the_list_is_shared)
{
	/* the scanner's locked write through the list races with the
	 * owner's unlocked increment and read */
	expect_one(LKMM RECORDS(", p->count = 0", "/*D*/", "/*D*/"));
}

/* W16 through a thread's argument (liburcu's call_rcu_data): the creator
 * allocates the record, links it into a list and hands it to the thread
 * it starts; only that thread touches gp_count, in a helper it passes the
 * record to.  When the creator writes gp_count after the creation, it no
 * longer owns the record and both sides are reported. */
#define THREAD_RECORD(after_create, mark1, mark2) \
	"#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct data { int gp_count; int flags; struct data *next; };\n" \
	"static struct data *list;\n" \
	"static pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static void affinity(struct data *d) { d->gp_count++; WRITE_ONCE(d->flags, d->flags | 2); } " mark1 "\n" \
	"static void *thread(void *arg) {\n" \
	"	struct data *d = arg;\n" \
	"	while (!(READ_ONCE(d->flags) & 1))\n" \
	"		affinity(d);\n" \
	"	return 0;\n" \
	"}\n" \
	"static void start(void) {\n" \
	"	pthread_t t;\n" \
	"	struct data *d = malloc(sizeof *d);\n" \
	"	if (!d) abort();\n" \
	"	d->gp_count = 0;\n" \
	"	d->flags = 0;\n" \
	"	pthread_mutex_lock(&l);\n" \
	"	d->next = list;\n" \
	"	list = d;\n" \
	"	pthread_mutex_unlock(&l);\n" \
	"	pthread_create(&t, 0, thread, d);\n" \
	"	" after_create " " mark2 "\n" \
	"}\n" \
	"void stop_all(void) { for (struct data *p = list; p; p = p->next) WRITE_ONCE(p->flags, 1); }\n" \
	"int main(void) { start(); start(); stop_all(); return 0; }\n"

Test(identity, a_field_only_the_thread_given_the_record_touches_races_with_nothing)
{
	expect_one(LKMM THREAD_RECORD("", "", ""));
}

Test(identity, a_field_the_creator_writes_after_the_creation_is_shared)
{
	expect_one(LKMM THREAD_RECORD("d->gp_count = 5; WRITE_ONCE(d->flags, 4);", "/*R*/ /*D*/", "/*W*/"));
}

/* Ownership is exclusive: each worker allocates its record, writes
 * 'epoch' at registration and reads it again after a flag, both through
 * its own pointer, while a scanner reads 'epoch' through the list (a
 * shared field, not an owner-only one).  The two owned accesses are of two
 * records or of one thread: no pairing of them is a race.  When the
 * scanner also writes 'epoch' through the list and publishes it with the
 * flag, the owner's read races with that write (reported both ways). */
#define OWNED_PAIR(scanner_writes, mark_read, mark_write) \
	"#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct rec { int epoch; int active; struct rec *next; };\n" \
	"static struct rec *recs;\n" \
	"static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static int go;\n" \
	"static void *worker(void *a) {\n" \
	"	struct rec *r = malloc(sizeof(*r));\n" \
	"	int n = 0;\n" \
	"	if (!r) abort();\n" \
	"	r->epoch = 1;\n" \
	"	pthread_mutex_lock(&reg_lock);\n" \
	"	r->next = recs;\n" \
	"	recs = r;\n" \
	"	pthread_mutex_unlock(&reg_lock);\n" \
	"	WRITE_ONCE(go, 1);\n" \
	"	for (int i = 0; i < 100; i++) {\n" \
	"		if (READ_ONCE(go))\n" \
	"			n += r->epoch; " mark_read "\n" \
	"		WRITE_ONCE(r->active, n);\n" \
	"	}\n" \
	"	return a;\n" \
	"}\n" \
	"static void *scanner(void *a) {\n" \
	"	int n = 0;\n" \
	"	pthread_mutex_lock(&reg_lock);\n" \
	"	for (struct rec *p = recs; p; p = p->next) {\n" \
	"		n += READ_ONCE(p->epoch);\n" \
	"		" scanner_writes " " mark_write "\n" \
	"	}\n" \
	"	pthread_mutex_unlock(&reg_lock);\n" \
	"	return (void *)(long)n;\n" \
	"}\n" \
	WORKERS_AND_SCANNER_MAIN

Test(identity, two_accesses_each_through_its_owners_pointer_never_race)
{
	expect_one(LKMM OWNED_PAIR("", "", ""));
}

Test(identity, an_owned_access_still_races_with_a_write_through_the_list)
{
	expect_one(LKMM OWNED_PAIR("p->epoch = 2; WRITE_ONCE(go, 1);", "/*D*/ /*R*/", "/*W*/"));
}

/* A record allocated before a loop of pthread_create is handed to every
 * thread of the loop: none of them owns it alone, and their increments
 * race.  Allocated inside the loop, each thread gets its own; so does
 * each thread given its own element of an array allocated before. */
#define LOOP_HANDOVER(before, inside, arg, mark) \
	"#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct data { int gp_count; int flags; };\n" \
	"static void *thread(void *arg) {\n" \
	"	struct data *d = arg;\n" \
	"	while (!(READ_ONCE(d->flags) & 1)) {\n" \
	"		d->gp_count++; " mark "\n" \
	"		WRITE_ONCE(d->flags, d->flags | 2);\n" \
	"	}\n" \
	"	return 0;\n" \
	"}\n" \
	"int main(void) {\n" \
	"	pthread_t t[2];\n" \
	"	struct data *d;\n" \
	"	" before "\n" \
	"	for (int i = 0; i < 2; i++) {\n" \
	"		" inside "\n" \
	"		pthread_create(&t[i], 0, thread, " arg ");\n" \
	"	}\n" \
	"	for (int i = 0; i < 2; i++)\n" \
	"		pthread_join(t[i], 0);\n" \
	"	return 0;\n" \
	"}\n"
#define NEW_DATA "d = malloc(sizeof *d); if (!d) abort(); d->gp_count = 0; d->flags = 0;"

Test(identity, a_record_allocated_in_the_creating_loop_is_each_threads_own)
{
	expect_one(LKMM LOOP_HANDOVER("", NEW_DATA, "d", ""));
}

Test(identity, an_element_of_an_array_allocated_before_the_creating_loop_is_each_threads_own)
{
	expect_one(LKMM LOOP_HANDOVER("d = calloc(2, sizeof *d); if (!d) abort();", "", "&d[i]", ""));
}

Test(identity, a_record_allocated_before_the_creating_loop_is_shared_by_its_threads)
{
	expect_one(LKMM LOOP_HANDOVER(NEW_DATA, "", "d", "/*W*/ /*R*/ /*D*/"));
}

/* A thread-creating wrapper handed each thread its own element of memory
 * the creator allocated (perfbook's treetorture: cp = malloc(...);
 * create_thread(child, &cp[i])): what the child reaches through its
 * argument is its own, written by the creator before the creation.  Handed
 * the pointer itself, every child shares one record with the others. */
#define WRAPPED_ELEMENTS(arg, mark) \
	"#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct child { int nel; int done; };\n" \
	"static int goflag;\n" \
	"static pthread_t create_thread(void *(*fn)(void *), void *arg) { pthread_t t; pthread_create(&t, 0, fn, arg); return t; }\n" \
	"static void *child(void *arg) {\n" \
	"	struct child *cp = arg;\n" \
	"	int n = 0;\n" \
	"	while (READ_ONCE(goflag) == 0)\n" \
	"		;\n" \
	"	n += cp->nel; " mark "\n" \
	"	return (void *)(long)n;\n" \
	"}\n" \
	"int main(void) {\n" \
	"	struct child *cp = malloc(4 * sizeof(*cp));\n" \
	"	pthread_t t[4];\n" \
	"	for (int i = 0; i < 4; i++) {\n" \
	"		cp[i].nel = i;\n" \
	"		t[i] = create_thread(child, " arg ");\n" \
	"	}\n" \
	"	WRITE_ONCE(goflag, 1);\n" \
	"	for (int i = 0; i < 4; i++) pthread_join(t[i], 0);\n" \
	"	return 0;\n" \
	"}\n"

Test(context, each_thread_of_a_wrapper_reads_its_own_element_of_owned_memory)
{
	expect_one(LKMM WRAPPED_ELEMENTS("&cp[i]", ""));
}

Test(context, threads_of_a_wrapper_handed_one_record_still_race)
{
	expect_one(LKMM WRAPPED_ELEMENTS("cp", "/*R*/"));
}

/* A pointer whose address is handed to a call (an out-parameter) holds
 * whatever the call stored there afterwards: the consumer's own allocation
 * is replaced by the shared item, and the read of 'v' is a shared access,
 * reported, whether or not the consumer wrote its own allocation first.
 * Without the out-parameter the read is of the consumer's fresh memory. */
#define OUT_PARAM(init, take, mark_w, mark_r) \
	"#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct item { int v; };\n" \
	"static struct item *shared;\n" \
	"static int ready;\n" \
	"static void take(struct item **out) { *out = shared; }\n" \
	"static void *producer(void *a) { shared->v = 42; WRITE_ONCE(ready, 1); return a; } " mark_w "\n" \
	"static void *consumer(void *a) {\n" \
	"	struct item *e = malloc(sizeof(*e));\n" \
	"	if (!e) abort();\n" \
	"	" init "\n" \
	"	" take "\n" \
	"	if (READ_ONCE(ready))\n" \
	"		return (void *)(long)e->v; " mark_r "\n" \
	"	return a;\n" \
	"}\n" \
	"int main(void) {\n" \
	"	pthread_t t[2];\n" \
	"	shared = calloc(1, sizeof(*shared));\n" \
	"	pthread_create(&t[0], 0, producer, 0);\n" \
	"	pthread_create(&t[1], 0, consumer, 0);\n" \
	"	for (int i = 0; i < 2; i++)\n" \
	"		pthread_join(t[i], 0);\n" \
	"	return 0;\n" \
	"}\n"

Test(identity, a_pointer_filled_through_an_out_parameter_is_neither_fresh_nor_owned)
{
	expect_one(LKMM OUT_PARAM("e->v = 0;", "take(&e);", "/*W*/", "/*R*/"));
	expect_one(LKMM OUT_PARAM("", "take(&e);", "/*W*/", "/*R*/"));
}

Test(identity, a_pointer_to_the_consumers_own_allocation_is_fresh)
{
	expect_one(LKMM OUT_PARAM("e->v = 0;", "", "", ""));
}

/* Phases of main(): test()'s threads are all joined before test_spmc()'s
 * are created (Concurrency Kit's ring validation programs), so the two
 * start routines never run together.  Without the joins between the
 * phases they do, and the pair is reported. */
#define PHASES(joins, mark1, mark2) \
	"#include <pthread.h>\n" \
	"struct entry { int value; };\n" \
	"struct entry entries[16];\n" \
	"int flag;\n" \
	"static void *test(void *a) { entries[1].value = 1; WRITE_ONCE(flag, 1); return a; } " mark1 "\n" \
	"static void *test_spmc(void *a) { if (READ_ONCE(flag)) return (void *)(long)entries[1].value; return a; } " mark2 "\n" \
	"int main(void) {\n" \
	"	pthread_t t[4];\n" \
	"	int i;\n" \
	"	for (i = 0; i < 4; i++)\n" \
	"		if (pthread_create(t + i, NULL, test, NULL)) return 1;\n" \
	joins \
	"	for (i = 0; i < 4; i++)\n" \
	"		if (pthread_create(t + i, NULL, test_spmc, NULL)) return 1;\n" \
	"	for (i = 0; i < 4; i++)\n" \
	"		pthread_join(t[i], NULL);\n" \
	"	return 0;\n" \
	"}\n"

Test(context, start_routines_of_two_phases_of_main_never_run_together)
{
	expect_one(LKMM PHASES("	for (i = 0; i < 4; i++)\n		pthread_join(t[i], NULL);\n", "", ""));
}

Test(context, start_routines_created_without_a_join_between_run_together)
{
	expect_one(LKMM PHASES("", "/*W*/", "/*R*/"));
}

/* ---- W18 of docs/limitations.md: a static function nothing calls ---- */

/* list_move_tail() is a static function of the file that nothing calls:
 * no other file can call it, so it never runs, and __list_del()'s only
 * real caller holds the lock.  As an external function nothing calls, it
 * is a plain helper of whatever list its caller passes (nothing names
 * one in the tree): no pairing either.  The twin is an external function
 * that names the tree's own list: a library entry point any thread may
 * call without the lock, reported.  (MOVED: the list it moves from.) */
#define LIST_MOVE(linkage, moved, mark) "#include <pthread.h>\n" \
	"struct list_head { struct list_head *next, *prev; };\n" \
	"static struct list_head a_list;\n" \
	"static inline void __list_del(struct list_head *prev, struct list_head *next)\n" \
	"{ next->prev = prev; " mark "\n prev->next = next; " mark " }\n" \
	linkage " void list_move_tail(struct list_head *e, struct list_head *h)\n" \
	"{ __list_del(" moved "->prev, " moved "->next); } " mark "\n" \
	"static struct list_head a_list = { &a_list, &a_list };\n" \
	"static pthread_mutex_t a_lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static void *a_thread(void *arg) {\n" \
	"	pthread_mutex_lock(&a_lock);\n" \
	"	if (a_list.next != &a_list) __list_del(a_list.next->prev, a_list.next->next);\n" \
	"	pthread_mutex_unlock(&a_lock);\n" \
	"	return arg;\n" \
	"}\n" \
	MAIN_TWO_THREADS("a_thread")

Test(context, a_static_function_nothing_calls_never_runs)
{
	expect_one(LIST_MOVE("static inline", "e", ""));
}

Test(context, an_external_plain_helper_nothing_calls_pairs_with_nothing)
{
	expect_one(LIST_MOVE("", "e", ""));
}

Test(context, an_external_function_naming_the_list_is_an_entry_point)
{
	expect_one(LIST_MOVE("", "a_list.next", "/*D*/"));
}

/* A header scanned as a translation unit of its own (a library's inline
 * API, as bench/histfix scans haproxy's mt_list.h): its static inline
 * functions are what the files that include it call, so each is an entry
 * point, not a static of a .c file that nothing calls.  The same text as
 * a .c file is a file whose statics never run. */
#define INLINE_API(wmark, rmark) LKMM \
	"struct box { int data; int ready; };\n" \
	"static inline void box_put(struct box *b, int v) { b->data = v; " wmark " WRITE_ONCE(b->ready, 1); }\n" \
	"static inline int box_get(struct box *b) { return READ_ONCE(b->ready) ? b->data : -1; } " rmark "\n"

Test(context, a_header_scanned_alone_is_an_api)
{
	struct src s[] = { { "box.h", INLINE_API("/*W*/", "/*R*/") } };

	expect_findings(s, 1, NULL);
}

Test(context, the_same_statics_in_a_c_file_nothing_calls_never_run)
{
	struct src s[] = { { "box.c", INLINE_API("", "") } };

	expect_findings(s, 1, NULL);
}

/* A function reached only from one that never runs runs in no thread
 * either: list_del_init(), a plain helper nothing calls, pairs its own
 * writes with nothing, not even with those of the __list_del() it calls,
 * whose other caller holds a lock (liburcu's cds_list_del_init()).  The
 * twin: a second thread calls it on the tree's list without the lock,
 * reported.  (SECOND: the second thread's body; MARK: the marker on the
 * helper's accesses.) */
#define LIST_DEL_INIT(second, mark) "#include <pthread.h>\n" \
	"struct list_head { struct list_head *next, *prev; };\n" \
	"static inline void __list_del(struct list_head *prev, struct list_head *next)\n" \
	"{ next->prev = prev; prev->next = next; }\n" \
	"void list_del_init(struct list_head *e)\n" \
	"{ __list_del(e->prev, e->next); " mark "\n" \
	"  e->next = e; e->prev = e; } " mark "\n" \
	"static struct list_head a_list = { &a_list, &a_list };\n" \
	"static pthread_mutex_t a_lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static void del_locked(struct list_head *e) {\n" \
	"	pthread_mutex_lock(&a_lock);\n" \
	"	__list_del(e->prev, e->next);\n" \
	"	pthread_mutex_unlock(&a_lock);\n" \
	"}\n" \
	"static void *a_thread(void *arg) { del_locked(&a_list); return arg; }\n" \
	"static void *b_thread(void *arg) { " second " return arg; }\n" \
	"int main(void) { pthread_t t[2]; pthread_create(&t[0], 0, a_thread, 0);\n" \
	"  pthread_create(&t[1], 0, b_thread, 0);\n" \
	"  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

Test(context, a_helper_only_a_function_that_never_runs_calls_never_runs)
{
	expect_one(LIST_DEL_INIT("", ""));
}

Test(context, the_same_helper_called_by_a_thread_without_the_lock_races)
{
	expect_one(LIST_DEL_INIT("list_del_init(a_list.next); /*D*/", "/*D*/"));
}

/* ---- memory freed after use: the consumer's own (analysis/claimed.c) ---- */

/* Consumers take entries off a ring with a compare-and-swap on the head,
 * check and scribble over the entry, then free it (ck_ring's validation
 * consumers).  Each entry is one consumer's from the dequeue to the free:
 * two consumers' accesses are of two entries.  ENDING is what a consumer
 * does with the entry last; MARK the marker on its scribble. */
#define RING(ending, mark) \
	LKMM "#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct entry { int value, magic; };\n" \
	"struct entry *slots[16]; int head, tail;\n" \
	"struct entry *kept;\n" \
	"static int deq(struct entry **o) { int h = READ_ONCE(head); if (h == smp_load_acquire(&tail)) return 0;\n" \
	"  *o = slots[h % 16]; return cmpxchg(&head, h, h + 1) == h; }\n" \
	"static void *consumer(void *a) {\n" \
	"  for (int i = 0; i < 100; i++) {\n" \
	"    struct entry *o;\n" \
	"    while (!deq(&o))\n" \
	"      ;\n" \
	"    if (o->value != 1)\n" \
	"      abort();\n" \
	"    o->magic = 2; " mark "\n" \
	"    for (int k = 0; k < i; k++)\n" \
	"      (void)READ_ONCE(tail);\n" \
	"    " ending "\n" \
	"  }\n" \
	"  return a;\n" \
	"}\n" \
	"static void *producer(void *a) {\n" \
	"  for (int i = 0; i < 100; i++) {\n" \
	"    struct entry *e = malloc(sizeof *e);\n" \
	"    if (!e) abort();\n" \
	"    e->value = 1; e->magic = 0; slots[i % 16] = e;\n" \
	"    smp_store_release(&tail, i + 1);\n" \
	"  }\n" \
	"  return a;\n" \
	"}\n" \
	"int main(void) { pthread_t t[3]; pthread_create(&t[0], 0, producer, 0);\n" \
	"  pthread_create(&t[1], 0, consumer, 0); pthread_create(&t[2], 0, consumer, 0);\n" \
	"  for (int i = 0; i < 3; i++) pthread_join(t[i], 0); return 0; }\n"

Test(claimed, consumers_that_free_what_they_dequeued_do_not_race)
{
	struct src s[] = { { "ring.c", RING("free(o);", "") } };

	expect_findings(s, 1, NULL);
}

/* The twin: a consumer that keeps the entry somewhere others can reach
 * does not hold it alone; the other consumer's read of the same field
 * after its head CAS is then not ordered after the first one's write. */
Test(claimed, consumers_that_hand_the_entry_on_are_paired)
{
	struct src s[] = { { "ring.c", RING("WRITE_ONCE(kept, o);", "/*R*/") } };

	expect_findings(s, 1, NULL);
}

/* ---- a thread-creating helper's accesses after its pthread_create ---- */

/* create_thread() stores the new thread's id in a table under a lock;
 * the new thread looks itself up in the table without it.  A call of the
 * helper that a thread creation follows is initialisation for that
 * thread only in what the helper does before its own pthread_create
 * (BEFORE, AFTER: what it stores there; MARK: the finding's marker on the
 * thread's read). */
#define CREATE_THREAD(before, after, mark) \
	LKMM "#include <pthread.h>\n" \
	"static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static pthread_t map[4];\n" \
	"static int slot[4];\n" \
	"static void create_thread(void *(*fn)(void *), void *arg) {\n" \
	"	pthread_t tid = pthread_self();\n" \
	"	pthread_mutex_lock(&map_lock);\n" \
	"	" before "\n" \
	"	pthread_create(&tid, 0, fn, arg);\n" \
	"	" after "\n" \
	"	pthread_mutex_unlock(&map_lock);\n" \
	"}\n" \
	"static void *worker(void *a) {\n" \
	"	for (int i = 0; i < 4; i++)\n" \
	"		if (slot[i] && pthread_equal(map[i], pthread_self())) " mark "\n" \
	"			return a;\n" \
	"	return 0;\n" \
	"}\n" \
	"int main(void) {\n" \
	"	for (int i = 0; i < 4; i++)\n" \
	"		create_thread(worker, 0);\n" \
	"	return 0;\n" \
	"}\n"

Test(spawn, a_store_after_the_helpers_own_thread_creation_races)
{
	expect_one(CREATE_THREAD("", "map[0] = tid;", "/*D*/"));
}

Test(spawn, a_store_before_it_is_initialisation)
{
	expect_one(CREATE_THREAD("slot[0] = 1;", "", ""));
}

/* A test under a lock before a thread creation (a lazily started worker,
 * liburcu's cds_lfht_init_worker): the read holds the lock as the write
 * after the creation does; a read outside the lock races. */
#define LAZY_WORKER(test) \
	"#include <pthread.h>\n" \
	"static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static void *wq;\n" \
	"static void *worker(void *a) { return a; }\n" \
	"static void *start_worker(void) { pthread_t t; pthread_create(&t, 0, worker, 0); return (void *)1; }\n" \
	"static void init(void) {\n" \
	"	" test "\n" \
	"	pthread_mutex_lock(&m);\n" \
	"	if (!wq)\n" \
	"		wq = start_worker();\n" \
	"	pthread_mutex_unlock(&m);\n" \
	"}\n" \
	"static void *user(void *a) { init(); return a; }\n" \
	"int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, user, 0);\n" \
	"  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

Test(spawn, a_test_under_the_lock_before_the_creation_holds_it)
{
	expect_one(LAZY_WORKER(""));
}

Test(spawn, a_test_outside_the_lock_races)
{
	expect_one(LAZY_WORKER("if (wq) return; /*D*/"));
}

/* ---- threads created and joined in one round of a loop ---- */

/* A thread created in a loop runs several times at once only when the
 * loop comes round again before it is joined (threads.c,
 * creates_again_while_running); the join may be blocks away. */
#define COUNTED(main_body) \
	"#include <pthread.h>\n#include <sched.h>\n" \
	"static long counter;\n" \
	"static void *worker(void *a) { counter++; " main_body

Test(context, threads_created_in_one_loop_and_joined_in_another_run_together)
{
	expect_one(COUNTED("/*D*/ return a; }\n"
			   "int main(void) { pthread_t t[2];\n"
			   "  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);\n"
			   "  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n"
			   "  return counter != 2; }\n"));
}

Test(context, a_thread_joined_in_the_round_that_created_it_runs_alone)
{
	expect_one(COUNTED("return a; }\n"
			   "int main(void) { pthread_t t;\n"
			   "  for (int i = 0; i < 2; i++) {\n"
			   "    pthread_create(&t, 0, worker, 0);\n"
			   "    if (i == 1)\n      sched_yield();\n"
			   "    pthread_join(t, 0);\n  }\n"
			   "  return counter != 2; }\n"));
}
