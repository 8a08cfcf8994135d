/*
 * c11-mp: hand a computed result from a worker thread to a waiter with
 * C11 <stdatomic.h>.
 *
 * The worker stores the result fields of a struct job, then sets job->done;
 * the waiter spins on job->done, then reads the result.  memory_order_relaxed
 * makes the flag operations atomic but orders nothing around them, so the
 * waiter may read the result before the worker's stores are visible.
 * (This file uses <stdatomic.h> and therefore not <kcsan/lkmm.h>: a
 * translation unit uses one or the other.)
 *
 * buggy.c: memory_order_relaxed on both sides.
 * fixed.c: memory_order_release on the store, memory_order_acquire on the load.
 *
 * Usage: ./prog [ROUNDS]   (default 500)
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job {
	int n;			/* input: set before the threads start */
	long sum;		/* result: 1 + 2 + ... + n */
	int count;		/* result: number of terms */
	atomic_int done;	/* set to 1 once the result is valid */
};

struct result {
	long sum;
	int count;
};

/* Worker side: publish the result of the job. */
static void job_finish(struct job *j, long sum, int count)
{
	j->sum = sum;			// EXPECT: missing-release
	j->count = count;		// EXPECT: missing-release
	atomic_store_explicit(&j->done, 1, memory_order_relaxed);
}

/* Waiter side: wait for the job to finish and collect its result. */
static struct result job_wait(struct job *j)
{
	struct result r;

	while (!atomic_load_explicit(&j->done, memory_order_relaxed))
		;
	r.sum = j->sum;			// EXPECT: missing-acquire
	r.count = j->count;		// EXPECT: missing-acquire
	return r;
}

static void *worker_thread(void *arg)
{
	struct job *j = arg;
	long sum = 0;
	int i;

	for (i = 1; i <= j->n; i++)
		sum += i;
	job_finish(j, sum, j->n);
	return NULL;
}

static void *waiter_thread(void *arg)
{
	struct job *j = arg;
	struct result r = job_wait(j);
	long n = j->n;

	return (r.sum == n * (n + 1) / 2 && r.count == n) ? NULL : arg;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "c11-mp: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 500;
	int stale = 0;
	int round;

	for (round = 1; round <= rounds; round++) {
		struct job *j = calloc(1, sizeof(*j));
		pthread_t worker, waiter;
		void *bad;

		if (!j) {
			perror("c11-mp: calloc");
			return 1;
		}
		j->n = round % 100 + 1;
		check(pthread_create(&waiter, NULL, waiter_thread, j), "pthread_create");
		check(pthread_create(&worker, NULL, worker_thread, j), "pthread_create");
		check(pthread_join(worker, NULL), "pthread_join");
		check(pthread_join(waiter, &bad), "pthread_join");
		if (bad)
			stale++;
		free(j);
	}
	printf("c11-mp: %d results handed off, waiter saw a stale result %d times\n",
	       rounds, stale);
	return 0;
}
