/*
 * corpus: gnu-cas-lock
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The seeds' atomic-builtin lock with the right orders:
 *        __atomic_compare_exchange_n(..., __ATOMIC_ACQUIRE, __ATOMIC_RELAXED) to lock and
 *        __atomic_store_n(..., __ATOMIC_RELEASE) to unlock, around a plain counter.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)
#define ROUNDS 50

static long lock_word;
static long test_var;

static void *worker(void *arg)
{
	long done = 0;

	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		long spins = 0;
		long expected = 0;

		while (!__atomic_compare_exchange_n(&lock_word, &expected, 1, 0,
						    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			expected = 0;
			if (++spins > SPIN_LIMIT)
				return (void *)done;
			if (!(spins & 127))
				sched_yield();
		}
		test_var++;
		__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
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

		lock_word = 0;
		test_var = 0;
		pthread_create(&a, NULL, worker, NULL);
		pthread_create(&b, NULL, worker, NULL);
		pthread_join(a, &da);
		pthread_join(b, &db);
		if (test_var != (long)da + (long)db)
			lost++;
	}
	printf("gnu-cas-lock: %d iterations, %d with lost increments\n", iters, lost);
	return 0;
}
