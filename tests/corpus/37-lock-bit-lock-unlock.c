/*
 * corpus: lock-bit-lock-unlock
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A bit spinlock: test_and_set_bit_lock() (acquire) and clear_bit_unlock()
 *        (release) around a linked-list-like update of plain fields. Properly ordered
 *        lock and unlock: no data race.
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
	int last_key;
};

static struct bucket bkt;

static int bucket_insert(struct bucket *b, int key)
{
	long spins = 0;
	int n;

	while (test_and_set_bit_lock(BUCKET_LOCKED, &b->bits)) {
		if (++spins > SPIN_LIMIT)
			return 0;
		if (!(spins & 127))
			sched_yield();
	}
	n = b->nr_entries;
	b->nr_entries = n + 1;
	b->last_key = key;
	clear_bit_unlock(BUCKET_LOCKED, &b->bits);
	return 1;
}

static void *inserter(void *arg)
{
	int base = *(int *)arg;
	long done = 0;

	for (int i = 0; i < ROUNDS; i++)
		done += bucket_insert(&bkt, base + i);
	return (void *)done;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int lost = 0;
	int base_a = 0, base_b = 1000;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		void *da, *db;

		bkt.bits = 0;
		bkt.nr_entries = 0;
		pthread_create(&a, NULL, inserter, &base_a);
		pthread_create(&b, NULL, inserter, &base_b);
		pthread_join(a, &da);
		pthread_join(b, &db);
		if (bkt.nr_entries != (int)((long)da + (long)db))
			lost++;
	}
	printf("lock-bit-lock-unlock: %d iterations, %d with a wrong entry count (last key %d)\n",
	       iters, lost, bkt.last_key);
	return 0;
}
