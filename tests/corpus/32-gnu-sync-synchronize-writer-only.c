/*
 * corpus: gnu-sync-synchronize-writer-only
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: __sync_synchronize() only on the writer; the reader loads the flag relaxed and
 *        reads the plain snapshot with no fence, so its read may be satisfied before the
 *        flag read (fences must be paired).
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
	snapshot = *(unsigned long long *)arg;		// RACE(writer)
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
	*out = snapshot;		// RACE(reader)
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
	printf("gnu-sync-synchronize-writer-only: %d iterations, %d stale snapshots, %d timeouts\n",
	       iters, stale, timeouts);
	return 0;
}
