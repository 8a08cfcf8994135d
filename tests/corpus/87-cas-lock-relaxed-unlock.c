/*
 * corpus: cas-lock-relaxed-unlock
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: no
 * about: The twin of 86 whose unlock is a relaxed store: the counter's update inside the
 *        lock may become visible after the word is seen free, so the next holder's update
 *        races with it (LKMM: the unlock needs release ordering).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 1000

struct cas_spin {
	volatile int word;
};

static struct cas_spin lock;
static long hits;

static void cas_lock(struct cas_spin *l)
{
	int expected;

	do {
		expected = 0;
	} while (!__atomic_compare_exchange_n(&l->word, &expected, 1, 0, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
}

static void cas_unlock(struct cas_spin *l)
{
	__atomic_store_n(&l->word, 0, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		cas_lock(&lock);
		hits++;		// RACE(writer) // RACE(reader)
		cas_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200;
	int lost = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;

		hits = 0;
		pthread_create(&a, NULL, worker, NULL);
		pthread_create(&b, NULL, worker, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (hits != 2 * ROUNDS)
			lost++;
	}
	printf("cas-lock-relaxed-unlock: %d iterations, %d with lost updates\n", iters, lost);
	return 0;
}
