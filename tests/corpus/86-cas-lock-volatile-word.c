/*
 * corpus: cas-lock-volatile-word
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A spinlock taken by a compare-and-swap with acquire on a volatile word and released
 *        by a store-release: the counter is only touched inside it.  The trap: the CAS's
 *        "expected" local, whose address the CAS takes, is the caller's own, not shared.
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
	__atomic_store_n(&l->word, 0, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		cas_lock(&lock);
		hits++;
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
	printf("cas-lock-volatile-word: %d iterations, %d with lost updates\n", iters, lost);
	return 0;
}
