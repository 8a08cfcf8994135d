/*
 * corpus: lock-xchg-relaxed-acquire
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: A test-and-set lock taken with xchg_relaxed() and released correctly with
 *        smp_store_release(). The release side is fine, but a relaxed RMW (plus a control
 *        dependency) does not order the critical section after taking the lock.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)
#define ROUNDS 50

static int tas_lock;
static unsigned int hits[4];

static int take(int *l)
{
	long spins = 0;

	while (xchg_relaxed(l, 1)) {
		if (++spins > SPIN_LIMIT)
			return 0;
		if (!(spins & 127))
			sched_yield();
	}
	return 1;
}

static void *worker(void *arg)
{
	unsigned int slot = *(unsigned int *)arg;
	long done = 0;

	for (int i = 0; i < ROUNDS; i++) {
		unsigned int h;

		if (!take(&tas_lock))
			break;
		h = hits[slot];		// RACE(reader)
		hits[slot] = h + 1;		// RACE(writer)
		smp_store_release(&tas_lock, 0);
		done++;
	}
	return (void *)done;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int lost = 0;
	unsigned int slot = 2;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		void *da, *db;

		tas_lock = 0;
		hits[slot] = 0;
		pthread_create(&a, NULL, worker, &slot);
		pthread_create(&b, NULL, worker, &slot);
		pthread_join(a, &da);
		pthread_join(b, &db);
		if (hits[slot] != (unsigned int)((long)da + (long)db))
			lost++;
	}
	printf("lock-xchg-relaxed-acquire: %d iterations, %d with lost hits\n", iters, lost);
	return 0;
}
