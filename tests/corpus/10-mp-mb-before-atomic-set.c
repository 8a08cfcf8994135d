/*
 * corpus: mp-mb-before-atomic-set
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: no
 * about: smp_mb__before_atomic() only orders against a following atomic read-modify-write;
 *        atomic_set() is a plain marked store, not an RMW, so in LKMM the barrier orders
 *        nothing here and the plain write of the item is not ordered before the flag.
 *        The weak-memory model of docs/design.md §5 (like the kernel's KCSAN) treats
 *        smp_mb__before_atomic() as a full barrier that ends the delay, so the writer
 *        keeps no delayed access: found by the static pass only.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct slot {
	int item;
	atomic_t full;
};

static struct slot the_slot;

static void *fill(void *arg)
{
	struct slot *s = &the_slot;

	s->item = *(int *)arg;		// RACE(writer)
	smp_mb__before_atomic();
	atomic_set(&s->full, 1);
	return NULL;
}

static void *drain(void *arg)
{
	struct slot *s = &the_slot;
	int *out = arg;
	long spins = 0;

	while (!atomic_read_acquire(&s->full)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = s->item;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t f, d;
		int v = i + 1;
		int seen = -1;

		the_slot.item = 0;
		atomic_set(&the_slot.full, 0);
		pthread_create(&d, NULL, drain, &seen);
		pthread_create(&f, NULL, fill, &v);
		pthread_join(f, NULL);
		pthread_join(d, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("mp-mb-before-atomic-set: %d iterations, %d stale items, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
