/* tests/unit/test_c11model.c — C11 code as C11 reads it: a volatile object
 * in a translation unit that declares C11 atomics is plain, and a write of
 * it that meets another thread's access is a data race
 * (analyzer/frontend/extract_model.c, pairing.c's c11_volatile_findings);
 * atomic builtins whose name a macro pasted are seen
 * (extract_primitive.c, handle_atomic_builtin); and a reference count's
 * increment takes a reference, not a message (evidence.c,
 * is_reference_count).  Real scans, through scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"
#include "analyzer/model/facts.h"

/* The front end's facts for SRC (one TU, the built-in profiles), into
 * FACTS; SRC must parse. */
static void extract_source(const char *src, struct tu_facts *facts)
{
	extract_text(src, facts);
	cr_assert_null(facts->diagnostics, "%s", facts->diagnostics);
}

/* The first access event of FACTS on a line holding TEXT's object: the
 * one whose display is DISPLAY and whose access is ACC. */
static const struct event *access_of(const struct tu_facts *facts, const char *display, enum acc acc)
{
	for (int i = 0; i < facts->nfunctions; i++)
		for (int b = 0; b < facts->functions[i].nblocks; b++)
			for (int k = 0; k < facts->functions[i].blocks[b].nevents; k++) {
				const struct event *e = &facts->functions[i].blocks[b].events[k];

				if (e->kind == EV_ACCESS && e->access == acc && e->display &&
				    strcmp(e->display, display) == 0)
					return e;
			}
	return NULL;
}

#define C11 "#include <stdatomic.h>\n#include <pthread.h>\n"
#define LKMM "#include <kcsan/lkmm.h>\n#include <pthread.h>\n"

/* Two threads: one sets the hook, the other calls it. */
#define HOOK(decl, set, get) \
	decl \
	"static void *setter(void *a) { " set " return a; }\n" \
	"static void *caller(void *a) { void (*f)(void) = " get "; if (f) f(); return a; }\n" \
	"int main(void) { pthread_t x, y;\n" \
	"  pthread_create(&x, 0, setter, 0); pthread_create(&y, 0, caller, 0);\n" \
	"  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n"

/* ---- volatile under C11 ---- */

Test(c11model, a_volatile_object_in_c11_code_races)
{
	expect_one(C11 "static void hello(void) { }\n"
		   "static _Atomic int calls;\n"
		   HOOK("static void (*volatile hook)(void);\n",
			"hook = hello; /*D*/ atomic_fetch_add(&calls, 1);",
			"hook /*D*/"));
	cr_assert(strstr(last_findings_text(), "declared volatile, which C11 does not make atomic"),
		  "%s", last_findings_text());
}

/* The same program with the hook _Atomic: no race. */
Test(c11model, the_hook_made_atomic_is_no_race)
{
	expect_one(C11 "static void hello(void) { }\n"
		   "static _Atomic int calls;\n"
		   HOOK("static void (*_Atomic hook)(void);\n",
			"hook = hello; atomic_fetch_add(&calls, 1);",
			"hook"));
}

/* Kernel-style code (no C11 atomic in the TU): volatile marks, as
 * READ_ONCE does; the hook is no race. */
Test(c11model, a_volatile_object_in_kernel_style_code_is_marked)
{
	expect_one(LKMM "static void hello(void) { }\n"
		   "static atomic_t calls;\n"
		   HOOK("static void (*volatile hook)(void);\n",
			"hook = hello; atomic_inc(&calls);",
			"hook"));
}

/* A volatile cast marks its one access in C11 code too. */
Test(c11model, a_volatile_cast_in_c11_code_is_marked)
{
	expect_one(C11 "static void hello(void) { }\n"
		   "static _Atomic int calls;\n"
		   HOOK("static void (*hook)(void);\n",
			"*(void (*volatile *)(void))&hook = hello; atomic_fetch_add(&calls, 1);",
			"*(void (*volatile *)(void))&hook"));
}

/* The C11 atomics may come from a header the TU includes (a struct's
 * _Atomic field). */
Test(c11model, c11_atomics_in_a_header_make_the_tu_c11)
{
	struct src s[] = {
		{ "counters.h", "struct counters { _Atomic long calls; };\n" },
		{ "main.c", "#include <pthread.h>\n#include \"counters.h\"\n"
			    "static struct counters c;\n"
			    "static volatile int mode;\n"
			    "static void *setter(void *a) { mode = 2; /*D*/ c.calls++; return a; }\n"
			    "static void *reader(void *a) { if (mode /*D*/ == 2) c.calls++; return a; }\n"
			    "int main(void) { pthread_t x, y;\n"
			    "  pthread_create(&x, 0, setter, 0); pthread_create(&y, 0, reader, 0);\n"
			    "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n" },
	};

	expect_findings(s, 2, NULL);
}

/* Written before the threads exist: creation orders it. */
Test(c11model, a_volatile_written_before_the_threads_is_no_race)
{
	expect_one(C11 "static _Atomic int calls;\n"
		   "static volatile int mode;\n"
		   "static void *reader(void *a) { if (mode == 2) atomic_fetch_add(&calls, 1); return a; }\n"
		   "int main(void) { pthread_t x, y; mode = 2;\n"
		   "  pthread_create(&x, 0, reader, 0); pthread_create(&y, 0, reader, 0);\n"
		   "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n");
}

/* ---- atomic builtins behind a pasted name ---- */

#define PASTED \
	"#define my_atomic(name) atomic_##name\n" \
	"#define my_store_release(p, v) my_atomic(store_explicit)(p, v, memory_order_release)\n" \
	"#define my_store_relaxed(p, v) my_atomic(store_explicit)(p, v, memory_order_relaxed)\n" \
	"#define my_load_acquire(p) my_atomic(load_explicit)(p, memory_order_acquire)\n"

/* The flag's store is seen through the pasted macro: relaxed, the data
 * before it is published unordered. */
Test(c11model, a_pasted_relaxed_store_publishes_unordered)
{
	expect_one(C11 PASTED "static int data; static _Atomic int ready;\n"
		   "static void *writer(void *a) { data = 42; /*W*/ my_store_relaxed(&ready, 1); return a; }\n"
		   "static void *reader(void *a) { if (my_load_acquire(&ready)) return (void *)(long)data; return a; }\n"
		   "int main(void) { pthread_t x, y;\n"
		   "  pthread_create(&x, 0, writer, 0); pthread_create(&y, 0, reader, 0);\n"
		   "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n");
}

Test(c11model, a_pasted_release_store_publishes_in_order)
{
	expect_one(C11 PASTED "static int data; static _Atomic int ready;\n"
		   "static void *writer(void *a) { data = 42; my_store_release(&ready, 1); return a; }\n"
		   "static void *reader(void *a) { if (my_load_acquire(&ready)) return (void *)(long)data; return a; }\n"
		   "int main(void) { pthread_t x, y;\n"
		   "  pthread_create(&x, 0, writer, 0); pthread_create(&y, 0, reader, 0);\n"
		   "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n");
}

/* A memory order that a macro passes on by its parameter's name, itself
 * a built-in macro (DPDK's rte_atomic_load_explicit(p,
 * rte_memory_order_relaxed) -> __atomic_load_n(p, memorder)): the order
 * has no text at the builtin, and is read from its value. */
#define PASSED_ON(order) \
	"#define my_relaxed __ATOMIC_RELAXED\n#define my_acquire __ATOMIC_ACQUIRE\n" \
	"#define my_load_explicit(p, memorder) __atomic_load_n(p, memorder)\n" \
	"static int data, ready;\n" \
	"static void *writer(void *a) { data = 42; __atomic_store_n(&ready, 1, __ATOMIC_RELEASE); return a; }\n" \
	"static void *reader(void *a) {\n" \
	"  while (!my_load_explicit(&ready, " order "))\n    ;\n" \
	"  return (void *)(long)data; " MARK "\n}\n" \
	"int main(void) { pthread_t x, y;\n" \
	"  pthread_create(&x, 0, writer, 0); pthread_create(&y, 0, reader, 0);\n" \
	"  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n"

Test(c11model, a_relaxed_order_passed_on_by_a_macro_is_relaxed)
{
#define MARK "/*R*/"
	expect_one("#include <pthread.h>\n" PASSED_ON("my_relaxed"));
#undef MARK
}

Test(c11model, an_acquire_order_passed_on_by_a_macro_is_an_acquire)
{
#define MARK ""
	expect_one("#include <pthread.h>\n" PASSED_ON("my_acquire"));
#undef MARK
}

/* ---- dependencies: the LKMM's order, not C11's ---- */

/* A node published with a release, found by a load of the head: READ
 * is the reader's load, MARK the expected marker on the dependent read. */
#define FOUND_BY(read) \
	"#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct node { int val; };\nstatic struct node *head;\n" \
	"static void *writer(void *a) { struct node *n = malloc(sizeof *n); if (!n) return a;\n" \
	"  n->val = 42;\n  __atomic_store_n(&head, n, __ATOMIC_RELEASE); return a; }\n" \
	"static void *reader(void *a) { struct node *p = " read ";\n" \
	"  if (p)\n    return (void *)(long)p->val; " MARK "\n  return a; }\n" \
	"int main(void) { pthread_t x, y;\n" \
	"  pthread_create(&x, 0, writer, 0); pthread_create(&y, 0, reader, 0);\n" \
	"  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n"

/* C11 orders nothing by a dependency: a relaxed load leaves the read
 * through the pointer it found unordered (a data race under C11). */
Test(c11model, a_relaxed_c11_load_does_not_order_what_its_pointer_reaches)
{
#define MARK "/*R*/"
	expect_one(FOUND_BY("__atomic_load_n(&head, __ATOMIC_RELAXED)"));
#undef MARK
}

Test(c11model, an_acquire_c11_load_orders_what_its_pointer_reaches)
{
#define MARK ""
	expect_one(FOUND_BY("__atomic_load_n(&head, __ATOMIC_ACQUIRE)"));
#undef MARK
}

/* The MCS hand-over (DPDK's unlock before 8357af1): a relaxed load of the
 * successor, then a store into the successor's node, which its owner
 * initialised before linking it with a release.  In C11 the two stores
 * to the node are unordered (the successor may wait for ever). */
#define HAND_OVER(read, mark) \
	"#include <pthread.h>\n#include <stdlib.h>\n" \
	"struct qnode { int locked; };\nstatic struct qnode *succ;\n" \
	"static void *waiter(void *a) { struct qnode *n = malloc(sizeof *n); if (!n) return a;\n" \
	"  __atomic_store_n(&n->locked, 1, __ATOMIC_RELAXED);\n" \
	"  __atomic_store_n(&succ, n, __ATOMIC_RELEASE);\n" \
	"  while (__atomic_load_n(&n->locked, __ATOMIC_ACQUIRE)) ;\n  free(n); return a; }\n" \
	"static void *holder(void *a) { struct qnode *p;\n" \
	"  while (!(p = " read "))\n    ;\n" \
	"  __atomic_store_n(&p->locked, 0, __ATOMIC_RELEASE); " mark "\n  return a; }\n" \
	"int main(void) { pthread_t x, y;\n" \
	"  pthread_create(&x, 0, waiter, 0); pthread_create(&y, 0, holder, 0);\n" \
	"  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n"

Test(c11model, a_relaxed_load_of_the_successor_leaves_the_hand_over_unordered)
{
	expect_one(HAND_OVER("__atomic_load_n(&succ, __ATOMIC_RELAXED)", "/*R*/"));
}

Test(c11model, an_acquire_load_of_the_successor_orders_the_hand_over)
{
	expect_one(HAND_OVER("__atomic_load_n(&succ, __ATOMIC_ACQUIRE)", ""));
}

/* The LKMM orders a read through the pointer READ_ONCE returned. */
Test(c11model, a_read_once_orders_what_its_pointer_reaches)
{
#define MARK ""
	expect_one("#include <kcsan/lkmm.h>\n" FOUND_BY("READ_ONCE(head)"));
#undef MARK
}

/* ---- reference counts ---- */

/* Open vSwitch's ovs_refcount: initialised, taken by relaxed increments
 * (one a compare-and-swap of count + 1 unless zero), released by release
 * decrements.  A taker's increment learns that the object lives, not what
 * another thread wrote before its own increment.  Here the stamper writes
 * one object's stamp and takes a reference to another; the user takes a
 * reference to that other and reads its stamp, written before the threads
 * start.  No race, and none may be reported.  (This program stays clean
 * without is_reference_count too: other rules already keep the pairing
 * away here, and no small program was found where only the rule does;
 * what the rule removes is measured on Open vSwitch, docs/evaluation.md.
 * The counting compare-and-swap it rests on is tested below,
 * the_front_end_tells_a_counting_cas.) */
#define REFCOUNT(take) \
	C11 "struct obj { _Atomic unsigned ref; int stamp; };\n" \
	"static struct obj o1, o2;\n" \
	"static void obj_init(struct obj *p) { atomic_init(&p->ref, 1); }\n" \
	"static int obj_try_ref(struct obj *p, unsigned n) {\n" \
	"  do { if (n == 0) return 0; } while (!atomic_compare_exchange_weak_explicit(&p->ref, &n, " take ",\n" \
	"           memory_order_relaxed, memory_order_relaxed));\n" \
	"  return 1; }\n" \
	"static void obj_unref(struct obj *p) { if (atomic_fetch_sub_explicit(&p->ref, 1, memory_order_release) == 1)\n" \
	"  atomic_thread_fence(memory_order_acquire); }\n" \
	"static void *user(void *a) { if (obj_try_ref(&o2, 1)) { int s = o2.stamp; obj_unref(&o2); return (void *)(long)s; }\n" \
	"  return a; }\n" \
	"static void *stamper(void *a) { o1.stamp = 1; atomic_fetch_add_explicit(&o2.ref, 1, memory_order_relaxed);\n" \
	"  obj_unref(&o2); return a; }\n" \
	"int main(void) { pthread_t x, y; obj_init(&o1); obj_init(&o2); o2.stamp = 2;\n" \
	"  pthread_create(&x, 0, stamper, 0); pthread_create(&y, 0, user, 0);\n" \
	"  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n"

Test(c11model, a_reference_count_taken_by_an_increment_publishes_nothing)
{
	expect_one(REFCOUNT("n + 1"));
}

/* ---- the facts themselves ---- */

/* A volatile object: plain, marked "!volatile", in a TU with C11 atomics;
 * marked relaxed in one without. */
Test(c11model, the_front_end_reads_volatile_by_the_tu)
{
	struct tu_facts c11 = { 0 }, kernel = { 0 };
	const struct event *e;

	extract_source("#include <stdatomic.h>\nstatic volatile int mode; atomic_int n;\n"
		       "void set(void) { mode = 1; }\n", &c11);
	e = access_of(&c11, "mode", ACC_WRITE);
	cr_assert_not_null(e);
	cr_assert(!e->marked && e->uses && strstr(e->uses, "!volatile"), "marked %d uses %s", e->marked, e->uses);
	extract_source("static volatile int mode;\nvoid set(void) { mode = 1; }\n", &kernel);
	e = access_of(&kernel, "mode", ACC_WRITE);
	cr_assert_not_null(e);
	cr_assert(e->marked && e->ord == ORD_RELAXED && !(e->uses && strstr(e->uses, "!volatile")));
	facts_free(&c11);
	facts_free(&kernel);
}

/* A pasted atomic_store_explicit is an event with its order. */
Test(c11model, the_front_end_sees_a_pasted_builtin)
{
	struct tu_facts f = { 0 };
	const struct event *e;

	extract_source("#include <stdatomic.h>\n" PASTED "static atomic_int ready;\n"
		       "void set(void) { my_store_release(&ready, 1); }\n", &f);
	e = access_of(&f, "ready", ACC_WRITE);
	cr_assert_not_null(e);
	cr_assert(e->marked && e->ord == ORD_RELEASE && e->name && strcmp(e->name, "__c11_atomic_store") == 0,
		  "marked %d ord %d name %s", e->marked, e->ord, e->name);
	facts_free(&f);
}

/* A compare-and-swap of old + 1 counts ("~!step:1"); one of old | 1 or of
 * a constant does not. */
Test(c11model, the_front_end_tells_a_counting_cas)
{
	struct tu_facts f = { 0 };
	const char *src = "#include <stdatomic.h>\nstruct c { atomic_uint up, down, bits, set; } c;\n"
		"void f(void) { unsigned n = 1;\n"
		"  atomic_compare_exchange_weak(&c.up, &n, n + 1);\n"
		"  atomic_compare_exchange_weak(&c.down, &n, n - 2);\n"
		"  atomic_compare_exchange_weak(&c.bits, &n, n | 1);\n"
		"  atomic_compare_exchange_weak(&c.set, &n, 7); }\n";
	const struct event *e;

	extract_source(src, &f);
	cr_assert((e = access_of(&f, "c.up", ACC_RMW)) && e->uses && strstr(e->uses, "~!step:1"), "%s", e ? e->uses : "");
	cr_assert((e = access_of(&f, "c.down", ACC_RMW)) && e->uses && strstr(e->uses, "~!step:-2"), "%s", e ? e->uses : "");
	cr_assert((e = access_of(&f, "c.bits", ACC_RMW)) && !(e->uses && strstr(e->uses, "!step")));
	cr_assert((e = access_of(&f, "c.set", ACC_RMW)) && !(e->uses && strstr(e->uses, "!step")));
	facts_free(&f);
}
