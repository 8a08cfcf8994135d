/*
 * corpus: ptr-once-publish
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The writer initialises a struct and publishes its address with WRITE_ONCE(gp, p)
 *        instead of smp_store_release(): the field writes may become visible after the
 *        pointer, so the reader (READ_ONCE + address dependency, correct) sees garbage.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct route {
	unsigned int dst;
	unsigned int gateway;
	int metric;
};

static struct route routes[2];
static struct route *current_route;

static void *install(void *arg)
{
	struct route *r = &routes[*(int *)arg & 1];

	r->dst = 0x0a000000u;
	r->gateway = 0x0a000001u;		// RACE(writer)
	r->metric = 10;		// RACE(writer)
	WRITE_ONCE(current_route, r);
	return NULL;
}

static void *forward(void *arg)
{
	int *out = arg;
	struct route *r;
	long spins = 0;
	unsigned int gw;
	int metric;

	while (!(r = READ_ONCE(current_route))) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	gw = r->gateway;		// RACE(reader)
	metric = r->metric;		// RACE(reader)
	*out = gw == 0x0a000001u && metric == 10;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, f;
		int slot = i;
		int ok = -1;

		routes[i & 1].dst = 0;
		routes[i & 1].gateway = 0;
		routes[i & 1].metric = 0;
		current_route = NULL;
		pthread_create(&f, NULL, forward, &ok);
		pthread_create(&w, NULL, install, &slot);
		pthread_join(w, NULL);
		pthread_join(f, NULL);
		if (ok < 0)
			timeouts++;
		else if (!ok)
			bad++;
	}
	printf("ptr-once-publish: %d iterations, %d uninitialised routes, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
