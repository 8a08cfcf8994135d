/*
 * corpus: rwlock-word-holder-unlock-cas
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 117 whose unlock gives the word back by a full compare-and-swap from
 *        WLOCK to 0 (the fix nginx made): the section is ordered before the word is seen
 *        free, so the counter is only touched by one holder at a time.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 1000
#define WLOCK ((unsigned long)-1)

typedef volatile unsigned long rw_word_t;

static rw_word_t rw;
static long hits;

static void rw_wlock(rw_word_t *lock)
{
	while (!(*lock == 0 && __sync_bool_compare_and_swap(lock, 0, WLOCK)))
		;
}

static void rw_unlock(rw_word_t *lock)
{
	unsigned long readers = *lock;

	if (readers == WLOCK) {
		(void)__sync_bool_compare_and_swap(lock, WLOCK, 0);
		return;
	}
	for (;;) {
		if (__sync_bool_compare_and_swap(lock, readers, readers - 1))
			return;
		readers = *lock;
	}
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		rw_wlock(&rw);
		hits++;
		rw_unlock(&rw);
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
	printf("rwlock-word-holder-unlock-cas: %d iterations, %d with lost updates\n", iters, lost);
	return 0;
}
