/* tests/unit/test_polled.c — plain flags (analyzer/findings/pairing.c,
 * polled_flag_findings): a plain read that a loop waits on while another
 * thread writes the object is a data race, at both ends when the write is
 * plain, at the wait alone when it is marked, whatever flag orders the
 * code around it; marked, locked, written by the polling function itself
 * or written before the threads exist, it is not.  Real scans, through
 * scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\n#include <poll.h>\n"
/* main(): starts worker(), runs BODY (lines of C) meanwhile, joins it. */
#define MAIN(body) \
	"int main(void) {\n" \
	"	pthread_t t;\n" \
	"	pthread_create(&t, 0, worker, 0);\n" \
	body \
	"	pthread_join(t, 0);\n" \
	"	return 0;\n" \
	"}\n"

/* A start flag: the workers wait for main to say go, main stops them. */
Test(polled, a_plain_start_flag_races_at_the_wait_and_at_each_write)
{
	expect_one(HEAD "int goflag, work;\n"
		   "static void *worker(void *a) {\n"
		   "	while (goflag == 0) /*D*/\n"
		   "		poll(0, 0, 1);\n"
		   "	return a;\n"
		   "}\n"
		   MAIN("	goflag = 1; /*D*/\n"));
	cr_assert(strstr(last_findings_text(), "polled in a loop in worker()"), "%s", last_findings_text());
}

Test(polled, a_marked_start_flag_is_no_race)
{
	expect_one(HEAD "int goflag;\n"
		   "static void *worker(void *a) {\n"
		   "	while (READ_ONCE(goflag) == 0)\n"
		   "		poll(0, 0, 1);\n"
		   "	return a;\n"
		   "}\n"
		   MAIN("	WRITE_ONCE(goflag, 1);\n"));
}

/* Written before the thread exists: pthread_create orders it. */
Test(polled, a_flag_written_only_before_the_threads_is_no_race)
{
	expect_one(HEAD "int goflag;\n"
		   "static void *worker(void *a) {\n"
		   "	while (goflag == 0)\n"
		   "		poll(0, 0, 1);\n"
		   "	return a;\n"
		   "}\n"
		   "int main(void) {\n"
		   "	pthread_t t;\n"
		   "	goflag = 1;\n"
		   "	pthread_create(&t, 0, worker, 0);\n"
		   "	pthread_join(t, 0);\n"
		   "	return 0;\n"
		   "}\n");
}

/* A worker that polls goflag holding m, dropping it between looks. */
#define LOCKED_WAITER \
	"int goflag; pthread_mutex_t m;\n" \
	"static void *worker(void *a) {\n" \
	"	pthread_mutex_lock(&m);\n" \
	"	while (goflag == 0) {\n" \
	"		pthread_mutex_unlock(&m);\n" \
	"		poll(0, 0, 1);\n" \
	"		pthread_mutex_lock(&m);\n" \
	"	}\n" \
	"	pthread_mutex_unlock(&m);\n" \
	"	return a;\n" \
	"}\n"

/* Both ends under one lock: the lock orders them. */
Test(polled, a_flag_read_and_written_under_one_lock_is_no_race)
{
	expect_one(HEAD LOCKED_WAITER
		   MAIN("	pthread_mutex_lock(&m);\n"
			"	goflag = 1;\n"
			"	pthread_mutex_unlock(&m);\n"));
}

/* A loop that counts its own object down waits for no one. */
Test(polled, a_loop_on_what_it_changes_itself_is_no_wait)
{
	expect_one(HEAD "int left; pthread_mutex_t m;\n"
		   "static void *worker(void *a) {\n"
		   "	pthread_mutex_lock(&m);\n"
		   "	left = 3;\n"
		   "	pthread_mutex_unlock(&m);\n"
		   "	return a;\n"
		   "}\n"
		   MAIN("	pthread_mutex_lock(&m);\n"
			"	while (left)\n"
			"		left--;\n"
			"	pthread_mutex_unlock(&m);\n"));
}

/* A counting loop reads its bound each time round; it waits for nothing. */
Test(polled, a_counting_loop_reads_its_bound_and_does_not_wait)
{
	expect_one(HEAD "int limit, sum;\n"
		   "static void *worker(void *a) {\n"
		   "	for (int i = 0; i < limit; i++)\n"
		   "		poll(0, 0, i);\n"
		   "	return a;\n"
		   "}\n"
		   MAIN("	limit = 5;\n"));
}

/* A stop flag that main sets with a marked write while the worker waits
 * on it plainly: the wait is the race (the compiler may hoist the plain
 * load out of the loop), reported at the read alone. */
Test(polled, a_plain_wait_on_a_flag_written_marked_races_at_the_wait)
{
	expect_one(HEAD "int stop;\n"
		   "static void *worker(void *a) {\n"
		   "	while (!stop) /*D*/\n"
		   "		poll(0, 0, 1);\n"
		   "	return a;\n"
		   "}\n"
		   MAIN("	WRITE_ONCE(stop, 1);\n"));
	cr_assert(strstr(last_findings_text(), "writes it with a marked write"), "%s", last_findings_text());
}

/* The same with a compare-and-swap: an RMW writes the flag too. */
Test(polled, a_plain_wait_on_a_variable_another_thread_swaps_races)
{
	expect_one(HEAD "int owner;\n"
		   "static void *worker(void *a) {\n"
		   "	while (owner == 0) /*D*/\n"
		   "		poll(0, 0, 1);\n"
		   "	return a;\n"
		   "}\n"
		   MAIN("	cmpxchg(&owner, 0, 1);\n"));
}

/* The marked write made only before the thread exists: no race. */
Test(polled, a_marked_write_before_the_threads_is_no_race)
{
	expect_one(HEAD "int stop;\n"
		   "static void *worker(void *a) {\n"
		   "	while (!stop)\n"
		   "		poll(0, 0, 1);\n"
		   "	return a;\n"
		   "}\n"
		   "int main(void) {\n"
		   "	pthread_t t;\n"
		   "	WRITE_ONCE(stop, 1);\n"
		   "	pthread_create(&t, 0, worker, 0);\n"
		   "	pthread_join(t, 0);\n"
		   "	return 0;\n"
		   "}\n");
}

/* The marked write made holding the lock the waiter holds around its
 * reads: the lock orders them, as for a plain write. */
Test(polled, a_marked_write_under_the_waiters_lock_is_no_race)
{
	expect_one(HEAD LOCKED_WAITER
		   MAIN("	pthread_mutex_lock(&m);\n"
			"	WRITE_ONCE(goflag, 1);\n"
			"	pthread_mutex_unlock(&m);\n"));
}
