/*
 * corpus: mp-set-bit-publish
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: A READY bit set with set_bit() publishes a plain field. set_bit() is an atomic
 *        RMW without a return value and is unordered, so the field write may be seen
 *        after the bit by a reader that uses smp_load_acquire() on the flags word.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)
#define OBJ_READY 3

struct object {
	unsigned long flags;
	int owner;
};

static struct object obj;

static void *init_object(void *arg)
{
	struct object *o = &obj;

	o->owner = *(int *)arg;		// RACE(writer)
	set_bit(OBJ_READY, &o->flags);
	return NULL;
}

static void *lookup(void *arg)
{
	struct object *o = &obj;
	int *out = arg;
	long spins = 0;

	while (!(smp_load_acquire(&o->flags) & (1UL << OBJ_READY))) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = o->owner;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		int v = 1 + i;
		int seen = -1;

		obj.flags = 0;
		obj.owner = 0;
		pthread_create(&b, NULL, lookup, &seen);
		pthread_create(&a, NULL, init_object, &v);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("mp-set-bit-publish: %d iterations, %d stale owners, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
