/*
 * corpus: gnu-sync-lock
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A spinlock made of __sync_lock_test_and_set() (an acquire barrier) and
 *        __sync_lock_release() (a release barrier) protects a plain counter incremented by
 *        two threads: each critical section is ordered after the previous one.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)
#define ROUNDS 50

struct counter {
	int lock;
	long value;
	int skipped;
};

static struct counter ctr;

static void *worker(void *arg)
{
	struct counter *c = arg;
	int skipped = 0;

	for (int i = 0; i < ROUNDS; i++) {
		long spins = 0;
		long v;

		while (__sync_lock_test_and_set(&c->lock, 1)) {
			if (++spins > SPIN_LIMIT)
				break;
			if (!(spins & 127))
				sched_yield();
		}
		if (spins > SPIN_LIMIT) {
			skipped++;
			continue;
		}
		v = c->value;
		c->value = v + 1;
		__sync_lock_release(&c->lock);
	}
	return (void *)(long)skipped;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int lost = 0, skipped = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		void *ra, *rb;

		ctr.lock = 0;
		ctr.value = 0;
		pthread_create(&a, NULL, worker, &ctr);
		pthread_create(&b, NULL, worker, &ctr);
		pthread_join(a, &ra);
		pthread_join(b, &rb);
		skipped += (int)(long)ra + (int)(long)rb;
		if (ctr.value != 2 * ROUNDS - (long)ra - (long)rb)
			lost++;
	}
	printf("gnu-sync-lock: %d iterations, %d with lost updates, %d lock timeouts\n", iters, lost, skipped);
	return 0;
}
