/*
 * counter.c — a plain data race that no flag is involved in, for
 * tests/e2e/dynamic.sh: two threads store their own counts into one plain
 * variable with no lock and no marked access.  The static pass looks for
 * missing ordering around flags, for inconsistent locking, for plain flags
 * polled in loops and for lost updates (a plain hits++ of two threads); two
 * plain stores that read nothing of the variable are none of those, so it
 * has nothing to say here; the runtime's watchpoints see the two writers
 * conflict.  The report must show the race as a finding of its own, with
 * evidence "dynamic" only.
 *
 * Usage: ./counter [SECONDS]  Runs until the runtime has reported a race or
 * SECONDS (default 10) have passed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

unsigned long kcsan_rt_reports(void);

unsigned long hits;
static volatile int stop;

__attribute__((noinline)) static void bump(unsigned long count)
{
	hits = count;
}

static void *worker(void *arg)
{
	unsigned long count = 0;

	(void)arg;
	while (!stop)
		bump(++count);
	return NULL;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	time_t end = time(NULL) + seconds;
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	while (time(NULL) < end && kcsan_rt_reports() == 0) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
