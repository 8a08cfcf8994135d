/*
 * corpus: index-dep-release
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The writer fills an array slot then publishes the slot index with
 *        smp_store_release(); the reader loads the index with READ_ONCE and uses it to
 *        index the array: an address dependency, which orders the slot read in LKMM.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)
#define NSLOTS 16

static long slots[NSLOTS];
static int newest;	/* index + 1 of the newest valid slot, 0 for none */

static void *fill(void *arg)
{
	int idx = *(int *)arg % NSLOTS;

	slots[idx] = 1000L + idx;
	smp_store_release(&newest, idx + 1);
	return NULL;
}

static void *peek(void *arg)
{
	long *out = arg;
	long spins = 0;
	int n;

	while ((n = READ_ONCE(newest)) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = slots[n - 1] - (n - 1);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t f, p;
		int idx = i;
		long seen = -1;

		slots[i % NSLOTS] = 0;
		newest = 0;
		pthread_create(&p, NULL, peek, &seen);
		pthread_create(&f, NULL, fill, &idx);
		pthread_join(f, NULL);
		pthread_join(p, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != 1000)
			stale++;
	}
	printf("index-dep-release: %d iterations, %d stale slots, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
