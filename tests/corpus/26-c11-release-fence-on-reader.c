/*
 * corpus: c11-release-fence-on-reader
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The writer's release fence is right, but the reader follows its relaxed flag load
 *        with atomic_thread_fence(memory_order_release), which orders nothing for later
 *        loads; without an acquire fence there is no synchronization and the read races.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

struct sensor {
	int celsius;
	atomic_uint updates;
};

static struct sensor probe;

static void *measure(void *arg)
{
	struct sensor *s = &probe;

	s->celsius = *(int *)arg;		// RACE(writer)
	atomic_thread_fence(memory_order_release);
	atomic_fetch_add_explicit(&s->updates, 1, memory_order_relaxed);
	return NULL;
}

static void *report(void *arg)
{
	struct sensor *s = &probe;
	int *out = arg;
	long spins = 0;

	while (atomic_load_explicit(&s->updates, memory_order_relaxed) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	atomic_thread_fence(memory_order_release);
	*out = s->celsius;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t m, r;
		int v = 20 + i % 30;
		int seen = -1000;

		probe.celsius = -1;
		atomic_store_explicit(&probe.updates, 0, memory_order_relaxed);
		pthread_create(&r, NULL, report, &seen);
		pthread_create(&m, NULL, measure, &v);
		pthread_join(m, NULL);
		pthread_join(r, NULL);
		if (seen == -1000)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("c11-release-fence-on-reader: %d iterations, %d stale readings, %d timeouts\n",
	       iters, stale, timeouts);
	return 0;
}
