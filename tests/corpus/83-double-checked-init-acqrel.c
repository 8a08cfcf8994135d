/*
 * corpus: double-checked-init-acqrel
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Correct double-checked initialisation: the slow path publishes with
 *        smp_store_release() under the mutex and the lock-free fast path checks with
 *        smp_load_acquire(); a thread that sees 0 takes the mutex and is ordered by it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define CALLS 20

struct pool {
	int nr_objects;
	int object_size;
};

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pool the_pool;
static int initialized;

static void pool_init_once(struct pool *p)
{
	pthread_mutex_lock(&init_lock);
	if (!READ_ONCE(initialized)) {
		p->nr_objects = 64;
		p->object_size = 128;
		smp_store_release(&initialized, 1);
	}
	pthread_mutex_unlock(&init_lock);
}

static int pool_capacity(struct pool *p)
{
	int n, size;

	if (!smp_load_acquire(&initialized))
		pool_init_once(p);
	n = p->nr_objects;
	size = p->object_size;
	return n * size;
}

static void *user(void *arg)
{
	long bad = 0;

	(void)arg;
	for (int i = 0; i < CALLS; i++) {
		if (pool_capacity(&the_pool) != 64 * 128)
			bad++;
	}
	return (void *)bad;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long bad = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		void *ra, *rb;

		the_pool.nr_objects = 0;
		the_pool.object_size = 0;
		initialized = 0;
		pthread_create(&a, NULL, user, NULL);
		pthread_create(&b, NULL, user, NULL);
		pthread_join(a, &ra);
		pthread_join(b, &rb);
		bad += (long)ra + (long)rb;
	}
	printf("double-checked-init-acqrel: %d iterations, %ld calls saw a half-initialised pool\n", iters, bad);
	return 0;
}
