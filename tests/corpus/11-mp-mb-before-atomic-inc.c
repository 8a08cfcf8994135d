/*
 * corpus: mp-mb-before-atomic-inc
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Publication by a non-returning atomic_inc() preceded by smp_mb__before_atomic():
 *        the pair acts as a full barrier before the RMW, so the plain sample write is
 *        ordered before the counter increment; the reader uses atomic_read_acquire().
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

static long sample;
static atomic_t nr_samples = ATOMIC_INIT(0);

static void *sampler(void *arg)
{
	sample = *(long *)arg;
	smp_mb__before_atomic();
	atomic_inc(&nr_samples);
	return NULL;
}

static void *collector(void *arg)
{
	long *out = arg;
	long spins = 0;

	while (atomic_read_acquire(&nr_samples) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = sample;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t s, c;
		long v = 500 + i;
		long seen = -1;

		sample = 0;
		atomic_set(&nr_samples, 0);
		pthread_create(&c, NULL, collector, &seen);
		pthread_create(&s, NULL, sampler, &v);
		pthread_join(s, NULL);
		pthread_join(c, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("mp-mb-before-atomic-inc: %d iterations, %d stale samples, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
