/* tests/unit/test_noreturn.c — a call that never returns ends the path
 * (docs/history/real-code-reviews.md, W10): exit(), abort(), __assert_fail, functions
 * declared noreturn or _Noreturn, and functions of the tree whose every
 * path ends in one (perfbook's usage()).  What follows such a call is not
 * reached from it: the read made on the way out guards nothing, and a
 * lock released on the way out is still held on the path that goes on.
 * Each shape must give nothing; its twin with a function that returns
 * must still be reported.  Real scans, through scan_helper.c. */
#include <criterion/criterion.h>

#include "scan_helper.h"

#define HEADERS "#include <kcsan/lkmm.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
#define WRITER \
	"int data, ready, nerr;\n" \
	"void writer(void) { data = 1; smp_store_release(&ready, 1); WRITE_ONCE(nerr, 0); }\n"

Test(noreturn, function_that_exits_ends_the_path)
{
	expect_one(HEADERS WRITER
		   "static void die(void) { exit(READ_ONCE(nerr)); }\n"
		   "static void fail(int why) { fprintf(stderr, \"%d\\n\", why); die(); }\n"
		   "void reader(int bad) { if (bad) die(); if (smp_load_acquire(&ready)) (void)data; }\n"
		   "void reader2(int bad) { if (bad) fail(bad); if (smp_load_acquire(&ready)) (void)data; }\n");
}

Test(noreturn, exit_and_abort_written_inline_end_the_path)
{
	expect_one(HEADERS WRITER
		   "void reader(int bad) { if (bad) exit(READ_ONCE(nerr)); if (smp_load_acquire(&ready)) (void)data; }\n"
		   "void reader2(int bad) {\n"
		   "	if (bad) { fprintf(stderr, \"%d\\n\", READ_ONCE(nerr)); abort(); }\n"
		   "	if (smp_load_acquire(&ready)) (void)data;\n"
		   "}\n");
}

Test(noreturn, function_that_returns_still_leaves_its_read_pending)
{
	expect_one(HEADERS WRITER
		   "static void warn(void) { while (READ_ONCE(nerr) > 100) fprintf(stderr, \"waiting\\n\"); }\n"
		   "void reader(int bad) {\n"
		   "	if (bad) warn();\n"
		   "	if (smp_load_acquire(&ready)) (void)data; /*R*/\n"
		   "}\n");
}

#define LOCKED \
	"#include <pthread.h>\n" \
	"static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n" \
	"int count;\n" \
	"void a(void) { pthread_mutex_lock(&m); count++; pthread_mutex_unlock(&m); }\n"
#define UNLOCK_THEN(call, mark) \
	"void b(int bad) {\n" \
	"	pthread_mutex_lock(&m);\n" \
	"	if (bad) { pthread_mutex_unlock(&m); " call "; }\n" \
	"	count++; " mark "\n" \
	"	pthread_mutex_unlock(&m);\n" \
	"}\n"

Test(noreturn, lock_released_on_the_way_out_is_still_held_after)
{
	expect_one(HEADERS LOCKED
		   "static void die(const char *msg) { fprintf(stderr, \"%s\\n\", msg); exit(1); }\n"
		   UNLOCK_THEN("die(\"bad\")", ""));
}

Test(noreturn, declared_noreturn_functions_end_the_path)
{
	expect_one(HEADERS LOCKED
		   "__attribute__((noreturn)) void fatal(const char *msg);\n"
		   "_Noreturn void fatal2(void);\n"
		   UNLOCK_THEN("fatal(\"bad\")", "")
		   "void c(int bad) {\n"
		   "	pthread_mutex_lock(&m);\n"
		   "	if (bad) { pthread_mutex_unlock(&m); fatal2(); }\n"
		   "	count++;\n"
		   "	pthread_mutex_unlock(&m);\n"
		   "}\n");
}

Test(noreturn, lock_released_before_a_function_that_returns_races)
{
	expect_one(HEADERS LOCKED
		   "void report(const char *msg);\n"
		   UNLOCK_THEN("report(\"bad\")", "/*D*/"));
}

/* ?: and || stay in one block (both operands as if they ran): a call that
 * never returns in one of them must not end the path of the other. */
Test(noreturn, abort_in_a_conditional_operand_does_not_end_the_path)
{
	expect_one(HEADERS LOCKED
		   "void b(int bad) {\n"
		   "	bad ? abort() : (void)0;\n"
		   "	(void)(bad || (abort(), 0));\n"
		   "	count++; /*D*/\n"
		   "}\n");
}
