/*
 * corpus: c11-ptr-relaxed-dep
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: C11 pointer publication: the configuration is initialised and its pointer stored with
 *        release, but the reader loads the pointer relaxed and reads the fields through it.  The
 *        LKMM would order those reads by the address dependency (51); C11 orders nothing by a
 *        dependency (consume, which would, is taken for acquire), so no happens-before reaches
 *        the plain field reads: a data race.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

struct config {
	int port;
	int workers;
};

/* the current configuration, replaced by a pointer store */
static struct config *_Atomic current;

static void *publish(void *arg)
{
	struct config *c = malloc(sizeof *c);

	if (!c)
		return NULL;
	c->port = *(int *)arg; // RACE(writer)
	c->workers = 4; // RACE(writer)
	atomic_store_explicit(&current, c, memory_order_release);
	return NULL;
}

static void *use(void *arg)
{
	int *out = arg;
	long spins = 0;
	struct config *c;

	while (!(c = atomic_load_explicit(&current, memory_order_relaxed))) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	if (c->workers == 4) // RACE(reader)
		*out = c->port; // RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, u;
		int port = i + 1, seen = 0;
		struct config *old;

		atomic_store_explicit(&current, NULL, memory_order_relaxed);
		pthread_create(&u, NULL, use, &seen);
		pthread_create(&p, NULL, publish, &port);
		pthread_join(p, NULL);
		pthread_join(u, NULL);
		old = atomic_load_explicit(&current, memory_order_relaxed);
		free(old);
		timeouts += seen == 0;
		wrong += seen != 0 && seen != port;
	}
	printf("c11-ptr-relaxed-dep: %d iterations, %d wrong, %d timeouts\n", iters, wrong, timeouts);
	return 0;
}
