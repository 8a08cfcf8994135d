/* tests/unit/test_locals.c — W4 of docs/history/real-code-reviews.md: a local stays private
 * when it is reached through a pointer ((&m)->b, as CPU_SET and
 * CDS_INIT_LIST_HEAD expand; p = &m; p->b) or passed two or more calls
 * deep (set2(&m) where set2 calls set1, which writes the fields; a
 * caller-owned in/out struct such as an iterator).  Each correct shape
 * must give nothing; its buggy twin, on an object that really is shared
 * (a global, or a local whose address escapes to a global, a marked store
 * or another thread), must still be reported.  Real scans, through
 * scan_helper.c (extract_locals.c, private_args.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"

#define LKMM "#include <kcsan/lkmm.h>\n#include <pthread.h>\n"
#define MAIN2 \
	MAIN_TWO_THREADS("thr")

/* ---- reached through &m ---- */

#define RUN_ON_THREADS \
	"void *thr(void *a) { run_on(1); while (READ_ONCE(goflag) == 0) ; run_on(2); return a; }\n" \
	"int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, thr, 0);\n" \
	"  run_on(0); WRITE_ONCE(goflag, 1); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

Test(locals, cpu_set_on_a_local_mask_is_private)
{
	expect_one("#define _GNU_SOURCE\n#include <sched.h>\n" LKMM
		   "int goflag;\n"
		   "void run_on(int cpu) { cpu_set_t mask; CPU_ZERO(&mask); CPU_SET(cpu, &mask);"
		   " sched_setaffinity(0, sizeof(mask), &mask); }\n"
		   RUN_ON_THREADS);
}

Test(locals, cpu_set_on_a_global_mask_still_races)
{
	expect_one("#define _GNU_SOURCE\n#include <sched.h>\n" LKMM
		   "int goflag;\n"
		   "cpu_set_t mask;\n"
		   "void run_on(int cpu) { CPU_ZERO(&mask); CPU_SET(cpu, &mask); /*D*/ /*R*/ /*W*/\n"
		   " sched_setaffinity(0, sizeof(mask), &mask); }\n"
		   RUN_ON_THREADS);
}

Test(locals, local_reached_through_its_address_or_a_pointer_copy_is_private)
{
	expect_one(LKMM "int flag; struct q { int p; };\n"
		   "void *thr(void *a) {\n"
		   "	struct q mine, *pm = &mine;\n"
		   "	void *v = pm;\n"
		   "	struct q *p = (struct q *)v, *p2 = p;\n"
		   "	pm->p = 1; p2->p = 2;\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "	if (READ_ONCE(flag)) (&mine)->p = 3;\n"
		   "	return a;\n"
		   "}\n"
		   MAIN2);
}

Test(locals, local_published_by_a_marked_store_is_shared)
{
	expect_one(LKMM "int flag; struct q { int p; } *shared;\n"
		   "void writer(void) { struct q mine; smp_store_release(&shared, &mine);\n"
		   "	mine.p = 1; /*W*/\n"
		   "	WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) { if (READ_ONCE(flag)) shared->p = 2; /*R*/ }\n");
}

Test(locals, pointer_copy_published_by_a_marked_store_is_shared)
{
	expect_one(LKMM "int flag; struct q { int p; } *shared;\n"
		   "void writer(void) { struct q mine, *pm = &mine; WRITE_ONCE(shared, pm);\n"
		   "	pm->p = 1; /*W*/\n"
		   "	WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) { if (READ_ONCE(flag)) shared->p = 2; /*R*/ }\n");
}

Test(locals, local_handed_to_a_thread_through_a_pointer_copy_is_shared)
{
	expect_one(LKMM "int flag; struct q { int p; };\n"
		   "void *thr(void *a) { struct q *m = a; if (READ_ONCE(flag)) m->p = 2; /*R*/ return 0; }\n"
		   "int main(void) { pthread_t t; struct q mine, *pm = &mine;\n"
		   "	pthread_create(&t, 0, thr, pm);\n"
		   "	pm->p = 1; /*W*/\n"
		   "	WRITE_ONCE(flag, 1); pthread_join(t, 0); return 0; }\n");
}

/* CDS_INIT_LIST_HEAD(&junk) stores &junk into junk itself: that hands the
 * address to no one, until junk's contents go somewhere shared. */
#define INIT_LIST "struct list { struct list *next, *prev; } *gl;\n" \
	"#define INIT_LIST(ptr) (ptr)->next = (ptr)->prev = (ptr)\n" \
	"int flag;\n"

Test(locals, list_head_pointing_to_itself_is_private)
{
	expect_one(LKMM INIT_LIST
		   "void clear(void) { struct list junk; INIT_LIST(&junk); WRITE_ONCE(flag, 1); }\n"
		   "void use(void) { struct list mine; if (READ_ONCE(flag)) INIT_LIST(&mine); }\n");
}

Test(locals, list_head_whose_contents_reach_a_global_is_shared)
{
	expect_one(LKMM INIT_LIST
		   "void clear(void) { struct list junk; INIT_LIST(&junk); gl = junk.next; WRITE_ONCE(flag, 1); } /*W*/\n"
		   "void use(void) { if (READ_ONCE(flag)) INIT_LIST(gl); } /*R*/\n");
}

/* ---- passed two or more calls deep (privparams.c) ---- */

#define CHAIN(mark) \
	"int flag;\nstruct q { int p; } shared;\n" \
	"static void set1(struct q *t) { t->p = 1; } " mark "\n" \
	"static void set2(struct q *t) { set1(t); }\n" \
	"static void set3(struct q *t) { set2(t); set1(t); }\n"

Test(locals, local_passed_down_a_chain_of_calls_is_private)
{
	expect_one(LKMM CHAIN("")
		   "void *thr(void *a) { struct q mine; set3(&mine); WRITE_ONCE(flag, 1);\n"
		   "  if (READ_ONCE(flag)) set2(&mine); return a; }\n" MAIN2);
}

/* One call of the chain with shared memory makes the parameter shared for
 * every caller: the parameter is one fact for the whole tree. */
Test(locals, chain_called_once_with_a_global_still_races)
{
	expect_one(LKMM CHAIN("/*W*/ /*R*/")
		   "void *thr(void *a) { struct q mine; set3(&mine); WRITE_ONCE(flag, 1);\n"
		   "  if (READ_ONCE(flag)) set2(&shared); return a; }\n" MAIN2);
}

/* A function whose address is handed out may be called with anything:
 * its parameters are not private, whatever its direct calls pass. */
Test(locals, chain_through_a_function_handed_out_as_a_callback_still_races)
{
	expect_one(LKMM CHAIN("/*W*/ /*R*/")
		   "extern void register_cb(void (*cb)(struct q *));\n"
		   "void *thr(void *a) { struct q mine; register_cb(set2); set3(&mine); WRITE_ONCE(flag, 1);\n"
		   "  if (READ_ONCE(flag)) set2(&mine); return a; }\n" MAIN2);
}

/* An optional out-parameter: NULL passes no memory at all, so a callee
 * reached with NULL or a private local writes nothing shared (W14's
 * out-parameter part: liburcu's _cds_lfht_add(..., NULL)).  (The global's
 * twin adds once it has seen the flag set: the value the writer stores.) */
#define OUT_PARAM(mark) \
	"#include <stddef.h>\n" \
	"struct it { void *node, *next; } global_it;\nstatic int flag;\n" \
	"static void _add(void *n, struct it *ret) { if (ret) { struct it d = { n, NULL }; *ret = d; } } " mark "\n" \
	"static void add(void *n) { _add(n, NULL); }\n"

Test(locals, null_or_private_local_for_an_out_parameter_is_private)
{
	expect_one(LKMM OUT_PARAM("")
		   "static void *add_unique(void *n) { struct it iter; _add(n, &iter); return iter.node; }\n"
		   "void *thr(void *a) { for (int i = 0; i < 10; i++) { if (!READ_ONCE(flag)) add(a);\n"
		   "  else add_unique(a); WRITE_ONCE(flag, 1); } return a; }\n" MAIN2);
}

Test(locals, out_parameter_given_a_global_still_races)
{
	expect_one(LKMM OUT_PARAM("/*W*/ /*R*/")
		   "static void *add_global(void *n) { _add(n, &global_it); return global_it.node; }\n"
		   "void *thr(void *a) { for (int i = 0; i < 10; i++) { if (!READ_ONCE(flag)) add(a);\n"
		   "  else add_global(a); WRITE_ONCE(flag, 1); } return a; }\n" MAIN2);
}

/* ---- the callee's own view of a private parameter ---- */

/* probe() fills a snapshot for its caller from a shared entry: its write
 * to snap->key is to the field 'key' of every struct entry, unless every
 * call passes a private local (privparams.c).  Its callers' views drop
 * the write already; its own view must too, or the write stands as the
 * reader-side access that races with the writer's e->key (ck_ht's
 * ck_ht_map_probe_rd filling the caller's snapshot). */
#define SNAPSHOT(mark, arg) \
	"struct entry { long key; long val; };\nstruct entry *table;\n" \
	"static void probe(struct entry *snap) { long v = READ_ONCE(table->val); if (v) snap->key = v; }\n" \
	"void *wr(void *a) { struct entry *e = table; e->key = 1; " mark "\n" \
	"  WRITE_ONCE(e->val, 2); return a; }\n" \
	"void *rd(void *a) { struct entry s; probe(" arg "); return (void *)s.key; }\n" \
	"int main(void) { pthread_t t[2]; pthread_create(&t[0], 0, wr, 0); pthread_create(&t[1], 0, rd, 0);\n" \
	"  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

Test(locals, callee_writing_a_private_snapshot_races_with_nothing)
{
	expect_one(LKMM SNAPSHOT("", "&s"));
}

Test(locals, callee_writing_through_a_shared_pointer_still_races)
{
	expect_one(LKMM SNAPSHOT("/*W*/", "table"));
}

/* ---- the "expected" operand of a compare-and-swap ---- */

/* __atomic_compare_exchange_n(&l->cnt, &x, ...) writes the value it found
 * back into x, in the caller's thread: x stays the caller's own even when
 * the word is volatile (DPDK's rte_rwlock_t) or _Atomic (C11), whose
 * types differ from x's by the qualifier alone.  Two lock functions of a
 * library (entry points, so they run at the same time) then share
 * nothing but the word. */
Test(locals, expected_of_a_cas_on_a_volatile_word_is_private)
{
	expect_one("typedef struct { volatile int cnt; } rwl_t;\n"
		   "void read_lock(rwl_t *rwl) {\n"
		   "	int x, ok = 0;\n"
		   "	while (!ok) {\n"
		   "		x = __atomic_load_n(&rwl->cnt, __ATOMIC_RELAXED);\n"
		   "		if (x < 0) continue;\n"
		   "		ok = __atomic_compare_exchange_n(&rwl->cnt, &x, x + 1, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);\n"
		   "	}\n"
		   "}\n"
		   "void read_unlock(rwl_t *rwl) { __atomic_fetch_sub(&rwl->cnt, 1, __ATOMIC_RELEASE); }\n");
}

Test(locals, expected_of_a_c11_cas_on_an_atomic_word_is_private)
{
	expect_one("#include <stdatomic.h>\n"
		   "typedef struct { _Atomic int cnt; } rwl_t;\n"
		   "void read_lock(rwl_t *rwl) {\n"
		   "	int x;\n"
		   "	do {\n"
		   "		x = atomic_load_explicit(&rwl->cnt, memory_order_relaxed);\n"
		   "		if (x < 0) continue;\n"
		   "	} while (!atomic_compare_exchange_weak_explicit(&rwl->cnt, &x, x + 1,\n"
		   "			memory_order_acquire, memory_order_relaxed));\n"
		   "}\n"
		   "void read_unlock(rwl_t *rwl) { atomic_fetch_sub_explicit(&rwl->cnt, 1, memory_order_release); }\n");
}

/* The twin: the snapshot is a global, which both lock functions write. */
Test(locals, expected_in_a_global_still_races)
{
	expect_one("typedef struct { volatile int cnt; } rwl_t;\n"
		   "int x;\n"
		   "void read_lock(rwl_t *rwl) {\n"
		   "	int ok = 0;\n"
		   "	while (!ok) {\n"
		   "		x = __atomic_load_n(&rwl->cnt, __ATOMIC_RELAXED); /*W*/\n"
		   "		if (x < 0) continue; /*W*/ /*D*/\n"
		   "		ok = __atomic_compare_exchange_n(&rwl->cnt, &x, x + 1, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED); /*W*/ /*D*/\n"
		   "	}\n"
		   "}\n"
		   "void read_unlock(rwl_t *rwl) { __atomic_fetch_sub(&rwl->cnt, 1, __ATOMIC_RELEASE); }\n");
}
