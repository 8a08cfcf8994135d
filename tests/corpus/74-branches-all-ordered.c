/*
 * corpus: branches-all-ordered
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Every path from a plain store to the publication is ordered: one branch publishes
 *        with smp_store_release() and returns early, the other issues smp_wmb() before a
 *        WRITE_ONCE(); the reader acquires. No data race on either path.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct completion {
	long payload;
	long extra;
	int state;
};

static struct completion done;

static void complete(struct completion *c, long payload, int urgent)
{
	c->payload = payload;
	if (urgent) {
		smp_store_release(&c->state, 1);
		return;
	}
	c->extra = payload;
	smp_wmb();
	WRITE_ONCE(c->state, 2);
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
	int st;

	while ((st = smp_load_acquire(&c->state)) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	if (st == 2 && c->extra != c->payload)
		*out = -2;
	else
		*out = c->payload;
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
		done.extra = 0;
		done.state = 0;
		pthread_create(&w, NULL, waiter, &seen);
		pthread_create(&c, NULL, completer, &v);
		pthread_join(c, NULL);
		pthread_join(w, NULL);
		if (seen == -1)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("branches-all-ordered: %d iterations, %d stale payloads, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
