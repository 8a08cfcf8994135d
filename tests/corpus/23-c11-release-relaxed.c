/*
 * corpus: c11-release-relaxed
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The C11 writer releases correctly but the reader loads the flag with
 *        memory_order_relaxed: a release store only synchronizes with an acquire load, so
 *        there is no happens-before and the plain read of the value races.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

struct job {
	long input;
	atomic_int queued;
};

static struct job the_job;

static void *submit(void *arg)
{
	struct job *j = &the_job;

	j->input = *(long *)arg;		// RACE(writer)
	atomic_store_explicit(&j->queued, 1, memory_order_release);
	return NULL;
}

static void *worker(void *arg)
{
	struct job *j = &the_job;
	long *out = arg;
	long spins = 0;

	while (atomic_load_explicit(&j->queued, memory_order_relaxed) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = j->input * 2;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t s, w;
		long v = 10 + i;
		long seen = -1;

		the_job.input = 0;
		atomic_init(&the_job.queued, 0);
		pthread_create(&w, NULL, worker, &seen);
		pthread_create(&s, NULL, submit, &v);
		pthread_join(s, NULL);
		pthread_join(w, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != 2 * v)
			stale++;
	}
	printf("c11-release-relaxed: %d iterations, %d stale inputs, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
