/* tests/unit/test_deps.c — orderings the LKMM gives through dependencies
 * (docs/history/real-code-reviews.md, weakness 4): an address dependency that passes into a
 * callee through a parameter, and a data dependency from a load to a store.
 * Each ordered shape must give nothing; its twin without the dependency
 * must still be reported.  Real scans, through scan_helper.c. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "scan_helper.h"

#define LKMM "#include <kcsan/lkmm.h>\n#include <stdlib.h>\n"
#define NODE "struct node { int a; struct node *next; };\n"
#define PUBLISHER \
	"void writer(void) { struct node *n = malloc(sizeof *n); n->a = 1; smp_store_release(&gp, n); }\n"

Test(deps, address_dependency_through_a_parameter)
{
	expect_one(LKMM NODE "struct node *gp;\n"
		   "static int get_a(struct node *n) { return n->a; }\n"
		   "int reader(void) { struct node *p = READ_ONCE(gp); return p ? get_a(p) : 0; }\n"
		   PUBLISHER);
}

Test(deps, parameter_not_derived_from_the_read_is_reported)
{
	/* The callee reads through a pointer the caller did not get from gp:
	 * nothing orders it after the read of gp that guards it. */
	expect_one(LKMM NODE "struct node *gp, *other;\n"
		   "static int get_a(struct node *n) { return n->a; } /*R*/\n"
		   "int reader(void) { struct node *p = READ_ONCE(gp); return p ? get_a(other) : 0; }\n"
		   "void writer(void) { other->a = 1; smp_store_release(&gp, other); }\n");
}

/* push() takes an index, not the node: a node passed as a parameter and
 * published by the function is its own before (test_fresh.c), which would
 * leave no race for the twins below to differ on. */
#define PUSHERS \
	"struct node *head;\nstruct node nodes[2];\n" \
	"void *t1(void *x) { push(0); return x; }\n" \
	"void *t2(void *x) { push(1); return x; }\n" \
	"void *t3(void *x) { struct node *p = smp_load_acquire(&head); return p ? p->next : 0; }\n"

Test(deps, data_dependency_orders_a_store_after_the_load)
{
	expect_one(LKMM NODE
		   "void push(int i);\n" PUSHERS
		   "void push(int i) { struct node *n = &nodes[i], *h = READ_ONCE(head); n->next = h;"
		   " smp_store_release(&head, n); }\n");
}

Test(deps, store_not_depending_on_the_load_is_reported)
{
	expect_one(LKMM NODE
		   "void push(int i);\n" PUSHERS
		   "void push(int i) { struct node *n = &nodes[i], *h = READ_ONCE(head);\n"
		   " if (h) { n->next = NULL; /*R*/\n"
		   " smp_store_release(&head, n); } }\n");
}

/* A marked read whose value decides nothing (summed into a statistic)
 * guards nothing after it: no reader-side pattern, no consumer.  (The
 * statistic itself is a lost update: reader() is an entry point that
 * any thread may call, and it synchronises.) */
Test(deps, read_whose_value_is_unused_guards_nothing)
{
	expect_one(LKMM "int x, count; long stat;\n"
		   "void writer(void) { x = 1; WRITE_ONCE(count, 1); }\n"
		   "int reader(void) { stat += READ_ONCE(count); return x; } /*D*/\n");
}

Test(deps, read_whose_value_is_tested_still_guards)
{
	expect_one(LKMM "int x, count; long stat;\n"
		   "void writer(void) { x = 1; /*W*/ WRITE_ONCE(count, 1); }\n"
		   "int reader(void) { if (READ_ONCE(count))\n"
		   " return x; /*R*/\n"
		   " return 0; }\n");
}

/* A read that a callee only tests to choose a branch of its own (wake a
 * waiter when a futex says so) guards nothing its callers do next. */
Test(deps, read_tested_inside_a_void_callee_guards_nothing_after_it)
{
	expect_one(LKMM "int x, futex, woken;\n"
		   "static void wake_up(void) { if (READ_ONCE(futex) == -1) WRITE_ONCE(woken, 1); }\n"
		   "void writer(void) { x = 1; WRITE_ONCE(futex, -1); }\n"
		   "int reader(void) { wake_up(); return x; }\n");
}

Test(deps, read_a_callee_waits_for_or_reports_still_guards)
{
	expect_one(LKMM "int x, flag, y, ready;\n"
		   "static void wait_for_flag(void) { while (!READ_ONCE(flag)) ; }\n"
		   "static int is_ready(void) { if (READ_ONCE(ready)) return 1; return 0; }\n"
		   "void writer(void) { x = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "void writer2(void) { y = 1; /*W*/ WRITE_ONCE(ready, 1); }\n"
		   "int reader(void) { wait_for_flag();\n"
		   " return x; /*R*/\n}\n"
		   "int reader2(void) { if (!is_ready()) return 0;\n"
		   " return y; /*R*/\n}\n");
}

/* ---- W1 of docs/history/real-code-reviews.md: a read guards only what runs on its value ---- */

/* The flag's value is tested, but the read of data runs whatever it was:
 * after the branches meet again, or after a callee's statistic test. */
Test(guards, a_read_guards_nothing_after_its_branches_meet)
{
	expect_one(LKMM "int data, flag, count;\n"
		   "void writer(void) { data = 1; WRITE_ONCE(flag, 1); WRITE_ONCE(count, READ_ONCE(count) + 1); }\n"
		   "static int check_resize(void) { return READ_ONCE(count) > 100; }\n"
		   "int r1(void) { int y = 0; if (READ_ONCE(flag)) y = 1; return data + y; }\n"
		   "int r2(void) { check_resize(); return data; }\n"
		   "int r3(void) { int big = check_resize(); if (big) big = 2; return data + big; }\n");
}

/* Every shape that runs on the flag's value is still reported: a branch,
 * an early return, a wait loop, a conditional expression, &&, a callee
 * whose result is tested, and a callee that waits. */
Test(guards, reads_that_run_on_the_flag_value_are_still_reported)
{
	expect_one(LKMM "int data, flag;\n"
		   "void writer(void) { data = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "static int ready(void) { return READ_ONCE(flag); }\n"
		   "static void wait_ready(void) { while (!READ_ONCE(flag)) ; }\n"
		   "int r1(void) { if (READ_ONCE(flag))\n return data; /*R*/\n return 0; }\n"
		   "int r2(void) { if (!READ_ONCE(flag)) return 0;\n return data; /*R*/ }\n"
		   "int r3(void) { while (!READ_ONCE(flag)) ;\n return data; /*R*/ }\n"
		   "int r4(void) { return READ_ONCE(flag) ?\n data /*R*/ : 0; }\n"
		   "int r5(void) { return READ_ONCE(flag) &&\n data; /*R*/ }\n"
		   "int r6(void) { if (ready())\n return data; /*R*/\n return 0; }\n"
		   "int r7(void) { wait_ready();\n return data; /*R*/ }\n");
}

/* Code written with __builtin_expect (likely/unlikely) is judged as the
 * same code without it: a helper that only tests a futex inside it guards
 * nothing of its callers, a tested flag still guards, and a helper whose
 * wait loop is written with unlikely() still waits for the flag.  (Since
 * a callee's reads guard only through its result or its wait loops, this
 * holds whether the front end walks __builtin_expect as its argument,
 * walk_expect, or as a call; the test pins the behaviour, not that step.) */
Test(guards, builtin_expect_is_transparent)
{
	expect_one(LKMM "int data, futex, flag;\n"
		   "static inline void wake(void) { if (__builtin_expect(READ_ONCE(futex) == -1, 0)) WRITE_ONCE(futex, 0); }\n"
		   "static void wait_ready(void) { while (__builtin_expect(!READ_ONCE(flag), 0)) ; }\n"
		   "void writer(void) { data = 1; /*W*/ WRITE_ONCE(flag, 1); wake(); }\n"
		   "int reader(void) { wake(); return data; }\n"
		   "int reader2(void) { if (__builtin_expect(READ_ONCE(flag), 1))\n return data; /*R*/\n return 0; }\n"
		   "int reader3(void) { wait_ready();\n return data; /*R*/ }\n");
}

/* ---- W7 of docs/history/real-code-reviews.md: dependencies through helpers ---- */

#define W7_WRITER "#include <stdint.h>\n" \
	"struct node { int key; struct node *next; } *head, fixed;\n" \
	"int count;\n" \
	"void add(struct node *n, int k) { n->key = k; smp_store_release(&head, n);" \
	" fixed.key = k; /*W*/ WRITE_ONCE(count, READ_ONCE(count) + 1); }\n"

/* A pointer read with a dependency (directly, through a helper that
 * returns it, or through clear_flag()) orders what is read through it,
 * whatever statistic is tested on the way. */
Test(deps, a_pointer_returned_by_a_helper_keeps_its_dependency)
{
	expect_one(LKMM W7_WRITER
		   "static struct node *clear_flag(struct node *p) { return (struct node *)((uintptr_t)p & ~1UL); }\n"
		   "static struct node *get_head(void) { return READ_ONCE(head); }\n"
		   "int l1(void) { struct node *p = clear_flag(READ_ONCE(head)); if (READ_ONCE(count) > 3) return p ? p->key : -1; return 0; }\n"
		   "int l2(void) { struct node *p = get_head(); return p ? p->key : -1; }\n"
		   "int l3(void) { struct node *p = READ_ONCE(head); if (READ_ONCE(count) > 3 && p) return p->key; return 0; }\n");
}

Test(deps, a_field_reached_without_the_pointer_still_needs_the_acquire)
{
	expect_one(LKMM W7_WRITER
		   "int l1(void) { if (READ_ONCE(count) > 3)\n return fixed.key; /*R*/\n return 0; }\n");
}

/* The same in a callee: the caller tested a statistic, then the callee
 * loads the pointer itself and reads through it (liburcu's
 * _cds_lfht_gc_bucket walking rcu_dereference'd next pointers after its
 * caller read another node's next). */
Test(deps, a_callee_reading_through_its_own_pointer_read_keeps_the_dependency)
{
	expect_one(LKMM W7_WRITER
		   "static int key_of_head(void) { struct node *p = READ_ONCE(head); return p ? p->key : -1; }\n"
		   "int l4(void) { if (READ_ONCE(count) > 3) return key_of_head(); return 0; }\n");
}

Test(deps, a_callee_reading_a_field_by_name_still_needs_the_acquire)
{
	expect_one(LKMM W7_WRITER
		   "static int fixed_key(void) { return fixed.key; /*R*/ }\n"
		   "int l4(void) { if (READ_ONCE(count) > 3) return fixed_key(); return 0; }\n");
}

/* A wait loop on only some paths of a callee (compat_futex_async's
 * FUTEX_WAIT case, called for FUTEX_WAKE) does not wait for its caller. */
Test(guards, a_wait_on_some_paths_of_a_callee_guards_nothing)
{
	expect_one(LKMM "int data, flag;\n"
		   "void writer(void) { data = 1; WRITE_ONCE(flag, 1); }\n"
		   "static int fut(int *u, int op) { if (op == 0) { while (READ_ONCE(*u) == 1) ; } return 0; }\n"
		   "int reader(void) { (void)fut(&flag, 1); return data; }\n");
}

/* A callee waiting on a private local its caller passes: the read is no
 * shared access at all (this crashed the analysis once). */
Test(guards, a_wait_on_a_private_local_passed_to_a_callee)
{
	expect_one(LKMM "int data, flag;\n"
		   "void writer(void) { data = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "static void wait_on(int *u) { while (!READ_ONCE(*u)) ; }\n"
		   "int reader(void) { int mine = 1; wait_on(&mine); wait_on(&flag);\n return data; /*R*/ }\n");
}

/* ---- W14: a callee path the constant argument rules out ---- */

/* futex_op(OP_WAKE) returns a constant: testing its result says nothing
 * of the futex its OP_WAIT case waits on. */
Test(guards, a_tested_result_that_carries_no_read_guards_nothing)
{
	expect_one(LKMM "int data, ready, futex;\n"
		   "static int futex_op(int op) { switch (op) { case 0: while (READ_ONCE(futex) == 0) ; break; default: break; } return 0; }\n"
		   "void writer(void) { data = 1; smp_store_release(&ready, 1); WRITE_ONCE(futex, 1); }\n"
		   "int reader(void) { while (!smp_load_acquire(&ready)) ; if (futex_op(1) < 0) return 0; return data; }\n");
}

/* A constant argument rules out the callee's branch that tests the
 * parameter against it (extract_guards.c, callview.c): end(r, s) runs the
 * section code only when s != NULL, and the writer passes NULL (the old
 * W14 reproducer); mode(op) reads the data only when op != OP_PEEK. */
#define SECTIONS(writer_section, rmark, wmark) \
	LKMM "#include <pthread.h>\n#include <stddef.h>\n" \
	"struct section { int bucket; };\n" \
	"struct record { int active; int count[4]; };\n" \
	"static struct record rec;\n" \
	"static int readers;\n" \
	"static void delref(struct record *r, struct section *s) { r->count[s->bucket]--; } " rmark "\n" \
	"static inline void end(struct record *r, struct section *s)\n" \
	"{ smp_store_release(&r->active, 0); if (s != NULL) delref(r, s); }\n" \
	"static void *reader(void *a) { struct section s = { 0 }; rec.count[0]++; " wmark " WRITE_ONCE(readers, 1); end(&rec, &s); return a; }\n" \
	"static void *writer(void *a) { struct section w = { 1 }; while (READ_ONCE(readers) == 0) ; end(&rec, " writer_section "); return a; }\n" \
	"int main(void) { pthread_t t[2]; pthread_create(&t[0], 0, reader, 0); pthread_create(&t[1], 0, writer, 0);\n" \
	"  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

Test(guards, a_null_argument_rules_out_the_callee_branch)
{
	expect_one(SECTIONS("NULL", "", ""));
}

Test(guards, a_section_passed_runs_the_branch)
{
	expect_one(SECTIONS("&w", "/*R*/", "/*W*/"));
}

#define PROBE(op, rmark, wmark) \
	LKMM "enum probe { OP_PEEK, OP_FULL };\n" \
	"int data, ready;\n" \
	"static int probe(int *d, enum probe op) { int v = 0; if (op != OP_PEEK) v = *d; return v; } " rmark "\n" \
	"void writer(void) { data = 1; " wmark " WRITE_ONCE(ready, 1); }\n" \
	"int reader(void) { if (READ_ONCE(ready)) return probe(&data, " op "); return 0; }\n"

Test(guards, an_enumerator_argument_rules_out_the_callee_branch)
{
	expect_one(PROBE("OP_PEEK", "", ""));
}

Test(guards, another_enumerator_runs_the_branch)
{
	expect_one(PROBE("OP_FULL", "/*R*/", "/*W*/"));
}

/* A call through a pointer that two functions were stored into reaches
 * either (ck_rhs's map->probe_func): the constant argument rules out the
 * branch in both.  Writers probe and write under one mutex; the reader
 * probes with PROBE_NO_RH, which skips the read of probes, so only
 * writers read it and the mutex keeps them apart.  When only the first
 * target counted as called, probe_b was an entry point of its own, its
 * read reached unlocked.  The twin: the reader probes with PROBE_INSERT
 * and reads probes in both functions. */
#define TWO_PROBES(op, mark) \
	"#include <pthread.h>\n#include <stdatomic.h>\n" \
	"enum behavior { PROBE_NO_RH, PROBE_INSERT };\n" \
	"struct desc { int probes; _Atomic int bound; };\n" \
	"struct map { struct desc d[8]; int (*probe)(struct map *, int, enum behavior); };\n" \
	"static struct map table;\n" \
	"static pthread_mutex_t writer_lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static int probe_a(struct map *m, int i, enum behavior b) {\n" \
	"	int v = atomic_load_explicit(&m->d[i].bound, memory_order_relaxed);\n" \
	"	if (!v)\n" \
	"		return 0;\n" \
	"	if (b != PROBE_NO_RH) {\n" \
	"		if (m->d[i].probes < v) " mark "\n" \
	"			return 1;\n" \
	"	}\n" \
	"	return v;\n" \
	"}\n" \
	"static int probe_b(struct map *m, int i, enum behavior b) {\n" \
	"	int v = atomic_load_explicit(&m->d[i].bound, memory_order_relaxed);\n" \
	"	if (!v)\n" \
	"		return 0;\n" \
	"	if (b != PROBE_NO_RH) {\n" \
	"		if (m->d[i].probes > v) " mark "\n" \
	"			return 1;\n" \
	"	}\n" \
	"	return -v;\n" \
	"}\n" \
	"static void *writer(void *a) {\n" \
	"	for (int i = 0; i < 8; i++) {\n" \
	"		pthread_mutex_lock(&writer_lock);\n" \
	"		if (table.probe(&table, i, PROBE_INSERT) == 0) {\n" \
	"			table.d[i].probes = i; " mark "\n" \
	"			atomic_store_explicit(&table.d[i].bound, i, memory_order_relaxed);\n" \
	"		}\n" \
	"		pthread_mutex_unlock(&writer_lock);\n" \
	"	}\n" \
	"	return a;\n" \
	"}\n" \
	"static void *reader(void *a) {\n" \
	"	int s = 0;\n" \
	"	for (int i = 0; i < 8; i++)\n" \
	"		s += table.probe(&table, i, " op ");\n" \
	"	return (void *)(long)s;\n" \
	"}\n" \
	"int main(int argc, char **argv) {\n" \
	"	pthread_t t[3];\n" \
	"	(void)argv;\n" \
	"	if (argc > 1)\n" \
	"		table.probe = probe_a;\n" \
	"	else\n" \
	"		table.probe = probe_b;\n" \
	"	pthread_create(&t[0], 0, writer, 0);\n" \
	"	pthread_create(&t[1], 0, writer, 0);\n" \
	"	pthread_create(&t[2], 0, reader, 0);\n" \
	"	for (int i = 0; i < 3; i++)\n" \
	"		pthread_join(t[i], 0);\n" \
	"	return 0;\n" \
	"}\n"

Test(guards, a_constant_argument_rules_out_the_branch_in_every_target_of_a_pointer)
{
	expect_one(TWO_PROBES("PROBE_NO_RH", ""));
}

Test(guards, another_constant_runs_the_branch_in_every_target_of_a_pointer)
{
	expect_one(TWO_PROBES("PROBE_INSERT", "/*R*/ /*W*/"));
}

/* A CAS retry loop waits for the CAS, not for the read that gave it the
 * expected value: two pushers (relaxed CAS) read nobody's node, so the
 * read of head inside push() guards nothing of theirs.  With a popper that
 * reads the top node's next, the pushers' writes miss their release. */
#define RETRY_PUSH(reader) \
	"#include <pthread.h>\n" \
	"struct node { int key; struct node *next; };\n" \
	"struct stack { struct node *head; } s;\n" \
	"int data;\n" \
	"struct node n1, n2;\n" \
	"static void push(struct stack *st, struct node *n) {\n" \
	"	struct node *old = READ_ONCE(st->head);\n" \
	"	n->next = old; " reader "\n" \
	"	while (cmpxchg_relaxed(&st->head, old, n) != old) {\n" \
	"		old = READ_ONCE(st->head);\n" \
	"		n->next = old; " reader "\n" \
	"	}\n" \
	"}\n" \
	"static void *writer(void *a) { push(&s, &n1); return a; }\n" \
	"static void *other(void *a) { %s }\n" \
	"int main(void) {\n" \
	"	pthread_t x, y;\n" \
	"	pthread_create(&x, 0, writer, 0);\n" \
	"	pthread_create(&y, 0, other, 0);\n" \
	"	pthread_join(x, 0);\n" \
	"	pthread_join(y, 0);\n" \
	"	return 0;\n" \
	"}\n"

Test(deps, a_cas_retry_loop_waits_for_the_cas_not_for_its_expected_value)
{
	char text[2048];

	snprintf(text, sizeof text, LKMM RETRY_PUSH(""), "push(&s, &n2); return a;");
	expect_one(text);
}

Test(deps, pushes_read_by_a_popper_still_miss_their_release)
{
	char text[2048];

	snprintf(text, sizeof text, LKMM RETRY_PUSH("/*W*/"),
		 "struct node *top = READ_ONCE(s.head); return top ? (void *)top->next : a;");
	expect_one(text);
}
