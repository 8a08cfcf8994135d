/*
 * harness.h — shared by the runtime's threaded test programs: run NTHREADS
 * workers until the runtime has printed a report or SECONDS have passed,
 * then print "reports=N" (the calling script decides what N must be).
 * Workers loop while !harness_stop(); the main thread polls the runtime's
 * report count with real sleeps, so no instrumented access of its own
 * races with the workers.
 */
#ifndef RT_HARNESS_H
#define RT_HARNESS_H
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

unsigned long kcsan_rt_reports(void);

static int harness_stop_flag;

static inline int harness_stop(void)
{
	return __atomic_load_n(&harness_stop_flag, __ATOMIC_ACQUIRE);
}

/* Returns the number of reports; workers get their index as argument. */
static inline unsigned long harness_run(int nthreads, void *(*fn)(void *), double seconds)
{
	pthread_t t[256];
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	long ticks = (long)(seconds * 100);
	int i;

	if (nthreads > 256)
		nthreads = 256;
	__atomic_store_n(&harness_stop_flag, 0, __ATOMIC_RELEASE);
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, fn, (void *)(long)i)) {
			perror("pthread_create");
			exit(2);
		}
	while (ticks-- > 0 && kcsan_rt_reports() == 0)
		nanosleep(&tick, NULL);
	__atomic_store_n(&harness_stop_flag, 1, __ATOMIC_RELEASE);
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	return kcsan_rt_reports();
}

static inline double harness_seconds(int argc, char **argv, int i, double dflt)
{
	return argc > i ? atof(argv[i]) : dflt;
}
#endif
