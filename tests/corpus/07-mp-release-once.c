/*
 * corpus: mp-release-once
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: Writer publishes with smp_store_release(), but the reader tests the flag with a
 *        plain READ_ONCE() in an if: a control dependency does not order a later read, so
 *        the plain read of the value may execute before the flag read.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

static double result;
static int result_ready;

static void *compute(void *arg)
{
	(void)arg;
	result = 2.5;		// RACE(writer)
	smp_store_release(&result_ready, 1);
	return NULL;
}

static void *poll_result(void *arg)
{
	double *out = arg;
	long spins;

	for (spins = 0; spins < SPIN_LIMIT; spins++) {
		if (READ_ONCE(result_ready)) {
			*out = result;		// RACE(reader)
			return NULL;
		}
		if (!(spins & 127))
			sched_yield();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t c, p;
		double seen = -1.0;

		result = 0.0;
		result_ready = 0;
		pthread_create(&p, NULL, poll_result, &seen);
		pthread_create(&c, NULL, compute, NULL);
		pthread_join(c, NULL);
		pthread_join(p, NULL);
		if (seen < 0.0)
			timeouts++;
		else if (seen != 2.5)
			stale++;
	}
	printf("mp-release-once: %d iterations, %d stale results, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
