/*
 * hooks.c — the <kcsan/lkmm.h> hooks the runtime defines:
 *   ./hooks assert SECONDS     ASSERT_EXCLUSIVE_WRITER(v) in one thread while
 *                              another does WRITE_ONCE(v): must report an
 *                              "assert: race" (marked writes still conflict
 *                              with an exclusivity assertion);
 *   ./hooks data_race SECONDS  racy plain increments wrapped in data_race():
 *                              must never report.
 * Prints "reports=N".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kcsan/lkmm.h>

unsigned long kcsan_rt_reports(void);
void *asserter(void *arg);
void *writer(void *arg);
void *counter_thread(void *arg);

static long v, counter;
static int stop;

void *asserter(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop))
		ASSERT_EXCLUSIVE_WRITER(v);
	return NULL;
}

void *writer(void *arg)
{
	long i = 0;

	(void)arg;
	while (!READ_ONCE(stop))
		WRITE_ONCE(v, i++);
	return NULL;
}

void *counter_thread(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop))
		(void)data_race(counter++);
	return NULL;
}

int main(int argc, char **argv)
{
	int is_assert = argc > 1 && !strcmp(argv[1], "assert");
	double limit = argc > 2 ? atof(argv[2]) : 2.0;
	struct timespec t0, t;
	pthread_t a, b;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&a, NULL, is_assert ? asserter : counter_thread, NULL);
	pthread_create(&b, NULL, is_assert ? writer : counter_thread, NULL);
	do {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < limit &&
		 !(is_assert && kcsan_rt_reports() > 0));
	WRITE_ONCE(stop, 1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("reports=%lu\n", kcsan_rt_reports());
	return 0;
}
