/*
 * corpus: ptr-release-addr-dep
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Pointer publication: the writer fills a struct and publishes its address with
 *        smp_store_release(&gp, p); the reader does p = READ_ONCE(gp) and dereferences p.
 *        The address dependency orders the field reads after the pointer read in LKMM.
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
	r->gateway = 0x0a000001u;
	r->metric = 10;
	smp_store_release(&current_route, r);
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
	gw = r->gateway;
	metric = r->metric;
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
	printf("ptr-release-addr-dep: %d iterations, %d uninitialised routes, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
