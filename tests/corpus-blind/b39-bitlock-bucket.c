/*
 * corpus: bitlock-bucket
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Bit 3 of a flags word is a bit lock (test_and_set_bit_lock / clear_bit_unlock)
 *        protecting a bucket's counters; bit 5 of the same word is set with the
 *        unordered set_bit() as a "dirty" hint that nobody pairs with data.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

#define LOCK_BIT 3
#define DIRTY_BIT 5

struct bucket {
	unsigned long flags[1];
	int nr_items;
	long weight;
};

static struct bucket BK;

static void bucket_add(struct bucket *b, long w)
{
	while (test_and_set_bit_lock(LOCK_BIT, b->flags))
		cpu_relax();
	b->nr_items++;
	b->weight += w;
	clear_bit_unlock(LOCK_BIT, b->flags);
	set_bit(DIRTY_BIT, b->flags);
}

static void *adder(void *arg)
{
	long w = *(long *)arg;

	for (int k = 0; k < 50; k++)
		bucket_add(&BK, w);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;
	long w1 = 1, w2 = 2;

	for (int i = 0; i < iters; i++) {
		BK = (struct bucket){ { 0 }, 0, 0 };
		BL_RUN2(adder, &w1, adder, &w2);
		bad += BK.nr_items != 100 || BK.weight != 150;
	}
	printf("bitlock-bucket: %d iterations, %d bad\n", iters, bad);
	return 0;
}
