/*
 * corpus: read-before-acquire
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The reader does acquire the flag, but it makes its plain read of the data BEFORE
 *        the smp_load_acquire() and only uses the value afterwards; acquire orders later
 *        accesses, not earlier ones, so the read races with the writer's store.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct reply {
	int status;
	int arrived;
};

static struct reply rp;

static void *responder(void *arg)
{
	struct reply *r = &rp;

	r->status = *(int *)arg;		// RACE(writer)
	smp_store_release(&r->arrived, 1);
	return NULL;
}

static void *requester(void *arg)
{
	struct reply *r = &rp;
	int *out = arg;
	long spins;

	for (spins = 0; spins < SPIN_LIMIT; spins++) {
		int status = r->status;		// RACE(reader)

		if (smp_load_acquire(&r->arrived)) {
			*out = status;
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
		pthread_t a, b;
		int v = 200 + i % 300;
		int seen = -1;

		rp.status = 0;
		rp.arrived = 0;
		pthread_create(&b, NULL, requester, &seen);
		pthread_create(&a, NULL, responder, &v);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("read-before-acquire: %d iterations, %d stale statuses, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
