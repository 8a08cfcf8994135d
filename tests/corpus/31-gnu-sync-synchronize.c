/*
 * corpus: gnu-sync-synchronize
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: __sync_synchronize() (a full fence, like smp_mb) on both sides of a relaxed
 *        __atomic flag: the plain counter snapshot is ordered before the flag on the writer
 *        and after it on the reader.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

static unsigned long long snapshot;
static int snapshot_valid;

static void *take_snapshot(void *arg)
{
	snapshot = *(unsigned long long *)arg;
	__sync_synchronize();
	__atomic_store_n(&snapshot_valid, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *use_snapshot(void *arg)
{
	unsigned long long *out = arg;
	long spins = 0;

	while (!__atomic_load_n(&snapshot_valid, __ATOMIC_RELAXED)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	__sync_synchronize();
	*out = snapshot;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t t, u;
		unsigned long long v = 1ULL << 40 | (unsigned long long)i;
		unsigned long long seen = 0;

		snapshot = 0;
		snapshot_valid = 0;
		pthread_create(&u, NULL, use_snapshot, &seen);
		pthread_create(&t, NULL, take_snapshot, &v);
		pthread_join(t, NULL);
		pthread_join(u, NULL);
		if (seen == 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("gnu-sync-synchronize: %d iterations, %d stale snapshots, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
