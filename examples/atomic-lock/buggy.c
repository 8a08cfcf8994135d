/*
 * atomic-lock: a hand-rolled test-and-set spinlock around a plain counter.
 *
 * counter_add() takes the lock with a compare-and-exchange from 0 to 1,
 * updates the shared counter with ordinary loads and stores, and releases
 * the lock by storing 0.  A lock is only a lock if its acquisition is an
 * acquire (the critical section cannot start before the lock is held) and
 * its release is a release (the critical section is complete before the
 * lock is seen free).  With relaxed operations on both ends, the counter
 * update may leak out of the critical section and updates are lost.
 *
 * buggy.c: cmpxchg_relaxed() to lock, WRITE_ONCE(counter_lock, 0) to unlock.
 * fixed.c: cmpxchg_acquire() to lock, smp_store_release(&counter_lock, 0).
 *
 * Usage: ./prog [ITERATIONS]   (per thread, default 20000)
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcsan/lkmm.h>

#define NTHREADS 4

static int counter_lock;	/* 0: free, 1: held */
static long counter;		/* protected by counter_lock */

static void counter_add(long n)
{
	while (cmpxchg_relaxed(&counter_lock, 0, 1) != 0) {
		while (READ_ONCE(counter_lock))
			sched_yield();
	}
	counter += n;			// EXPECT: missing-acquire // EXPECT: missing-release
	WRITE_ONCE(counter_lock, 0);
}

static int iterations;

static void *worker_thread(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < iterations; i++)
		counter_add(1);
	return NULL;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "atomic-lock: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	pthread_t workers[NTHREADS];
	long expected;
	int t;

	iterations = argc > 1 ? atoi(argv[1]) : 20000;
	for (t = 0; t < NTHREADS; t++)
		check(pthread_create(&workers[t], NULL, worker_thread, NULL), "pthread_create");
	for (t = 0; t < NTHREADS; t++)
		check(pthread_join(workers[t], NULL), "pthread_join");
	expected = (long)NTHREADS * iterations;
	printf("atomic-lock: %d threads x %d increments: counter = %ld (expected %ld), %ld lost\n",
	       NTHREADS, iterations, counter, expected, expected - counter);
	return 0;
}
