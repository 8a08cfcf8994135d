/*
 * corpus: lock-test-and-set-bit-clear-bit
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: A bit lock taken with test_and_set_bit() (value-returning, fully ordered: fine)
 *        but dropped with clear_bit(), an unordered atomic: the unlock lacks release, so the
 *        counter update may become visible after the lock bit is cleared.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)
#define ROUNDS 50
#define BUCKET_LOCKED 0

struct bucket {
	unsigned long bits;
	int nr_entries;
};

static struct bucket bkt;

static int bucket_insert(struct bucket *b)
{
	long spins = 0;
	int n;

	while (test_and_set_bit(BUCKET_LOCKED, &b->bits)) {
		if (++spins > SPIN_LIMIT)
			return 0;
		if (!(spins & 127))
			sched_yield();
	}
	n = b->nr_entries;		// RACE(reader)
	b->nr_entries = n + 1;		// RACE(writer)
	clear_bit(BUCKET_LOCKED, &b->bits);
	return 1;
}

static void *inserter(void *arg)
{
	long done = 0;

	(void)arg;
	for (int i = 0; i < ROUNDS; i++)
		done += bucket_insert(&bkt);
	return (void *)done;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int lost = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		void *da, *db;

		bkt.bits = 0;
		bkt.nr_entries = 0;
		pthread_create(&a, NULL, inserter, NULL);
		pthread_create(&b, NULL, inserter, NULL);
		pthread_join(a, &da);
		pthread_join(b, &db);
		if (bkt.nr_entries != (int)((long)da + (long)db))
			lost++;
	}
	printf("lock-test-and-set-bit-clear-bit: %d iterations, %d with lost entries\n", iters, lost);
	return 0;
}
