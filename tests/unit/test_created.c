/* tests/unit/test_created.c — what a thread does before it creates
 * another happens before everything the new thread does
 * (analyzer/analysis/created.c), also when other threads already run:
 * a helper started first (liburcu's call_rcu threads in rcutorture) does
 * not make main()'s set-up for the next threads a race.  Each case has a
 * twin where the same access is made after the creation, and races.
 * Real scans, through scan_helper.c. */
#include <criterion/criterion.h>

#include "scan_helper.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\n#include <poll.h>\n" \
	"static pthread_t tids[16]; static int ntids;\n" \
	"static void create_thread(void *(*fn)(void *), void *arg) { pthread_create(&tids[ntids++], 0, fn, arg); }\n" \
	"static void wait_all(void) { for (int i = 0; i < ntids; i++) pthread_join(tids[i], 0); ntids = 0; }\n" \
	"static int helper_stop;\n" \
	"static void *helper(void *a) { while (!READ_ONCE(helper_stop)) poll(0, 0, 1); return a; }\n"

/* rcutorture's perftest(): the per-thread counters are zeroed, the
 * readers created, then goflag says go.  The reader's update after it
 * sees goflag needs no acquire: the zeroing was made before it existed.
 * SETUP_EARLY / SETUP_LATE: the zeroing before or after the creation. */
#define PERFTEST(early, late, rmark) PERFTEST_RUN(early, late, rmark, "")
/* ... and PARENT, what main() does itself after go (the first reader's
 * run, or nothing). */
#define PERFTEST_RUN(early, late, rmark, parent) HEAD \
	"static int goflag;\n" \
	"static long n_reads[4];\n" \
	"static void *reader(void *a) {\n" \
	"	long me = (long)a;\n" \
	"	while (!READ_ONCE(goflag))\n" \
	"		poll(0, 0, 1);\n" \
	"	n_reads[me] += 1; " rmark "\n" \
	"	return 0;\n" \
	"}\n" \
	"static void perftest(void) {\n" \
	early \
	"	create_thread(reader, (void *)0);\n" \
	late \
	"	WRITE_ONCE(goflag, 1);\n" \
	parent \
	"	wait_all();\n" \
	"}\n" \
	"int main(void) {\n" \
	"	create_thread(helper, 0);\n" \
	"	perftest();\n" \
	"	WRITE_ONCE(helper_stop, 1);\n" \
	"	return 0;\n" \
	"}\n"

Test(created, setup_before_the_readers_creation_needs_no_acquire)
{
	expect_one(PERFTEST("	for (int i = 0; i < 4; i++) n_reads[i] = 0;\n", "", ""));
}

Test(created, setup_after_the_readers_creation_still_races)
{
	expect_one(PERFTEST("", "	for (int i = 0; i < 4; i++) n_reads[i] = 0; /*W*/\n", "/*R*/"));
}

/* perfbook's smpalloc: main() fills the pools, then a helper function
 * creates the threads that take from them under the lock: the unlocked
 * fill races with none of them.  (In the function that creates them, an
 * access just before the creation is set-up already: pre_spawn.) */
#define POOLS(early, late, spawner) HEAD \
	"static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static struct { int cur; void *pool[8]; } globalmem;\n" \
	"static void *taker(void *a) {\n" \
	"	pthread_mutex_lock(&mutex);\n" \
	"	if (globalmem.cur > 0)\n" \
	"		globalmem.cur--;\n" \
	"	pthread_mutex_unlock(&mutex);\n" \
	"	return a;\n" \
	"}\n" \
	"static void start_takers(void) { create_thread(taker, 0); create_thread(taker, 0); }\n" \
	spawner \
	"int main(void) {\n" \
	"	create_thread(helper, 0);\n" \
	early \
	"	start_takers();\n" \
	late \
	"	wait_all();\n" \
	"	return 0;\n" \
	"}\n"

Test(created, unlocked_fill_before_the_takers_exist_is_no_race)
{
	expect_one(POOLS("	globalmem.cur = 8;\n", "", ""));
}

Test(created, unlocked_fill_after_the_takers_exist_races)
{
	expect_one(POOLS("", "	globalmem.cur = 8; /*D*/\n", ""));
}

/* A routine that another thread creates too: main()'s fill is not before
 * the taker that thread may create at any time. */
Test(created, a_routine_another_thread_creates_too_is_not_ordered)
{
	expect_one(POOLS("	globalmem.cur = 8; /*D*/\n", "",
			 "static void *spawner(void *a) { pthread_t t; pthread_create(&t, 0, taker, 0); pthread_join(t, 0); return a; }\n"
			 "static void start_spawner(void) { create_thread(spawner, 0); }\n"
			 "__attribute__((constructor)) static void init(void) { start_spawner(); }\n"));
}

/* A plain flag that the poller's loop waits on: the value it starts with,
 * stored before the poller exists, is no race; the store that stops it
 * is (a data race at both ends). */
Test(created, a_polled_flag_set_before_the_poller_exists_races_only_where_stored_later)
{
	expect_one(HEAD "static int stop;\n"
		   "static void *poller(void *a) {\n"
		   "	while (!stop) /*D*/\n"
		   "		poll(0, 0, 1);\n"
		   "	return a;\n"
		   "}\n"
		   "static void start_poller(void) { create_thread(poller, 0); }\n"
		   "int main(void) {\n"
		   "	create_thread(helper, 0);\n"
		   "	stop = 0;\n"
		   "	start_poller();\n"
		   "	stop = 1; /*D*/\n"
		   "	wait_all();\n"
		   "	return 0;\n"
		   "}\n");
}

/* perfbook's maze solver runs the child function in the parent too, as
 * the first child.  PERFTEST with main() running reader() itself after
 * go: the set-up made before the creation races with no reader,
 * the parent's own run included; made after it, it still does. */
#define PARENT_READS(early, late, rmark) PERFTEST_RUN(early, late, rmark, "	reader((void *)0);\n")

Test(created, set_up_for_readers_the_parent_also_runs_is_no_race)
{
	expect_one(PARENT_READS("	for (int i = 0; i < 4; i++) n_reads[i] = 0;\n", "", ""));
}

Test(created, set_up_after_the_readers_exist_races_with_them)
{
	expect_one(PARENT_READS("", "	for (int i = 0; i < 4; i++) n_reads[i] = 0; /*W*/\n", "/*R*/"));
}
