/* tests/unit/test_conditions.c — conditions as the branches they make
 * (analyzer/frontend/extract_stmt.c, walk_jumps): each operand of an &&,
 * a || or a ! is tested in a block of its own, with edges to where the
 * whole condition's outcome leads, so that no path of the graph skips an
 * operand the program must run; and a local read again in a retry loop is
 * known by the one definition that reaches a test
 * (analysis/valuedeps.c, reaching_definition).  Real scans, through
 * scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"
#include "analyzer/model/facts.h"

/* The test events ("?test" or "?loop") of the one function of FACTS, in
 * the order of their blocks, into OUT (at most MAX), and their blocks
 * into BLOCK (when not NULL); their count. */
static int tests_in(const struct tu_facts *facts, const struct event **out, int *block, int max)
{
	int n = 0;

	cr_assert_eq(facts->nfunctions, 1);
	for (int b = 0; b < facts->functions[0].nblocks; b++)
		for (int k = 0; k < facts->functions[0].blocks[b].nevents; k++) {
			const struct event *e = &facts->functions[0].blocks[b].events[k];

			if (e->kind == EV_LOCAL && e->defines &&
			    (strcmp(e->defines, "?test") == 0 || strcmp(e->defines, "?loop") == 0) && n < max) {
				if (block)
					block[n] = b;
				out[n++] = e;
			}
		}
	return n;
}


/* Each operand of an && is a test of its own, with its own comparison. */
Test(conditions, each_operand_of_an_and_is_tested_apart)
{
	struct tu_facts f = { 0 };
	const struct event *t[4];
	int n;

	extract_text("#include <kcsan/lkmm.h>\n"
		     "int a, b, x;\n"
		     "void f(void) { if (READ_ONCE(a) == 1 && __builtin_expect(READ_ONCE(b) != 2, 1)) x = 1; }\n", &f);
	cr_assert_null(f.diagnostics, "%s", f.diagnostics);
	n = tests_in(&f, t, NULL, 4);
	cr_assert_eq(n, 2, "%d tests", n);
	cr_assert(t[0]->uses && strstr(t[0]->uses, "^0=1:@"), "%s", t[0]->uses);
	cr_assert(t[1]->uses && strstr(t[1]->uses, "^0!2:@"), "%s", t[1]->uses);
	facts_free(&f);
}

/* A ||: the second operand is tested where the first fails (the first's
 * second edge leads to it), and each comparison is its operand's own; a
 * for loop's test leads to its exit first, so there the comparison holds
 * on the way to the second successor. */
Test(conditions, an_or_and_a_for_loop_test_their_operands_apart)
{
	struct tu_facts f = { 0 };
	const struct event *t[4];
	int blk[4], n;
	const struct block *first;

	extract_text("#include <kcsan/lkmm.h>\n"
		     "int a, b, x;\n"
		     "void f(void) {\n"
		     "	if (READ_ONCE(a) == 1 || READ_ONCE(b) == 2)\n"
		     "		x = 1;\n"
		     "	for (int i = 0; i < 8 && READ_ONCE(b) != 3; i++)\n"
		     "		x++;\n"
		     "}\n", &f);
	cr_assert_null(f.diagnostics, "%s", f.diagnostics);
	n = tests_in(&f, t, blk, 4);
	cr_assert_eq(n, 4, "%d tests", n);
	cr_assert(t[0]->uses && strstr(t[0]->uses, "^0=1:@"), "%s", t[0]->uses);
	cr_assert(t[1]->uses && strstr(t[1]->uses, "^0=2:@"), "%s", t[1]->uses);
	first = &f.functions[0].blocks[blk[0]];
	cr_assert(first->nsucc == 2 && first->succ[1] == blk[1] && first->succ[0] != blk[1],
		  "the first operand's edges: %d, %d; the second's block %d", first->succ[0], first->succ[1], blk[1]);
	cr_assert(t[3]->uses && strstr(t[3]->uses, "^1!3:@"), "%s", t[3]->uses);
	facts_free(&f);
}

/* A test-and-test-and-set lock: the loop is left only through the
 * compare-and-swap, a full barrier, so the section is ordered after the
 * first read of the word.  With one test of the whole condition after
 * both operands, the way out seemed open past the compare-and-swap. */
#define TTAS(cas) \
	"#include <pthread.h>\n" \
	"static volatile int word;\n" \
	"static long hits;\n" \
	"static void take(void) {\n" \
	"	int expected = 0;\n" \
	"	while (!(word == 0 && " cas "))\n" \
	"		expected = 0;\n" \
	"}\n" \
	"static void give(void) { __atomic_store_n(&word, 0, __ATOMIC_RELEASE); }\n" \
	"static void *worker(void *arg) {\n" \
	"	(void)arg;\n" \
	"	for (int i = 0; i < 1000; i++) { take(); %s give(); }\n" \
	"	return 0;\n" \
	"}\n" \
	"int main(void) {\n" \
	"	pthread_t a, b;\n" \
	"	pthread_create(&a, 0, worker, 0);\n" \
	"	pthread_create(&b, 0, worker, 0);\n" \
	"	pthread_join(a, 0);\n" \
	"	pthread_join(b, 0);\n" \
	"	return 0;\n" \
	"}\n"

static void expect_ttas(const char *format, const char *section)
{
	char text[2048];

	snprintf(text, sizeof text, format, section);
	expect_one(text);
}

Test(conditions, a_test_and_test_and_set_lock_orders_its_section_silent)
{
	expect_ttas(TTAS("__atomic_compare_exchange_n(&word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)"),
		    "hits++;");
}

/* The twin whose compare-and-swap is relaxed: nothing orders the section
 * after the read that let the loop end. */
Test(conditions, a_test_and_test_and_set_lock_with_a_relaxed_cas_races)
{
	expect_ttas(TTAS("__atomic_compare_exchange_n(&word, &expected, 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)"),
		    "hits++; /*R*/");
}

/* A local read once before a retry loop and again at the loop's end: the
 * test before the loop sees the first read only, so the branch it makes
 * says what that read returned (here: the word held by a writer, which
 * the unlock gives back; lockword.c).  In the loop's own test both reads
 * may reach, and nothing is concluded. */
Test(conditions, a_test_sees_the_one_definition_that_reaches_it)
{
	expect_one("typedef volatile unsigned long word_t;\n"
		   "void wlock(word_t *lock) { while (!__sync_bool_compare_and_swap(lock, 0, 7)) ; }\n"
		   "void unlock(word_t *lock) {\n"
		   "	unsigned long v = *lock;\n"
		   "	if (v == 7) {\n"
		   "		*lock = 0; /*W*/\n"
		   "		return;\n"
		   "	}\n"
		   "	while (!__sync_bool_compare_and_swap(lock, v, v - 1))\n"
		   "		v = *lock;\n"
		   "}\n");
}

/* Two definitions reach the test, one of another word: what the branch
 * saw is not known to be the lock word's value. */
Test(conditions, a_test_that_two_definitions_reach_concludes_nothing_silent)
{
	expect_one("typedef volatile unsigned long word_t;\n"
		   "void wlock(word_t *lock) { while (!__sync_bool_compare_and_swap(lock, 0, 7)) ; }\n"
		   "void unlock(word_t *lock, word_t *other, int mine) {\n"
		   "	unsigned long v = *other;\n"
		   "	if (mine)\n"
		   "		v = *lock;\n"
		   "	if (v == 7) {\n"
		   "		*lock = 0;\n"
		   "		return;\n"
		   "	}\n"
		   "	while (!__sync_bool_compare_and_swap(lock, v, v - 1))\n"
		   "		v = *lock;\n"
		   "}\n");
}

/* How many edges of F lead to block B? */
static int predecessors(const struct function *f, int b)
{
	int n = 0;

	for (int p = 0; p < f->nblocks; p++)
		for (int s = 0; s < f->blocks[p].nsucc; s++)
			n += f->blocks[p].succ[s] == b;
	return n;
}

/* The block of F that holds the access on LINE, or -1. */
static int block_of_line(const struct function *f, int line)
{
	for (int b = 0; b < f->nblocks; b++)
		for (int k = 0; k < f->blocks[b].nevents; k++)
			if (f->blocks[b].events[k].kind == EV_ACCESS && f->blocks[b].events[k].line == line)
				return b;
	return -1;
}

/* A condition the compiler folds goes one way: while (1) is left only by
 * its break, do ... while (0) runs once, the dead branch of if
 * (sizeof(long) == 8) is reached by no edge; and none of them is a test. */
Test(conditions, a_constant_condition_goes_one_way)
{
	struct tu_facts f = { 0 };
	const struct event *t[4];
	const struct function *fn;
	int n;

	extract_text("int a, x, y, z;\n"
		     "void f(void) {\n"
		     "	while (1) {\n"
		     "		if (__atomic_load_n(&a, __ATOMIC_ACQUIRE))\n"
		     "			break;\n"
		     "	}\n"
		     "	do { x = 1; } while (0);\n"
		     "	if (sizeof(long) == 8)\n"
		     "		y = 2;\n"
		     "	else\n"
		     "		z = 3;\n"
		     "}\n", &f);
	cr_assert_null(f.diagnostics, "%s", f.diagnostics);
	fn = &f.functions[0];
	n = tests_in(&f, t, NULL, 4);
	cr_assert_eq(n, 1, "%d tests: only the load is one", n);
	cr_assert_gt(predecessors(fn, block_of_line(fn, 9)), 0, "the live branch is not reached");
	cr_assert_eq(predecessors(fn, block_of_line(fn, 11)), 0, "the dead branch is reached");
	/* the do loop's body is entered once: no edge back from its test */
	cr_assert_eq(predecessors(fn, block_of_line(fn, 7)), 1, "%d edges into the do loop's body",
		     predecessors(fn, block_of_line(fn, 7)));
	facts_free(&f);
}

/* A condition clang folds although it has side effects ((c = 1, 1): the
 * folding ignores them) still makes its accesses: only its test and its
 * dead edge go. */
Test(conditions, a_folded_condition_still_makes_its_accesses)
{
	struct tu_facts f = { 0 };
	const struct event *t[4];
	const struct function *fn;
	int n;

	extract_text("int a, c;\n"
		     "void f(void) {\n"
		     "	while ((c = 1, 1)) {\n"
		     "		if (__atomic_load_n(&a, __ATOMIC_ACQUIRE))\n"
		     "			break;\n"
		     "	}\n"
		     "}\n", &f);
	cr_assert_null(f.diagnostics, "%s", f.diagnostics);
	fn = &f.functions[0];
	n = tests_in(&f, t, NULL, 4);
	cr_assert_eq(n, 1, "%d tests: only the load is one", n);
	cr_assert_geq(block_of_line(fn, 3), 0, "the write to c in the condition is lost");
	facts_free(&f);
}
