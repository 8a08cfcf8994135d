/*
 * corpus: cmpxchg-lock-hist
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A tiny spinlock in static inline helpers (cmpxchg_acquire() to take,
 *        smp_store_release() to drop) protecting a histogram struct; every access to the
 *        histogram is inside the lock.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct hist {
	int lock;
	int bins[4];
	int total;
};

static struct hist H;

static inline void hist_lock(struct hist *h)
{
	while (cmpxchg_acquire(&h->lock, 0, 1) != 0)
		cpu_relax();
}

static inline void hist_unlock(struct hist *h)
{
	smp_store_release(&h->lock, 0);
}

static void *record(void *arg)
{
	int base = *(int *)arg;

	for (int k = 0; k < 50; k++) {
		hist_lock(&H);
		H.bins[(base + k) & 3]++;
		H.total++;
		hist_unlock(&H);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;
	int b0 = 0, b1 = 1;

	for (int i = 0; i < iters; i++) {
		H = (struct hist){ 0 };
		BL_RUN2(record, &b0, record, &b1);
		bad += H.total != 100 || H.bins[0] + H.bins[1] + H.bins[2] + H.bins[3] != 100;
	}
	printf("cmpxchg-lock-hist: %d iterations, %d bad\n", iters, bad);
	return 0;
}
