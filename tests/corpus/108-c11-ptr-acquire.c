/*
 * corpus: c11-ptr-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 107 with the pointer loaded with memory_order_acquire: the load
 *        synchronizes-with the release store, and the initialisation happens-before the field
 *        reads.
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
	c->port = *(int *)arg;
	c->workers = 4;
	atomic_store_explicit(&current, c, memory_order_release);
	return NULL;
}

static void *use(void *arg)
{
	int *out = arg;
	long spins = 0;
	struct config *c;

	while (!(c = atomic_load_explicit(&current, memory_order_acquire))) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	if (c->workers == 4)
		*out = c->port;
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
	printf("c11-ptr-acquire: %d iterations, %d wrong, %d timeouts\n", iters, wrong, timeouts);
	return 0;
}
