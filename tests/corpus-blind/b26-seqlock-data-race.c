/*
 * corpus: seqlock-data-race
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Seqlock whose writer stores the fields with WRITE_ONCE() and whose reader reads
 *        them inside data_race() (the kernel's annotation for an intentional, retried
 *        racy read). The only unmarked accesses are data_race() ones, which by
 *        convention (access-marking.txt, KCSAN) are not data races.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct stats {
	unsigned int seq;
	long pkts;
	long bytes;
};

static struct stats ST;

static void *counter(void *arg)
{
	(void)arg;
	for (long k = 1; k <= 40; k++) {
		unsigned int q = READ_ONCE(ST.seq);

		WRITE_ONCE(ST.seq, q + 1);
		smp_wmb();
		WRITE_ONCE(ST.pkts, k);
		WRITE_ONCE(ST.bytes, k * 64);
		smp_wmb();
		WRITE_ONCE(ST.seq, q + 2);
	}
	return NULL;
}

static void *reporter(void *arg)
{
	int *bad = arg;

	for (int n = 0; n < 40; n++) {
		unsigned int q1, q2;
		long p, b;

		do {
			q1 = READ_ONCE(ST.seq);
			smp_rmb();
			p = data_race(ST.pkts);
			b = data_race(ST.bytes);
			smp_rmb();
			q2 = READ_ONCE(ST.seq);
		} while ((q1 & 1) || q1 != q2);
		*bad += b != p * 64;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		ST = (struct stats){ 0 };
		BL_RUN2(counter, NULL, reporter, &bad);
	}
	printf("seqlock-data-race: %d iterations, %d torn\n", iters, bad);
	return 0;
}
