/*
 * corpus: seqlock-once
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The seqlock of b14 with every access to the protected fields marked
 *        (WRITE_ONCE in the writer, READ_ONCE in the reader). There is no plain access to
 *        shared data at all, so there is no data race; the retry loop deals with tearing.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct clockval {
	unsigned int seq;
	long sec;
	long nsec;
};

static struct clockval C;

static void clock_write(struct clockval *c, long s, long ns)
{
	unsigned int q = READ_ONCE(c->seq);

	WRITE_ONCE(c->seq, q + 1);
	smp_wmb();
	WRITE_ONCE(c->sec, s);
	WRITE_ONCE(c->nsec, ns);
	smp_wmb();
	WRITE_ONCE(c->seq, q + 2);
}

static void clock_read(struct clockval *c, long *s, long *ns)
{
	unsigned int q1, q2;

	for (;;) {
		q1 = READ_ONCE(c->seq);
		smp_rmb();
		*s = READ_ONCE(c->sec);
		*ns = READ_ONCE(c->nsec);
		smp_rmb();
		q2 = READ_ONCE(c->seq);
		if (!(q1 & 1) && q1 == q2)
			break;
	}
}

static void *ticker(void *arg)
{
	(void)arg;
	for (long k = 1; k <= 40; k++)
		clock_write(&C, k, k * 1000);
	return NULL;
}

static void *watcher(void *arg)
{
	int *bad = arg;

	for (int n = 0; n < 40; n++) {
		long s, ns;

		clock_read(&C, &s, &ns);
		*bad += ns != s * 1000;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		C = (struct clockval){ 0 };
		BL_RUN2(ticker, NULL, watcher, &bad);
	}
	printf("seqlock-once: %d iterations, %d torn\n", iters, bad);
	return 0;
}
