/*
 * corpus: c11-relaxed
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: yes
 * about: C11 message passing with memory_order_relaxed on both the flag store and the flag
 *        load: relaxed atomics create no happens-before, so the plain accesses to the
 *        payload race (C11 data race; LKMM: WRITE_ONCE/READ_ONCE, both sides unordered).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

static int payload;
static atomic_int have_payload;

static void *producer(void *arg)
{
	payload = *(int *)arg;		// RACE(writer)
	atomic_store_explicit(&have_payload, 1, memory_order_relaxed);
	return NULL;
}

static void *consumer(void *arg)
{
	int *out = arg;
	long spins = 0;

	while (!atomic_load_explicit(&have_payload, memory_order_relaxed)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = payload;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, c;
		int v = i + 1;
		int seen = -1;

		payload = 0;
		atomic_store_explicit(&have_payload, 0, memory_order_relaxed);
		pthread_create(&c, NULL, consumer, &seen);
		pthread_create(&p, NULL, producer, &v);
		pthread_join(p, NULL);
		pthread_join(c, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("c11-relaxed: %d iterations, %d stale payloads, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
