/* tests/unit/test_analysis.c — the static analysis, case by case: each
 * access kind, barrier kind and control-flow shape, in both directions (the
 * bug is reported on the marked line; its fixed twin gives nothing).  Every
 * case is a real libclang scan into a real database (scan_helper.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scan_helper.h"
#include "analyzer/model/vocab.h"

#define LKMM "#include <kcsan/lkmm.h>\n"

/* A reader that pairs with writers of (x, flag), written with acquire so
 * that only the writer side is under test. */
#define GOOD_READER \
	"int reader(void) {\n" \
	"	while (!smp_load_acquire(&flag))\n" \
	"		;\n" \
	"	return x;\n" \
	"}\n"

/* A writer with release, so that only the reader side is under test. */
#define GOOD_WRITER \
	"void writer(void) {\n" \
	"	x = 1;\n" \
	"	smp_store_release(&flag, 1);\n" \
	"}\n"

Test(message_passing, article_both_sides)
{
	expect_one(LKMM "int x, flag;\n"
		   "void T1(void) {\n"
		   "	x = 1; /*W*/\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n"
		   "int T2(void) {\n"
		   "	while (!READ_ONCE(flag))\n"
		   "		;\n"
		   "	return x; /*R*/\n"
		   "}\n");
}

Test(message_passing, release_acquire_silent)
{
	expect_one(LKMM "int x, flag;\n" GOOD_WRITER GOOD_READER);
}

Test(message_passing, wmb_rmb_silent)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(void) { x = 1; smp_wmb(); WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { int r = 0; if (READ_ONCE(flag)) { smp_rmb(); r = x; } return r; }\n");
}

Test(message_passing, mb_both_sides_silent)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(void) { x = 1; smp_mb(); WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { int r = 0; if (READ_ONCE(flag)) { smp_mb(); r = x; } return r; }\n");
}

Test(wrong_barrier, rmb_on_writer)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(void) {\n"
		   "	x = 1; /*W*/\n"
		   "	smp_rmb();\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n" GOOD_READER);
}

Test(wrong_barrier, wmb_on_reader)
{
	expect_one(LKMM "int x, flag;\n" GOOD_WRITER
		   "int reader(void) {\n"
		   "	int r = 0;\n"
		   "	if (READ_ONCE(flag)) {\n"
		   "		smp_wmb();\n"
		   "		r = x; /*R*/\n"
		   "	}\n"
		   "	return r;\n"
		   "}\n");
}

Test(unpaired, write_barrier_without_read_barrier)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(void) {\n"
		   "	x = 1;\n"
		   "	smp_wmb(); /*B*/\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n"
		   "int reader(void) {\n"
		   "	int r = 0;\n"
		   "	if (READ_ONCE(flag))\n"
		   "		r = x; /*R*/\n"
		   "	return r;\n"
		   "}\n");
}

Test(c11, relaxed_both_sides)
{
	expect_one("#include <stdatomic.h>\n"
		   "int x; atomic_int flag;\n"
		   "void writer(void) {\n"
		   "	x = 1; /*W*/\n"
		   "	atomic_store_explicit(&flag, 1, memory_order_relaxed);\n"
		   "}\n"
		   "int reader(void) {\n"
		   "	while (!atomic_load_explicit(&flag, memory_order_relaxed))\n"
		   "		;\n"
		   "	return x; /*R*/\n"
		   "}\n");
}

Test(c11, release_acquire_and_seq_cst_silent)
{
	expect_one("#include <stdatomic.h>\n"
		   "int x, y; atomic_int flag, flag2;\n"
		   "void writer(void) { x = 1; atomic_store_explicit(&flag, 1, memory_order_release); }\n"
		   "int reader(void) { while (!atomic_load_explicit(&flag, memory_order_acquire)); return x; }\n"
		   "void writer2(void) { y = 1; atomic_store(&flag2, 1); }\n"
		   "int reader2(void) { while (!atomic_load(&flag2)); return y; }\n");
}

Test(c11, fences_silent)
{
	expect_one("#include <stdatomic.h>\n"
		   "int x; atomic_int flag;\n"
		   "void writer(void) {\n"
		   "	x = 1;\n"
		   "	atomic_thread_fence(memory_order_release);\n"
		   "	atomic_store_explicit(&flag, 1, memory_order_relaxed);\n"
		   "}\n"
		   "int reader(void) {\n"
		   "	while (!atomic_load_explicit(&flag, memory_order_relaxed))\n"
		   "		;\n"
		   "	atomic_thread_fence(memory_order_acquire);\n"
		   "	return x;\n"
		   "}\n");
}

Test(c11, wrong_fences)
{
	expect_one("#include <stdatomic.h>\n"
		   "int x; atomic_int flag;\n"
		   "void writer(void) {\n"
		   "	x = 1; /*W*/\n"
		   "	atomic_thread_fence(memory_order_acquire);\n"
		   "	atomic_store_explicit(&flag, 1, memory_order_relaxed);\n"
		   "}\n"
		   "int reader(void) {\n"
		   "	while (!atomic_load_explicit(&flag, memory_order_relaxed))\n"
		   "		;\n"
		   "	atomic_thread_fence(memory_order_release);\n"
		   "	return x; /*R*/\n"
		   "}\n");
}

Test(gnu, builtins_relaxed_and_release)
{
	expect_one("int x, flag, y, flag2;\n"
		   "void writer(void) {\n"
		   "	x = 1; /*W*/\n"
		   "	__atomic_store_n(&flag, 1, __ATOMIC_RELAXED);\n"
		   "}\n"
		   "int reader(void) { while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)); return x; }\n"
		   "void writer2(void) { y = 1; __atomic_store_n(&flag2, 1, __ATOMIC_RELEASE); }\n"
		   "int reader2(void) { while (!__atomic_load_n(&flag2, __ATOMIC_ACQUIRE)); return y; }\n");
}

Test(gnu, sync_builtins_silent)
{
	expect_one("int x, flag;\n"
		   "void writer(void) { x = 1; __sync_synchronize(); flag = 1; __sync_lock_release(&flag); }\n"
		   "int reader(void) { while (!__sync_lock_test_and_set(&flag, 0)); return x; }\n");
}

Test(locks, atomic_lock_wrong_order)
{
	expect_one(LKMM "int lock; long counter;\n"
		   "void inc(void) {\n"
		   "	while (cmpxchg_relaxed(&lock, 0, 1) != 0)\n"
		   "		;\n"
		   "	counter++; /*W*/ /*R*/\n"
		   "	WRITE_ONCE(lock, 0);\n"
		   "}\n");
}

Test(locks, atomic_lock_right_order)
{
	expect_one(LKMM "int lock; long counter;\n"
		   "void inc(void) {\n"
		   "	while (cmpxchg_acquire(&lock, 0, 1) != 0)\n"
		   "		;\n"
		   "	counter++;\n"
		   "	smp_store_release(&lock, 0);\n"
		   "}\n");
}

Test(locks, bit_lock_silent)
{
	expect_one(LKMM "unsigned long lockword; long counter;\n"
		   "void inc(void) {\n"
		   "	while (test_and_set_bit_lock(0, &lockword))\n"
		   "		;\n"
		   "	counter++;\n"
		   "	clear_bit_unlock(0, &lockword);\n"
		   "}\n");
}

Test(locks, pthread_mutex_everywhere_silent)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int x, flag;\n"
		   "void writer(void) { pthread_mutex_lock(&m); x = 1; WRITE_ONCE(flag, 1); pthread_mutex_unlock(&m); }\n"
		   "int reader(void) { int r = 0; pthread_mutex_lock(&m); if (READ_ONCE(flag)) r = x; pthread_mutex_unlock(&m); return r; }\n");
}

Test(rmw, fully_ordered_publication_silent)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(void) { x = 1; xchg(&flag, 1); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return x; }\n");
}

Test(rmw, relaxed_publication)
{
	expect_one(LKMM "int x; atomic_t flag;\n"
		   "void writer(void) {\n"
		   "	x = 1; /*W*/\n"
		   "	atomic_inc(&flag);\n"
		   "}\n"
		   "int reader(void) { while (!atomic_read_acquire(&flag)); return x; }\n");
}

Test(rmw, store_mb_does_not_order_the_data_before_the_flag)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(void) {\n"
		   "	x = 1; /*W*/\n"
		   "	smp_store_mb(flag, 1);\n"
		   "}\n" GOOD_READER);
}

Test(pointers, address_dependency_orders_the_reader)
{
	expect_one(LKMM "struct cfg { int a, b; };\n"
		   "struct cfg *gp; struct cfg storage;\n"
		   "void publish(void) {\n"
		   "	struct cfg *p = &storage;\n"
		   "	p->a = 1;\n"
		   "	smp_store_release(&gp, p);\n"
		   "}\n"
		   "int use(void) {\n"
		   "	struct cfg *p = READ_ONCE(gp);\n"
		   "	return p ? p->a : 0;\n"
		   "}\n");
}

Test(pointers, unordered_publication)
{
	expect_one(LKMM "struct cfg { int a, b; };\n"
		   "struct cfg *gp; struct cfg storage;\n"
		   "void publish(void) {\n"
		   "	struct cfg *p = &storage;\n"
		   "	p->a = 1; /*W*/\n"
		   "	WRITE_ONCE(gp, p);\n"
		   "}\n"
		   "int use(void) {\n"
		   "	struct cfg *p = READ_ONCE(gp);\n"
		   "	return p ? p->a : 0;\n"
		   "}\n");
}

Test(control_flow, write_on_one_branch)
{
	expect_one(LKMM "int x, y, flag;\n"
		   "void writer(int c) {\n"
		   "	if (c)\n"
		   "		x = 1; /*W*/\n"
		   "	else\n"
		   "		y = 2;\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n" GOOD_READER);
}

Test(control_flow, barrier_on_one_branch_only)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(int c) {\n"
		   "	x = 1; /*W*/\n"
		   "	if (c)\n"
		   "		smp_wmb();\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n" GOOD_READER);
}

Test(control_flow, barrier_on_both_branches_silent)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(int c) {\n"
		   "	x = 1;\n"
		   "	if (c)\n"
		   "		smp_wmb();\n"
		   "	else\n"
		   "		smp_mb();\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n" GOOD_READER);
}

Test(control_flow, loop_switch_and_early_return)
{
	expect_one(LKMM "int x, flag; int buf[8];\n"
		   "void writer(int n) {\n"
		   "	for (int i = 0; i < n; i++)\n"
		   "		buf[i] = i; /*W*/\n"
		   "	switch (n) {\n"
		   "	case 0:\n"
		   "		return;\n"
		   "	case 1:\n"
		   "		x = 1; /*W*/\n"
		   "		break;\n"
		   "	default:\n"
		   "		smp_wmb();\n"
		   "	}\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return x + buf[0]; }\n");
}

Test(control_flow, goto_skipping_the_barrier)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(int c) {\n"
		   "	x = 1; /*W*/\n"
		   "	if (c)\n"
		   "		goto publish;\n"
		   "	smp_wmb();\n"
		   "publish:\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n" GOOD_READER);
}

Test(control_flow, loop_back_edge_carries_the_access)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(int n) {\n"
		   "	while (n--) {\n"
		   "		WRITE_ONCE(flag, n);\n"
		   "		x = n; /*W*/ /*D*/\n"
		   "	}\n"
		   "}\n" GOOD_READER);
}

Test(interprocedural, plain_store_in_a_helper)
{
	expect_one(LKMM "int x, flag;\n"
		   "static void fill(void) {\n"
		   "	x = 1; /*W*/\n"
		   "}\n"
		   "void writer(void) { fill(); WRITE_ONCE(flag, 1); }\n" GOOD_READER);
}

Test(interprocedural, barrier_in_a_helper_silent)
{
	expect_one(LKMM "int x, flag;\n"
		   "static void publish_barrier(void) { smp_wmb(); }\n"
		   "void writer(void) { x = 1; publish_barrier(); WRITE_ONCE(flag, 1); }\n" GOOD_READER);
}

Test(interprocedural, flag_read_in_a_helper)
{
	expect_one(LKMM "int x, flag;\n" GOOD_WRITER
		   "static int ready(void) { return READ_ONCE(flag); }\n"
		   "int reader(void) {\n"
		   "	while (!ready())\n"
		   "		;\n"
		   "	return x; /*R*/\n"
		   "}\n");
}

Test(pairing, across_files)
{
	struct src s[] = {
		{ "shared.h", "extern int x, flag;\n" },
		{ "writer.c", LKMM "#include \"shared.h\"\nint x, flag;\n"
			      "void writer(void) {\n"
			      "	x = 1; /*W*/\n"
			      "	WRITE_ONCE(flag, 1);\n"
			      "}\n" },
		{ "reader.c", LKMM "#include \"shared.h\"\n"
			      "int reader(void) {\n"
			      "	while (!READ_ONCE(flag))\n"
			      "		;\n"
			      "	return x; /*R*/\n"
			      "}\n" },
	};

	expect_findings(s, 3, NULL);
}

/* Coherence: a plain read followed by its own thread's write of the same
 * location cannot see a write made after that one, so what orders the
 * write (here smp_wmb before the flag) orders the read too; without the
 * write, the read is not ordered by a write barrier. */
Test(pairing, a_read_then_write_of_one_location_is_ordered_with_the_write)
{
	expect_one(LKMM "int slot, flag, out;\n"
		   "void w(void) { int old = slot; slot = old + 1; smp_wmb(); WRITE_ONCE(flag, 1); } /*B*/ /*D*/\n"
		   "void r(void) { if (READ_ONCE(flag)) slot = 5; } /*R*/\n");
}

Test(pairing, a_read_alone_is_not_ordered_by_a_write_barrier)
{
	expect_one(LKMM "int slot, flag, out;\n"
		   "void w(void) { int old = slot; out = old; smp_wmb(); WRITE_ONCE(flag, 1); } /*W*/\n"
		   "void r(void) { if (READ_ONCE(flag)) slot = 5; } /*R*/\n");
}

/* A header that files of two directories include as "../common.h" is
 * one file: clang names it "a/../common.h" and "b/../common.h", which
 * made its static inline two functions and its access two sites, each
 * reported under a name no file has. */
Test(pairing, a_header_included_through_dot_dot_is_one_file)
{
	struct src s[] = {
		{ "common.h", "int data, flag;\n"
			      "static inline int peek(void) {\n"
			      "	if (READ_ONCE(flag))\n"
			      "		return data; /*R*/\n"
			      "	return 0;\n"
			      "}\n" },
		{ "a/writer.c", LKMM "#include \"../common.h\"\n"
				"void writer(void) { data = 1; smp_store_release(&flag, 1); }\n"
				"int use_a(void) { return peek(); }\n" },
		{ "b/reader.c", LKMM "#include \"../common.h\"\n"
				"int use_b(void) { return peek(); }\n" },
	};
	const char *t;

	expect_findings(s, 3, NULL);
	t = last_findings_text();
	cr_assert(t[0] && !strchr(t, '\n')[1], "one finding expected, got:\n%s", t);
}

Test(pairing, struct_fields_across_files)
{
	struct src s[] = {
		{ "ring.h", "struct ring { unsigned head, tail; int buf[16]; };\n" },
		{ "producer.c", LKMM "#include \"ring.h\"\n"
				"void put(struct ring *r, int v) {\n"
				"	unsigned h = r->head;\n"
				"	r->buf[h % 16] = v; /*W*/\n"
				"	WRITE_ONCE(r->head, h + 1);\n"
				"}\n" },
		{ "consumer.c", LKMM "#include \"ring.h\"\n"
				"int get(struct ring *r) {\n"
				"	unsigned t = r->tail;\n"
				"	while (smp_load_acquire(&r->head) == t)\n"
				"		;\n"
				"	return r->buf[t % 16];\n"
				"}\n" },
	};

	expect_findings(s, 3, NULL);
}

Test(precision, nobody_reads_the_flag)
{
	expect_one(LKMM "int x, flag;\n"
		   "void writer(void) { x = 1; WRITE_ONCE(flag, 1); }\n");
}

Test(precision, two_reads_do_not_race)
{
	expect_one(LKMM "int x, flag;\n"
		   "int peek(void) { int r = x; WRITE_ONCE(flag, 1); return r; }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return x; }\n");
}

Test(precision, initialisation_before_pthread_create_and_checks_after_join)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int x, flag;\n"
		   "static void *writer(void *a) { x = 1; smp_store_release(&flag, 1); return a; }\n"
		   "static void *reader(void *a) { while (!smp_load_acquire(&flag)); return (void *)(long)x; }\n"
		   "int main(void) {\n"
		   "	for (int i = 0; i < 10; i++) {\n"
		   "		pthread_t t1, t2;\n"
		   "		x = 0;\n"
		   "		WRITE_ONCE(flag, 0);\n"
		   "		pthread_create(&t1, 0, writer, 0);\n"
		   "		pthread_create(&t2, 0, reader, 0);\n"
		   "		pthread_join(t1, 0);\n"
		   "		pthread_join(t2, 0);\n"
		   "		if (READ_ONCE(flag) && x != 1)\n"
		   "			return 1;\n"
		   "	}\n"
		   "	return 0;\n"
		   "}\n");
}

Test(relay, through_a_third_thread)
{
	expect_one(LKMM "int x, a, b;\n"
		   "void t1(void) { x = 1; smp_store_release(&a, 1); }\n"
		   "void t2(void) { while (!smp_load_acquire(&a)); smp_store_release(&b, 1); }\n"
		   "int t3(void) {\n"
		   "	while (!READ_ONCE(b))\n"
		   "		;\n"
		   "	return x; /*R*/\n"
		   "}\n");
}

Test(profiles, user_macros)
{
	static const char prof[] =
		"STORE_SHARED write relaxed lvalue=1\n"
		"LOAD_SHARED  read  relaxed lvalue=1\n"
		"my_fence     barrier wmb\n";
	struct src s[] = { { "u.c",
		"void opaque_store(int *p, int v); int opaque_load(int *p); void opaque_fence(void);\n"
		"#define STORE_SHARED(x, v) opaque_store(&(x), (v))\n"
		"#define LOAD_SHARED(x) opaque_load(&(x))\n"
		"#define my_fence() opaque_fence()\n"
		"int x, flag, y, flag2;\n"
		"void writer(void) {\n"
		"	x = 1; /*W*/\n"
		"	STORE_SHARED(flag, 1);\n"
		"}\n"
		"void writer2(void) { y = 1; my_fence(); STORE_SHARED(flag2, 1); }\n"
		"int reader(void) { while (!LOAD_SHARED(flag)); return x; /*R*/ }\n" } };

	expect_findings(s, 1, prof);
}

Test(asm, barrier_as_inline_assembly_in_a_named_macro)
{
	/* perfbook writes smp_mb() as inline assembly: recognised by name. */
	expect_one("#define smp_mb() __asm__ __volatile__(\"mfence\" : : : \"memory\")\n"
		   "#define READ_ONCE(x) (*(volatile __typeof__(x) *)&(x))\n"
		   "#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))\n"
		   "int x, flag;\n"
		   "void writer(void) { x = 1; smp_mb(); WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { while (!READ_ONCE(flag)); smp_mb(); return x; }\n");
}

/* A project's barrier named as Linux names it (DPDK's rte_smp_wmb) is that
 * barrier, whatever the scanned architecture's headers make of it: x86's
 * are compiler barriers.  The same program with a compiler barrier under
 * another name orders nothing. */
#define X86_BARRIERS(name) \
	"#define rte_compiler_barrier() do { asm volatile (\"\" : : : \"memory\"); } while (0)\n" \
	"#define " name "() rte_compiler_barrier()\n" \
	"#define READ_ONCE(x) (*(volatile __typeof__(x) *)&(x))\n" \
	"#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))\n" \
	"int x, flag;\n"

Test(asm, a_portable_barrier_compiled_for_x86_keeps_its_meaning)
{
	expect_one(X86_BARRIERS("rte_smp_wmb")
		   "void writer(void) { x = 1; rte_smp_wmb(); WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return x; }\n");
}

Test(asm, a_compiler_barrier_under_another_name_orders_nothing)
{
	expect_one(X86_BARRIERS("rte_io_fence")
		   "void writer(void) { x = 1; /*W*/ rte_io_fence(); WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return x; }\n");
}

Test(asm, only_a_prefixed_smp_barrier_name_is_taken)
{
	struct vocab v = { 0 };
	char err[256] = "";

	cr_assert_eq(vocab_load(&v, "lkmm", NULL, err, sizeof err), 0, "%s", err);
	vocab_finish(&v, NULL);
	cr_assert_not_null(vocab_find(&v, "rte_smp_wmb", NULL));
	cr_assert_eq(vocab_find(&v, "rte_smp_rmb", NULL)->ord, ORD_RMB);
	cr_assert_eq(vocab_find(&v, "odp_smp_mb", NULL)->ord, ORD_FULL);
	cr_assert_null(vocab_find(&v, "rtesmp_wmb", NULL));
	cr_assert_null(vocab_find(&v, "rte_smp_wmbx", NULL));
	cr_assert_null(vocab_find(&v, "_smp_wmb", NULL), "a prefix is a name and an underscore");
	vocab_free(&v);
}

Test(interprocedural, lock_helpers_taking_a_pointer)
{
	/* The lock word reaches the helpers as a parameter: each call is
	 * analysed on the object the caller passes. */
	expect_one(LKMM "int lock_word; long counter;\n"
		   "static void take(int *l) { while (xchg_relaxed(l, 1)) ; }\n"
		   "static void give(int *l) { smp_store_release(l, 0); }\n"
		   "void inc(void) {\n"
		   "	take(&lock_word);\n"
		   "	counter++; /*R*/\n"
		   "	give(&lock_word);\n"
		   "}\n");
}

Test(interprocedural, lock_helpers_taking_a_pointer_fixed)
{
	expect_one(LKMM "int lock_word; long counter;\n"
		   "static void take(int *l) { while (xchg_acquire(l, 1)) ; }\n"
		   "static void give(int *l) { smp_store_release(l, 0); }\n"
		   "void inc(void) {\n"
		   "	take(&lock_word);\n"
		   "	counter++;\n"
		   "	give(&lock_word);\n"
		   "}\n");
}

Test(data_race, lock_on_one_side_only)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; long packets;\n"
		   "void *updater(void *a) { pthread_mutex_lock(&m); packets++; pthread_mutex_unlock(&m); return a; }\n"
		   "void *monitor(void *a) {\n"
		   "	return (void *)packets; /*D*/\n"
		   "}\n");
}

Test(data_race, lock_on_both_sides_silent)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; long packets;\n"
		   "void *updater(void *a) { pthread_mutex_lock(&m); packets++; pthread_mutex_unlock(&m); return a; }\n"
		   "static long get(void) { return packets; }\n"
		   "void *monitor(void *a) { long p; pthread_mutex_lock(&m); p = get(); pthread_mutex_unlock(&m); return (void *)p + (long)a; }\n");
}

Test(data_race, read_before_the_guarding_acquire)
{
	expect_one(LKMM "int status, arrived;\n"
		   "void respond(int s) { status = s; smp_store_release(&arrived, 1); }\n"
		   "int request(void) {\n"
		   "	for (;;) {\n"
		   "		int s = status; /*D*/\n"
		   "		if (smp_load_acquire(&arrived))\n"
		   "			return s;\n"
		   "	}\n"
		   "}\n");
}

Test(data_race, read_after_the_guarding_acquire_silent)
{
	expect_one(LKMM "int status, arrived;\n"
		   "void respond(int s) { status = s; smp_store_release(&arrived, 1); }\n"
		   "int request(void) {\n"
		   "	for (;;) {\n"
		   "		if (smp_load_acquire(&arrived))\n"
		   "			return status;\n"
		   "	}\n"
		   "}\n");
}

Test(libc, memcpy_into_the_published_buffer)
{
	expect_one(LKMM "#include <string.h>\n"
		   "char msg[64]; int ready;\n"
		   "void post(const char *s) {\n"
		   "	memcpy(msg, s, 16); /*W*/\n"
		   "	WRITE_ONCE(ready, 1);\n"
		   "}\n"
		   "char first(void) { while (!smp_load_acquire(&ready)); return msg[0]; }\n");
}

Test(libc, memcpy_then_release_silent)
{
	expect_one(LKMM "#include <string.h>\n"
		   "char msg[64]; int ready;\n"
		   "void post(const char *s) { memcpy(msg, s, 16); smp_store_release(&ready, 1); }\n"
		   "char first(void) { while (!smp_load_acquire(&ready)); return msg[0]; }\n");
}

/* memcpy's source is read (libc.prof: src=1): copying a struct out reads
 * each of its fields, which is how the writer names them. */
Test(libc, memcpy_out_of_the_published_struct)
{
	expect_one(LKMM "#include <string.h>\n"
		   "struct config { int rate, burst; };\n"
		   "struct config cfg; int ready;\n"
		   "void publish(void) { cfg.rate = 10; cfg.burst = 20; smp_store_release(&ready, 1); }\n"
		   "int snapshot(struct config *out) {\n"
		   "	if (!READ_ONCE(ready))\n"
		   "		return 0;\n"
		   "	memcpy(out, &cfg, sizeof *out); /*R*/\n"
		   "	return 1;\n"
		   "}\n");
}

Test(libc, memcpy_out_after_the_acquire_silent)
{
	expect_one(LKMM "#include <string.h>\n"
		   "struct config { int rate, burst; };\n"
		   "struct config cfg; int ready;\n"
		   "void publish(void) { cfg.rate = 10; cfg.burst = 20; smp_store_release(&ready, 1); }\n"
		   "int snapshot(struct config *out) {\n"
		   "	if (!smp_load_acquire(&ready))\n"
		   "		return 0;\n"
		   "	memcpy(out, &cfg, sizeof *out);\n"
		   "	return 1;\n"
		   "}\n");
}

/* ... and through a pointer to the published struct, nested fields too. */
Test(libc, memcpy_out_through_a_pointer_nested_fields)
{
	expect_one(LKMM "#include <string.h>\n"
		   "struct limits { int lo, hi; };\n"
		   "struct entry { struct limits lim; int id; };\n"
		   "struct entry *slot; int ready;\n"
		   "void publish(struct entry *e) { e->lim.hi = 5; slot = e; smp_store_release(&ready, 1); }\n"
		   "int snapshot(struct entry *out) {\n"
		   "	if (!READ_ONCE(ready))\n"
		   "		return 0;\n"
		   "	memcpy(out, slot, sizeof *out); /*R*/\n"
		   "	return 1;\n"
		   "}\n");
}

/* A struct copied whole by assignment reads each field, as memcpy's
 * source does (extract_expr.c, record_copy), and so does *p copied. */
Test(libc, struct_assigned_out_of_the_published_struct)
{
	expect_one(LKMM "struct config { int rate, burst; };\n"
		   "struct config cfg; int ready;\n"
		   "void publish(void) { cfg.rate = 10; cfg.burst = 20; smp_store_release(&ready, 1); }\n"
		   "int snapshot(struct config *out) {\n"
		   "	if (!READ_ONCE(ready))\n"
		   "		return 0;\n"
		   "	*out = cfg; /*R*/\n"
		   "	return 1;\n"
		   "}\n");
}

Test(libc, struct_assigned_out_after_the_acquire_silent)
{
	expect_one(LKMM "struct config { int rate, burst; };\n"
		   "struct config cfg; int ready;\n"
		   "void publish(void) { cfg.rate = 10; cfg.burst = 20; smp_store_release(&ready, 1); }\n"
		   "int snapshot(struct config *out) {\n"
		   "	if (!smp_load_acquire(&ready))\n"
		   "		return 0;\n"
		   "	*out = cfg;\n"
		   "	return 1;\n"
		   "}\n");
}

/* ... and a struct stored whole writes each field: the publisher's
 * assignment before a relaxed flag store. */
Test(libc, struct_assigned_into_the_published_struct)
{
	expect_one(LKMM "struct config { int rate, burst; };\n"
		   "struct config cfg; int ready;\n"
		   "void publish(const struct config *c) {\n"
		   "	cfg = *c; /*W*/\n"
		   "	WRITE_ONCE(ready, 1);\n"
		   "}\n"
		   "int rate(void) { return smp_load_acquire(&ready) ? cfg.rate : -1; }\n");
}

/* A part of a named instance copied whole, and a struct passed by value,
 * read their fields too. */
Test(libc, struct_copied_out_of_a_field_of_a_global)
{
	expect_one(LKMM "struct config { int rate, burst; };\n"
		   "struct state { int gen; struct config cfg; } st; int ready;\n"
		   "void publish(void) { st.cfg.rate = 10; st.cfg.burst = 20; smp_store_release(&ready, 1); }\n"
		   "int snapshot(struct config *out) {\n"
		   "	if (!READ_ONCE(ready))\n"
		   "		return 0;\n"
		   "	*out = st.cfg; /*R*/\n"
		   "	return 1;\n"
		   "}\n");
}

Test(libc, struct_passed_by_value_after_the_flag)
{
	expect_one(LKMM "struct config { int rate, burst; };\n"
		   "struct config cfg; int ready;\n"
		   "extern int apply(struct config c);\n"
		   "void publish(void) { cfg.rate = 10; cfg.burst = 20; smp_store_release(&ready, 1); }\n"
		   "int use(void) { return READ_ONCE(ready) ? apply(cfg) : 0; } /*R*/\n");
}

/* A struct reached through a pointer, copied whole, stays one access: it
 * is most often a value handed from record to record (a uuid, a key), and
 * its fields would meet every access of the type's fields in the tree
 * (named_instance). */
Test(libc, struct_copied_through_a_pointer_is_one_access)
{
	expect_one(LKMM "struct config { int rate, burst; };\n"
		   "struct config cfg; int ready;\n"
		   "void publish(void) { cfg.rate = 10; cfg.burst = 20; smp_store_release(&ready, 1); }\n"
		   "int copy(struct config *out, const struct config *in) {\n"
		   "	if (!READ_ONCE(ready))\n"
		   "		return 0;\n"
		   "	*out = *in;\n"
		   "	return 1;\n"
		   "}\n");
}

/* ... and so does a const one, which no one writes. */
Test(libc, const_struct_copied_is_one_access)
{
	expect_one(LKMM "struct config { int rate, burst; };\n"
		   "struct config cfg; int ready;\n"
		   "static const struct config defaults = { 1, 2 };\n"
		   "void publish(void) { cfg.rate = 10; cfg.burst = 20; smp_store_release(&ready, 1); }\n"
		   "int reset(struct config *out) {\n"
		   "	if (!READ_ONCE(ready))\n"
		   "		return 0;\n"
		   "	*out = defaults;\n"
		   "	return 1;\n"
		   "}\n");
}

Test(pointers, local_pointer_into_a_shared_array)
{
	expect_one(LKMM "int slots[16]; int count;\n"
		   "void push(int i, int v) {\n"
		   "	int *slot = &slots[i];\n"
		   "	*slot = v; /*W*/\n"
		   "	WRITE_ONCE(count, i + 1);\n"
		   "}\n"
		   "int last(void) { int n = smp_load_acquire(&count); return n ? slots[n - 1] : -1; }\n");
}

Test(pointers, thread_argument_stays_private)
{
	expect_one(LKMM "int flag;\n"
		   "void *worker(void *arg) {\n"
		   "	int *mine = arg;\n"
		   "	for (int i = 0; i < 10; i++) {\n"
		   "		while (!READ_ONCE(flag))\n"
		   "			;\n"
		   "		(*mine)++;\n"
		   "		WRITE_ONCE(flag, 0);\n"
		   "	}\n"
		   "	return 0;\n"
		   "}\n");
}

Test(rmw, result_thrown_away_guards_nothing)
{
	/* set_bit() after the unlock is done for its effect: the next call's
	 * accesses are guarded by the acquire of the bit lock, not by it. */
	expect_one(LKMM "unsigned long word; int items;\n"
		   "static void add(void) {\n"
		   "	while (test_and_set_bit_lock(0, &word))\n"
		   "		;\n"
		   "	items++;\n"
		   "	clear_bit_unlock(0, &word);\n"
		   "	set_bit(5, &word);\n"
		   "}\n"
		   "void *worker(void *a) { for (int i = 0; i < 4; i++) add(); return a; }\n");
}

Test(data_race, two_different_locks)
{
	expect_one("#include <pthread.h>\n"
		   "pthread_mutex_t in = PTHREAD_MUTEX_INITIALIZER, out = PTHREAD_MUTEX_INITIALIZER; long balance;\n"
		   "static void deposit(long v) { pthread_mutex_lock(&in); balance += v; pthread_mutex_unlock(&in); } /*D*/\n"
		   "static void withdraw(long v) {\n"
		   "	pthread_mutex_lock(&out);\n"
		   "	balance -= v; /*D*/\n"
		   "	pthread_mutex_unlock(&out);\n"
		   "}\n"
		   "void *payer(void *a) { deposit(10); return a; }\n"
		   "void *spender(void *a) { withdraw(3); return a; }\n");
}

Test(data_race, write_after_the_release)
{
	expect_one(LKMM "struct msg { int hdr, body, ready; } m;\n"
		   "void send(void) {\n"
		   "	m.hdr = 1;\n"
		   "	smp_store_release(&m.ready, 1);\n"
		   "	m.body = 2; /*D*/\n"
		   "}\n"
		   "int receive(void) { while (!smp_load_acquire(&m.ready)); return m.hdr + m.body; }\n");
}

Test(data_race, write_after_a_handshake_silent)
{
	expect_one(LKMM "struct msg { int body, ready, ack; } m;\n"
		   "void send(void) {\n"
		   "	m.body = 1;\n"
		   "	smp_store_release(&m.ready, 1);\n"
		   "	while (!smp_load_acquire(&m.ack))\n"
		   "		;\n"
		   "	m.body = 2;\n"
		   "}\n"
		   "int receive(void) { int b; while (!smp_load_acquire(&m.ready)); b = m.body; smp_store_release(&m.ack, 1); return b; }\n");
}

/* An RMW whose value is used reads, and ends the "late" window as a read
 * does: a reader lock taken again after a failed try gave back what it had
 * added (HAProxy's plock: xadd, test, sub, retry) is taken, not published.
 * Its twin publishes with an RMW done for its effect and writes after it. */
Test(data_race, an_access_after_a_lock_taken_again_after_its_undo_silent)
{
	expect_one(LKMM "struct rw { long word; int data; } g;\n"
		   "int reader(void) {\n"
		   "	int d;\n"
		   "	for (;;) {\n"
		   "		if (!(__atomic_fetch_add(&g.word, 1, __ATOMIC_ACQUIRE) & 0x100))\n"
		   "			break;\n"
		   "		__atomic_fetch_sub(&g.word, 1, __ATOMIC_RELAXED);\n"
		   "	}\n"
		   "	d = g.data;\n"
		   "	__atomic_fetch_sub(&g.word, 1, __ATOMIC_RELEASE);\n"
		   "	return d;\n"
		   "}\n"
		   "void writer(void) {\n"
		   "	while (__atomic_fetch_or(&g.word, 0x100, __ATOMIC_ACQUIRE) & 0x1ff)\n"
		   "		;\n"
		   "	g.data = 1;\n"
		   "	__atomic_fetch_and(&g.word, ~0x100L, __ATOMIC_RELEASE);\n"
		   "}\n");
}

Test(data_race, write_after_a_publishing_rmw)
{
	expect_one(LKMM "struct msg { int hdr, body, ready; } m;\n"
		   "void send(void) {\n"
		   "	m.hdr = 1;\n"
		   "	__atomic_fetch_add(&m.ready, 1, __ATOMIC_RELEASE);\n"
		   "	m.body = 2; /*D*/\n"
		   "}\n"
		   "int receive(void) { while (!smp_load_acquire(&m.ready)); return m.hdr + m.body; }\n");
}

/* An RMW of another word whose value is used is no give-back of the
 * publication: the last of the workers (lockwakelatency.c's shape) still
 * writes after its publishing decrement. */
Test(data_race, write_after_a_publishing_rmw_and_a_test_of_another_count)
{
	expect_one(LKMM "struct msg { int hdr, body; } m; int arrived, left;\n"
		   "void send(void) {\n"
		   "	m.hdr = 1;\n"
		   "	__atomic_fetch_sub(&arrived, 1, __ATOMIC_RELEASE);\n"
		   "	if (__atomic_sub_fetch(&left, 1, __ATOMIC_SEQ_CST) == 0)\n"
		   "		m.body = 2; /*D*/\n"
		   "}\n"
		   "int receive(void) { while (smp_load_acquire(&arrived)); return m.hdr + m.body; }\n");
}

Test(interprocedural, publication_through_a_function_pointer)
{
	expect_one(LKMM "struct job { int result, done; void (*complete)(struct job *); } J;\n"
		   "static void mark_done(struct job *j) { WRITE_ONCE(j->done, 1); }\n"
		   "void *worker(void *p) {\n"
		   "	struct job *j = p;\n"
		   "	j->result = 42; /*W*/\n"
		   "	j->complete(j);\n"
		   "	return 0;\n"
		   "}\n"
		   "void *waiter(void *p) { struct job *j = p; while (!smp_load_acquire(&j->done)); return (void *)(long)j->result; }\n"
		   "void setup(void) { J = (struct job){ .result = 0, .complete = mark_done }; }\n");
}

Test(interprocedural, primitives_called_inside_a_project_macro)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "#define RUN(f) do { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); } while (0)\n"
		   "int x, flag;\n"
		   "static void *reader(void *a) { while (!smp_load_acquire(&flag)); return (void *)(long)x + (long)a; }\n"
		   "int main(void) {\n"
		   "	x = 1;\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "	RUN(reader);\n"
		   "	return 0;\n"
		   "}\n");
}

Test(data_race, write_under_a_read_lock)
{
	expect_one("#include <pthread.h>\n"
		   "pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER; long hits;\n"
		   "static void *bump(void *a) {\n"
		   "	pthread_rwlock_rdlock(&rw);\n"
		   "	hits++; /*D*/\n"
		   "	pthread_rwlock_unlock(&rw);\n"
		   "	return a;\n"
		   "}\n"
		   "int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, bump, 0);\n"
		   "	for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return (int)hits; }\n");
}

Test(data_race, rwlock_used_properly_silent)
{
	expect_one("#include <pthread.h>\n"
		   "pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER; long value;\n"
		   "void *writer(void *a) { pthread_rwlock_wrlock(&rw); value++; pthread_rwlock_unlock(&rw); return a; }\n"
		   "void *reader(void *a) { long v; pthread_rwlock_rdlock(&rw); v = value; pthread_rwlock_unlock(&rw); return (void *)v + (long)a; }\n");
}

Test(precision, thread_local_variables_are_not_shared)
{
	expect_one(LKMM "static __thread long nr_done; static _Thread_local int last; int flag;\n"
		   "void worker(void) { nr_done++; last = 1; WRITE_ONCE(flag, 1); }\n"
		   "long peek(void) { while (!READ_ONCE(flag)); return nr_done + last; }\n");
}

Test(precision, initialisation_before_a_loop_of_pthread_create)
{
	expect_one(LKMM "#include <pthread.h>\n"
		   "int duration, flag;\n"
		   "static void *reader(void *a) { while (!READ_ONCE(flag)); return (void *)(long)duration + (long)a; }\n"
		   "int main(int argc, char **argv) {\n"
		   "	pthread_t t[8];\n"
		   "	(void)argv;\n"
		   "	duration = argc;\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "	for (int i = 0; i < argc && i < 8; i++)\n"
		   "		pthread_create(&t[i], 0, reader, 0);\n"
		   "	for (int i = 0; i < argc && i < 8; i++)\n"
		   "		pthread_join(t[i], 0);\n"
		   "	return 0;\n"
		   "}\n");
}

/* Weakness 2 of docs/history/real-code-reviews.md: operators and primitives written in the
 * body of one of the project's own macros. */
Test(macros, assignment_in_a_project_macro_is_a_write)
{
	expect_one(LKMM "int data, flag;\n"
		   "#define SET(x, v) ((x) = (v))\n"
		   "void writer(void) { SET(data, 1); /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return data; }\n");
}

Test(macros, assignment_in_a_project_macro_fixed_silent)
{
	expect_one(LKMM "int data, flag;\n"
		   "#define SET(x, v) ((x) = (v))\n"
		   "void writer(void) { SET(data, 1); smp_store_release(&flag, 1); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return data; }\n");
}

Test(macros, increment_and_deref_in_a_project_macro)
{
	expect_one(LKMM "int data, flag, *slot = &data;\n"
		   "#define BUMP(x) ((x)++)\n"
		   "#define STORE(p, v) (*(p) = (v))\n"
		   "void writer(void) { BUMP(data); /*W*/ /*D*/ WRITE_ONCE(flag, 1); }\n"
		   "void writer2(void) { STORE(slot, 2); /*W*/ WRITE_ONCE(flag, 2); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return data + *slot; }\n");
}

Test(macros, vocabulary_macro_inside_a_project_macro)
{
	expect_one(LKMM "int data, flag;\n"
		   "#define PUBLISH(f, v) WRITE_ONCE(f, v)\n"
		   "void w(void) { data = 1; /*W*/ PUBLISH(flag, 1); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return data; }\n");
}

Test(macros, release_inside_a_project_macro_silent)
{
	expect_one(LKMM "int data, flag;\n"
		   "#define PUBLISH(f, v) smp_store_release(&(f), v)\n"
		   "#define CONSUME(f) smp_load_acquire(&(f))\n"
		   "void w(void) { data = 1; PUBLISH(flag, 1); }\n"
		   "int reader(void) { while (!CONSUME(flag)); return data; }\n");
}

Test(macros, access_once_idiom_is_one_marked_access)
{
	expect_one("#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))\n"
		   "#define smp_mb() __sync_synchronize()\n"
		   "int data, flag;\n"
		   "void w2(void) { data = 1; /*W*/ ACCESS_ONCE(flag) = 1; }\n"
		   "int reader(void) { while (!ACCESS_ONCE(flag)); smp_mb(); return data; }\n");
}

Test(macros, access_once_idiom_ordered_silent)
{
	expect_one("#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))\n"
		   "#define smp_mb() __sync_synchronize()\n"
		   "int data, flag;\n"
		   "void w2(void) { data = 1; smp_mb(); ACCESS_ONCE(flag) = 1; }\n"
		   "int reader(void) { while (!ACCESS_ONCE(flag)); smp_mb(); return data; }\n");
}
/* docs/history/real-code-reviews.md weakness 2: p = rcu_dereference(...) inside an
 * iterator macro keeps its address dependency, as the loop written out does
 * (the list head is its own type: one object per field would otherwise mix
 * the head with the nodes' next pointers, weakness 3). */
#define ITER_PRELUDE \
	LKMM "struct node { struct node *next; int a; };\n" \
	"struct head { struct node *first; } list; int count;\n" \
	"#define rcu_dereference(p) READ_ONCE(p)\n" \
	"#define for_each_rcu(p, h) for (p = rcu_dereference((h)->first); p; p = rcu_dereference(p->next))\n"

Test(macros, rcu_dereference_in_an_iterator_macro_silent)
{
	expect_one(ITER_PRELUDE
		   "void add(struct node *n) { n->a = 1; n->next = list.first; smp_store_release(&list.first, n); }\n"
		   "int r(void) { struct node *p; int s = 0; for_each_rcu(p, &list) s += p->a; return s; }\n");
}

/* A pointer read (rcu_dereference: consume) guards only what is reached
 * through the pointer: a global read inside the loop is no data that the
 * list publishes (issue 11, item 3). */
Test(macros, rcu_iterator_guards_only_what_it_reaches)
{
	expect_one(ITER_PRELUDE
		   "void add(struct node *n) { n->a = 1; count = 1; smp_store_release(&list.first, n); }\n"
		   "int r(void) { struct node *p; int s = 0; for_each_rcu(p, &list) s += count; return s; }\n");
}

/* The same loop over relaxed reads: the flag read guards the global. */
Test(macros, relaxed_iterator_macro_without_dependency_reported)
{
	expect_one(ITER_PRELUDE
		   "#define for_each_relaxed(p, h) for (p = READ_ONCE((h)->first); p; p = READ_ONCE(p->next))\n"
		   "void add(struct node *n) { n->a = 1; count = 1; smp_store_release(&list.first, n); }\n"
		   "int r(void) { struct node *p; int s = 0; for_each_relaxed(p, &list) s += count; /*R*/ return s; }\n");
}

/* smp_store_release and smp_load_acquire inside project macros are the
 * primitives (each side's ordering is seen, so only the other side is
 * reported). */
Test(macros, release_in_a_project_macro_orders_the_writer)
{
	expect_one(LKMM "int data, flag;\n"
		   "#define PUBLISH(f, v) smp_store_release(&(f), v)\n"
		   "void w(void) { data = 1; PUBLISH(flag, 1); }\n"
		   "int reader(void) { while (!READ_ONCE(flag)); return data; /*R*/ }\n");
}

Test(macros, acquire_in_a_project_macro_orders_the_reader)
{
	expect_one(LKMM "int data, flag;\n"
		   "#define CONSUME(f) smp_load_acquire(&(f))\n"
		   "void w(void) { data = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { while (!CONSUME(flag)); return data; }\n");
}

/* Weakness 8 of docs/history/real-code-reviews.md: the profile format. */
#define URCU_LIKE \
	"void opaque_store(int *p, int v, int mo); int opaque_load(int *p, int mo);\n" \
	"enum { RELAXED, ACQUIRE, RELEASE, SEQ_CST };\n" \
	"#define GET_ARG3(a, b, c, ...) c\n" \
	"#define my_load(p, ...) opaque_load(p, GET_ARG3(0, ##__VA_ARGS__, RELAXED, 0))\n" \
	"#define my_store(p, v, ...) opaque_store(p, v, GET_ARG3(0, ##__VA_ARGS__, RELAXED, 0))\n" \
	"#define ACCESS(x) (*(volatile __typeof__(x) *)&(x))\n" \
	"int x, flag;\n"

static const char urcu_like_prof[] =
	"my_load  read  arg order-arg=1 default=relaxed\n"
	"my_store write arg order-arg=2 default=relaxed\n"
	"ACCESS   access relaxed lvalue=1\n";

Test(profiles, default_order_when_the_order_argument_is_absent)
{
	struct src s[] = { { "u.c", URCU_LIKE
		"void writer(void) { x = 1; /*W*/ my_store(&flag, 1); }\n"
		"int reader(void) { while (!my_load(&flag)); return x; /*R*/ }\n" } };

	expect_findings(s, 1, urcu_like_prof);
}

Test(profiles, explicit_order_argument_still_read)
{
	struct src s[] = { { "u.c", URCU_LIKE
		"void writer(void) { x = 1; my_store(&flag, 1, RELEASE); }\n"
		"int reader(void) { while (!my_load(&flag, ACQUIRE)); return x; }\n" } };

	expect_findings(s, 1, urcu_like_prof);
}

Test(profiles, access_entry_assigned_to_is_a_marked_write)
{
	struct src s[] = { { "u.c", URCU_LIKE
		"void writer(void) { x = 1; /*W*/ ACCESS(flag) = 1; }\n"
		"int reader(void) { while (!my_load(&flag, ACQUIRE)); return x; }\n" } };

	expect_findings(s, 1, urcu_like_prof);
}

Test(profiles, access_entry_read_and_written_ordered_silent)
{
	struct src s[] = { { "u.c", URCU_LIKE
		"void writer(void) { x = 1; my_store(&flag, 1, RELEASE); ACCESS(flag)++; }\n"
		"int reader(void) { while (!ACCESS(flag)); __atomic_thread_fence(__ATOMIC_ACQUIRE); return x; }\n" } };

	expect_findings(s, 1, urcu_like_prof);
}

Test(c11, seq_cst_load_does_not_order_earlier_plain_stores)
{
	/* A seq_cst load between the data and a relaxed flag store is no
	 * release: the plain store may pass it (C11); a seq_cst store is. */
	expect_one("#include <stdatomic.h>\n"
		   "int x; atomic_int flag, other;\n"
		   "int t1(void) { int r; x = 1; /*W*/ r = atomic_load_explicit(&other, memory_order_seq_cst);\n"
		   "	atomic_store_explicit(&flag, 1, memory_order_relaxed); return r; }\n"
		   "int t3(void) { while (!atomic_load_explicit(&flag, memory_order_acquire)); return x; }\n");
}

Test(c11, seq_cst_store_is_a_release_silent)
{
	expect_one("#include <stdatomic.h>\n"
		   "int x; atomic_int flag;\n"
		   "void t1(void) { x = 1; atomic_store_explicit(&flag, 1, memory_order_seq_cst); }\n"
		   "int t3(void) { while (!atomic_load_explicit(&flag, memory_order_seq_cst)); return x; }\n");
}

/* Weakness 9 of docs/history/real-code-reviews.md: the report's wording. */
Test(report_text, object_reached_through_a_parameter_is_named_not_a_usr)
{
	expect_one(LKMM "struct wq { int futex; int data; } q;\n"
		   "static void wake(int *f) { WRITE_ONCE(*f, 1); }\n"
		   "void producer(void) { q.data = 1; /*W*/ wake(&q.futex); }\n"
		   "int consumer(void) { while (!smp_load_acquire(&q.futex)); return q.data; }\n");
	cr_assert_null(strstr(last_findings_text(), "c:@"), "%s", last_findings_text());
}

Test(report_text, access_in_a_macro_is_not_named_by_the_invocation)
{
	expect_one(LKMM "struct t { struct t *next; int v; } *head; int flag;\n"
		   "#define for_each_t(t) for (t = head; t; t = t->next)\n"
		   "void w(void) { struct t *t; for_each_t(t) t->v = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "int r(void) { int s = 0; struct t *t; while (!smp_load_acquire(&flag)); for (t = head; t; t = t->next) s += t->v; return s; }\n");
	cr_assert_null(strstr(last_findings_text(), "for_each_t("), "%s", last_findings_text());
}

Test(report_text, fix_for_a_primitive_in_a_project_macro_has_real_arguments)
{
	expect_one(LKMM "int data, flag;\n"
		   "#define PUBLISH(f, v) WRITE_ONCE(f, v)\n"
		   "void w(void) { data = 1; /*W*/ PUBLISH(flag, 1); }\n"
		   "int reader(void) { while (!smp_load_acquire(&flag)); return data; }\n");
	cr_assert_not_null(strstr(last_findings_text(), "smp_store_release(&flag, 1)"), "%s", last_findings_text());
}

/* header= names several files: an entry applies to a macro defined in any
 * of them, and not to one of the same name defined elsewhere. */
#define MY_LOAD "#define my_load(x) (*(volatile int *)&(x))\n"
#define HEADER_PROFILE "my_load  read  relaxed  lvalue=1\n" \
	"my_load  read  acquire  lvalue=1 header=one.h,two.h\n"
#define HEADER_USER(h, mark) LKMM "#include \"" h "\"\n" \
	"int data, flag;\n" \
	"void w(void) { data = 1; smp_store_release(&flag, 1); }\n" \
	"int r(void) { if (my_load(flag)) return data; " mark " return 0; }\n"

Test(profiles, header_list_applies_to_each_file_named)
{
	struct src s[] = { { "two.h", MY_LOAD }, { "t.c", HEADER_USER("two.h", "") } };

	expect_findings(s, 2, HEADER_PROFILE);
}

Test(profiles, header_list_does_not_apply_to_other_files)
{
	struct src s[] = { { "three.h", MY_LOAD }, { "t.c", HEADER_USER("three.h", "/*R*/") } };

	expect_findings(s, 2, HEADER_PROFILE);
}

/* src=N: a project's copy function (source first) reads its source. */
#define COPY_PROFILE "buf_copy write none plain=1 obj=1 src=0\n"
#define COPY_USER(acquire, mark) LKMM \
	"void buf_copy(const void *from, void *to, unsigned long n);\n" \
	"struct config { int rate, burst; };\n" \
	"struct config cfg; int ready;\n" \
	"void publish(void) { cfg.burst = 20; smp_store_release(&ready, 1); }\n" \
	"int snapshot(struct config *out) {\n" \
	"	if (!" acquire ")\n" \
	"		return 0;\n" \
	"	buf_copy(&cfg, out, sizeof *out); " mark "\n" \
	"	return 1;\n" \
	"}\n"

Test(profiles, copy_function_reads_its_source)
{
	struct src s = { "t.c", COPY_USER("READ_ONCE(ready)", "/*R*/") };

	expect_findings(&s, 1, COPY_PROFILE);
}

Test(profiles, copy_function_after_an_acquire_silent)
{
	struct src s = { "t.c", COPY_USER("smp_load_acquire(&ready)", "") };

	expect_findings(&s, 1, COPY_PROFILE);
}

/* Each line of BAD (N of them) is refused with a message that starts
 * "t.prof:1: KEY" ("src=", "val=", ...); GOOD parses, and its entry
 * "f" is handed to CHECK. */
static void expect_key_errors(const char *const *bad, size_t n, const char *key, const char *good,
			      void (*check)(const struct vocab_entry *e))
{
	struct vocab v = { 0 };
	char err[256] = "", prefix[64];

	snprintf(prefix, sizeof prefix, "t.prof:1: %s", key);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(vocab_parse(&v, bad[i], "t.prof", err, sizeof err), -1, "%s", bad[i]);
		cr_assert(strncmp(err, prefix, strlen(prefix)) == 0, "%s: %s", bad[i], err);
		vocab_free(&v);
	}
	cr_assert_eq(vocab_parse(&v, good, "t.prof", err, sizeof err), 0, "%s", err);
	vocab_finish(&v, NULL);
	check(vocab_find(&v, "f", NULL));
	vocab_free(&v);
}

static void src_is_1(const struct vocab_entry *e)
{
	cr_assert_eq(e->src_arg, 1);
}

Test(profiles, src_key_needs_a_plain_copy)
{
	static const char *const bad[] = {
		"f write relaxed src=1\n",             /* a marked access reads no source */
		"f write none plain=1 src=0\n",        /* the object's own argument */
		"f write none plain=1 src=x\n",
		"f write none plain=1 src=32\n",
	};

	expect_key_errors(bad, sizeof bad / sizeof *bad, "src=", "f write none plain=1 src=1\n", src_is_1);
}

/* A count restarted from 0 (atomic_set(&n, 0)) publishes nothing: readers
 * wait for counts, which only the increments make.  A store of any other
 * value is a flag's write and still publishes. */
Test(counters, a_reset_of_a_count_publishes_nothing)
{
	expect_one(LKMM "int arrived; long total;\n"
		   "void arrive(void) { atomic_inc(&arrived); }\n"
		   "void restart(void) { total = 0; atomic_set(&arrived, 0); }\n"
		   "long check(void) { if (atomic_read(&arrived) == 4) return total; return 0; }\n");
}

Test(counters, a_store_of_a_value_still_publishes)
{
	expect_one(LKMM "int arrived; long total;\n"
		   "void arrive(void) { atomic_inc(&arrived); }\n"
		   "void restart(void) { total = 0; atomic_set(&arrived, 4); } /*W*/\n"
		   "long check(void) { if (atomic_read(&arrived) == 4) return total; return 0; } /*R*/\n");
}

/* ---- the values a flag is tested for (extract_compare.c, valuetests.c) ---- */

/* A write that stores a constant publishes only to readers that go on on
 * that value.  The reader parks until the state changes and uses the
 * payload only on a positive state; the only writer shuts it down with
 * -1, after writing the payload: no reader ever reads what it wrote
 * (nor anything at the same time), so there is nothing to order. */
#define SENTINEL(stored, mark_w, mark_r) \
	LKMM "int state, payload;\n" \
	"void shut_down(void) {\n" \
	"	payload = 0; " mark_w "\n" \
	"	WRITE_ONCE(state, " stored ");\n" \
	"}\n" \
	"int serve(void) {\n" \
	"	int v;\n" \
	"	while ((v = READ_ONCE(state)) == 0)\n" \
	"		;\n" \
	"	if (v > 0)\n" \
	"		return payload; " mark_r "\n" \
	"	return -1;\n" \
	"}\n"

Test(values, a_sentinel_store_publishes_nothing_to_a_reader_that_skips_it)
{
	expect_one(SENTINEL("-1", "", ""));
}

/* The twin: the value stored is one the reader goes on with. */
Test(values, a_store_of_a_value_the_reader_accepts_still_publishes)
{
	expect_one(SENTINEL("1", "/*W*/", "/*R*/"));
}

/* The same with the value read into a local defined once, tested by an
 * early return, and an exchange as the writer (DPDK's mp_fd: closed by
 * storing -1, served while >= 0). */
#define CHANNEL(stored, mark_w, mark_r) \
	LKMM "int chan, peer;\n" \
	"void close_chan(void) {\n" \
	"	peer = 0; " mark_w "\n" \
	"	xchg(&chan, " stored ");\n" \
	"}\n" \
	"int talk(void) {\n" \
	"	int fd = READ_ONCE(chan);\n" \
	"	if (fd < 0)\n" \
	"		return -1;\n" \
	"	return peer + fd; " mark_r "\n" \
	"}\n"

Test(values, an_exchange_to_a_sentinel_and_an_early_return_silent)
{
	expect_one(CHANNEL("-1", "", ""));
}

Test(values, an_exchange_to_a_served_value_still_publishes)
{
	expect_one(CHANNEL("3", "", "/*R*/"));
}

/* A local assigned twice may hold either read's value: nothing is
 * concluded from its test. */
Test(values, a_local_read_twice_says_nothing)
{
	expect_one(LKMM "int state, payload;\n"
		   "void shut_down(void) {\n"
		   "	payload = 0; /*W*/\n"
		   "	WRITE_ONCE(state, -1);\n"
		   "}\n"
		   "int serve(int again) {\n"
		   "	int v = READ_ONCE(state);\n"
		   "	if (again)\n"
		   "		v = READ_ONCE(state);\n"
		   "	if (v > 0)\n"
		   "		return payload; /*R*/\n"
		   "	return -1;\n"
		   "}\n");
}

/* What runs after a loop that waits for the sentinel runs on it: the
 * sentinel publishes to it (a shutdown's statistics read once the worker
 * saw the stop value). */
Test(values, a_sentinel_publishes_to_what_runs_once_it_is_seen)
{
	expect_one(LKMM "int state, stats;\n"
		   "void shut_down(void) {\n"
		   "	stats = 7; /*W*/\n"
		   "	WRITE_ONCE(state, -1);\n"
		   "}\n"
		   "int work(void) {\n"
		   "	while (READ_ONCE(state) >= 0)\n"
		   "		;\n"
		   "	return stats; /*R*/\n"
		   "}\n");
}

static void val_is_1(const struct vocab_entry *e)
{
	cr_assert_eq(e->val_arg, 1);
}

Test(profiles, val_key_needs_a_marked_write_and_a_value_argument)
{
	static const char *const bad[] = {
		"f read relaxed val=1\n",              /* a read stores nothing */
		"f write none plain=1 val=1\n",        /* a plain write is no flag */
		"f write relaxed val=0\n",             /* the object's own argument */
		"f write arg order-arg=2 val=2\n",     /* the order's */
		"f rmw relaxed val=x\n",
	};

	expect_key_errors(bad, sizeof bad / sizeof *bad, "val=", "f rmw relaxed val=1\n", val_is_1);
}

static void cmp_is_1(const struct vocab_entry *e)
{
	cr_assert_eq(e->cmp_arg, 1);
	cr_assert_eq(e->val_arg, 2);
}

Test(profiles, cmp_key_needs_a_marked_rmw_and_an_argument_of_its_own)
{
	static const char *const bad[] = {
		"f write relaxed cmp=1\n",             /* a store expects nothing */
		"f rmw relaxed cmp=0\n",               /* the object's own argument */
		"f rmw relaxed val=1 cmp=1\n",         /* the value stored */
		"f rmw arg order-arg=3 cmp=3\n",       /* the order's */
		"f rmw relaxed cmp=-1\n",
	};

	expect_key_errors(bad, sizeof bad / sizeof *bad, "cmp=", "f rmw relaxed val=2 cmp=1\n", cmp_is_1);
}

/* ---- lock words released by a relaxed store (lockword.c) ---- */

/* A lock library: the take is a compare-and-swap with acquire from 0, the
 * give-back a store of 0 made after a take (the user brackets its section
 * with them).  The store must order the section itself.  (The section is
 * the library user's, here empty: a section that touches shared data is
 * corpus 87, where the data's own pairing is reported too.) */
#define LOCK_WORD(take_order, unlock_body) \
	"typedef struct { volatile int locked; } spinlock_t;\n" \
	"void spin_take(spinlock_t *sl) {\n" \
	"	int expected = 0;\n" \
	"	while (!__atomic_compare_exchange_n(&sl->locked, &expected, 1, 0, " take_order ", __ATOMIC_RELAXED))\n" \
	"		expected = 0;\n" \
	"}\n" \
	"void spin_give(spinlock_t *sl) {\n" \
	unlock_body \
	"}\n" \
	"void spin_init(spinlock_t *sl) { sl->locked = 0; }\n" \
	"spinlock_t lock;\n" \
	"void section(void) { spin_take(&lock); spin_give(&lock); }\n"

/* (spin_init() stores the same 0, but after no take: it gives nothing
 * back) */
Test(lockword, a_lock_word_given_back_by_a_relaxed_store)
{
	expect_one(LOCK_WORD("__ATOMIC_ACQUIRE", "	sl->locked = 0; /*W*/\n"));
	cr_assert(strstr(last_findings_text(), "releases the lock that the compare-and-swap in spin_take()"),
		  "%s", last_findings_text());
}

Test(lockword, given_back_by_a_release_store_silent)
{
	expect_one(LOCK_WORD("__ATOMIC_ACQUIRE", "	__atomic_store_n(&sl->locked, 0, __ATOMIC_RELEASE);\n"));
}

Test(lockword, a_full_barrier_before_the_store_silent)
{
	expect_one(LOCK_WORD("__ATOMIC_ACQUIRE", "	__atomic_thread_fence(__ATOMIC_SEQ_CST);\n	sl->locked = 0;\n"));
}

/* A relaxed compare-and-swap takes no lock (a counter, a state machine):
 * nothing says the word guards anything. */
Test(lockword, a_relaxed_cas_is_no_lock)
{
	expect_one(LOCK_WORD("__ATOMIC_RELAXED", "	sl->locked = 0;\n"));
}

/* A store of another value than the take expects gives nothing back. */
Test(lockword, a_store_of_another_value_releases_nothing)
{
	expect_one(LOCK_WORD("__ATOMIC_ACQUIRE", "	sl->locked = 2;\n"));
}

/* The same through a project macro, on a word of 8 bytes: clang names the
 * builtin __sync_bool_compare_and_swap_8, the vocabulary's name with the
 * operand's size.  (The take tests the word before it tries: the loop is
 * left only through the compare-and-swap.) */
Test(lockword, a_sized_sync_builtin_in_a_macro_takes_the_lock)
{
	expect_one("#define CMP_SET(p, o, n) __sync_bool_compare_and_swap(p, o, n)\n"
		   "typedef struct { volatile unsigned long word; } lock_t;\n"
		   "lock_t l;\n"
		   "void take(void) {\n"
		   "	while (!(l.word == 0 && CMP_SET(&l.word, 0, 1)))\n"
		   "		;\n"
		   "}\n"
		   "void give(void) { l.word = 0; /*W*/ }\n"
		   "void section(void) { take(); give(); }\n");
}

/* Taken and given back in one function, nothing between: the section is
 * empty, and the compare-and-swap, a full barrier on every way out of
 * the loop, orders all that came before the store. */
Test(lockword, taken_and_given_back_in_one_function_silent)
{
	expect_one("typedef struct { volatile unsigned long word; } lock_t;\n"
		   "lock_t l;\n"
		   "void section(void) {\n"
		   "	while (!(l.word == 0 && __sync_bool_compare_and_swap(&l.word, 0, 1)))\n"
		   "		;\n"
		   "	l.word = 0;\n"
		   "}\n");
}

/* A lock library with no caller in the tree (nginx's ngx_rwlock.c): each
 * function is given the word by a pointer of one type, and the unlock
 * gives it back only after a test saw it held by a writer (the local is
 * read again in the readers' retry loop, after the test: only the first
 * read reaches it). */
#define LIBRARY_LOCK(word_type, give_back) \
	"typedef volatile unsigned long word_t;\n" \
	"typedef volatile unsigned long other_t;\n" \
	"#define WLOCK ((unsigned long)-1)\n" \
	"void wlock(word_t *lock) {\n" \
	"	while (!(*lock == 0 && __sync_bool_compare_and_swap(lock, 0, WLOCK)))\n" \
	"		;\n" \
	"}\n" \
	"void unlock(" word_type " *lock) {\n" \
	"	unsigned long readers = *lock;\n" \
	give_back \
	"	for (;;) {\n" \
	"		if (__sync_bool_compare_and_swap(lock, readers, readers - 1))\n" \
	"			return;\n" \
	"		readers = *lock;\n" \
	"	}\n" \
	"}\n"

Test(lockword, a_library_lock_given_back_after_a_holder_test)
{
	expect_one(LIBRARY_LOCK("word_t", "	if (readers == WLOCK) {\n		*lock = 0; /*W*/\n		return;\n	}\n"));
	cr_assert(strstr(last_findings_text(), "releases the lock that the compare-and-swap in wlock()"), "%s",
		  last_findings_text());
}

Test(lockword, a_library_lock_given_back_by_a_release_silent)
{
	expect_one(LIBRARY_LOCK("word_t", "	if (readers == WLOCK) {\n"
					  "		__atomic_store_n(lock, 0, __ATOMIC_RELEASE);\n		return;\n	}\n"));
}

/* A test of another value than the take stores does not see the word
 * held (and without a test the store may be an initialiser's: nothing in
 * the tree takes the word before it): no give-back. */
Test(lockword, a_store_after_a_test_of_another_value_silent)
{
	expect_one(LIBRARY_LOCK("word_t", "	if (readers == 5) {\n		*lock = 0;\n		return;\n	}\n"));
}

/* A word of another declared type is another word. */
Test(lockword, a_word_of_another_type_is_another_lock_silent)
{
	expect_one(LIBRARY_LOCK("other_t", "	if (readers == WLOCK) {\n		*lock = 0;\n		return;\n	}\n"));
}

/* volatile through a typedef is still volatile: a flag of such a type is a
 * marked access, and the data it publishes is paired. */
Test(values, a_flag_volatile_through_a_typedef_is_marked)
{
	expect_one(LKMM "typedef volatile int vint;\n"
		   "vint ready; int data;\n"
		   "void publish(void) { data = 1; /*W*/ ready = 1; }\n"
		   "int consume(void) { if (ready) return data; /*R*/ return 0; }\n");
}

/* ---- early reads (pairing.c's data-race rule, valuedeps.c's decision_marks) ---- */

/* Data read before the flag read that decides whether it is used: nothing
 * orders it after the publication.  A flag read whose value only goes to
 * a call (close(xchg(&fd, -1))) decides nothing about it. */
#define EARLY(mark, use) \
	LKMM "int flag, data;\n" \
	"void publish(void) { data = 1; smp_store_release(&flag, 1); }\n" \
	"void sink(int v);\n" \
	"int peek(void) {\n" \
	"	int d = data; " mark "\n" \
	"	" use "\n" \
	"	return d;\n" \
	"}\n"

Test(early, a_read_before_the_flag_test_that_decides_races)
{
	expect_one(EARLY("/*D*/", "if (!smp_load_acquire(&flag)) return 0;"));
}

Test(early, a_flag_read_handed_to_a_call_decides_nothing)
{
	expect_one(EARLY("", "sink(smp_load_acquire(&flag));"));
}

/* The successor a comparison leads to when it holds is the body for a
 * while or do loop and an if (the first edge), but the second edge of a
 * for loop's test (its first goes out): a for loop that serves while the
 * state is >= 0 never acts on the -1 of a shutdown ... */
Test(values, a_for_loop_that_serves_while_the_state_holds_skips_a_sentinel)
{
	expect_one(LKMM "int state, payload;\n"
		   "void shut_down(void) { payload = 0; WRITE_ONCE(state, -1); }\n"
		   "int serve(void) {\n"
		   "	int sum = 0;\n"
		   "	for (; READ_ONCE(state) > 0;)\n"
		   "		sum += payload;\n"
		   "	return sum;\n"
		   "}\n");
}

/* ... but does on a value it accepts, */
Test(values, a_for_loop_that_serves_while_the_state_holds_takes_an_accepted_value)
{
	expect_one(LKMM "int state, payload;\n"
		   "void start(void) { payload = 5; /*W*/ WRITE_ONCE(state, 1); }\n"
		   "int serve(void) {\n"
		   "	int sum = 0;\n"
		   "	for (; READ_ONCE(state) > 0;)\n"
		   "		sum += payload; /*R*/\n"
		   "	return sum;\n"
		   "}\n");
}

/* and the operands of ?: run on its condition's outcomes the same way. */
Test(values, a_conditional_operand_skips_a_sentinel)
{
	expect_one(LKMM "int state, payload;\n"
		   "void shut_down(void) { payload = 0; WRITE_ONCE(state, -1); }\n"
		   "int peek(void) { return READ_ONCE(state) > 0 ? payload : -1; }\n");
}

Test(values, a_conditional_operand_takes_an_accepted_value)
{
	expect_one(LKMM "int state, payload;\n"
		   "void start(void) { payload = 5; /*W*/ WRITE_ONCE(state, 1); }\n"
		   "int peek(void) { return READ_ONCE(state) > 0 ? payload : -1; } /*R*/\n");
}
