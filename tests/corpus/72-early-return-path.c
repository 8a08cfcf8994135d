/*
 * corpus: early-return-path
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The normal path publishes with smp_store_release(), but an early-return fast path
 *        publishes with WRITE_ONCE() and returns; on that path the plain payload store is
 *        not ordered before the state flag (the fast path is taken every other iteration).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct completion {
	long payload;
	int state;
};

static struct completion done;

static void complete(struct completion *c, long payload, int urgent)
{
	c->payload = payload;		// RACE(writer)
	if (urgent) {
		WRITE_ONCE(c->state, 1);
		return;
	}
	smp_store_release(&c->state, 1);
}

static void *completer(void *arg)
{
	long v = *(long *)arg;

	complete(&done, v, (int)(v & 1));
	return NULL;
}

static void *waiter(void *arg)
{
	struct completion *c = &done;
	long *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&c->state)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = c->payload;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t c, w;
		long v = 100 + i;
		long seen = -1;

		done.payload = 0;
		done.state = 0;
		pthread_create(&w, NULL, waiter, &seen);
		pthread_create(&c, NULL, completer, &v);
		pthread_join(c, NULL);
		pthread_join(w, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("early-return-path: %d iterations, %d stale payloads, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
