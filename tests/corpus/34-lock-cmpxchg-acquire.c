/*
 * corpus: lock-cmpxchg-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A hand-rolled spinlock: cmpxchg_acquire(&lock, 0, 1) to take it and
 *        smp_store_release(&lock, 0) to drop it (the seeds' "with_memorder" case). The
 *        plain counter is only touched inside the critical section: no data race.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)
#define ROUNDS 50

struct locked_counter {
	long lock;
	long count;
};

static struct locked_counter lc;

static void *worker(void *arg)
{
	struct locked_counter *c = arg;
	long done = 0;

	for (int i = 0; i < ROUNDS; i++) {
		long spins = 0;
		long tmp;

		while (cmpxchg_acquire(&c->lock, 0, 1) != 0) {
			if (++spins > SPIN_LIMIT)
				return (void *)done;
			if (!(spins & 127))
				sched_yield();
		}
		tmp = c->count;
		c->count = tmp + 1;
		smp_store_release(&c->lock, 0);
		done++;
	}
	return (void *)done;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int lost = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		void *da, *db;

		lc.lock = 0;
		lc.count = 0;
		pthread_create(&a, NULL, worker, &lc);
		pthread_create(&b, NULL, worker, &lc);
		pthread_join(a, &da);
		pthread_join(b, &db);
		if (lc.count != (long)da + (long)db)
			lost++;
	}
	printf("lock-cmpxchg-acquire: %d iterations, %d with lost increments\n", iters, lost);
	return 0;
}
