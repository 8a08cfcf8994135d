/*
 * corpus: seqlock-plain-reads
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: no
 * about: A hand-rolled seqlock with all the right barriers, but the reader reads the
 *        protected fields plainly while the writer writes them plainly. The retry throws
 *        the torn value away, yet the accesses themselves are concurrent and unordered:
 *        an LKMM data race (the kernel marks such reads, or uses data_race()).
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct snap {
	unsigned int seq;
	int lo;
	int hi;
};

static struct snap S;

static void *updater(void *arg)
{
	(void)arg;
	for (int k = 1; k <= 50; k++) {
		unsigned int s = READ_ONCE(S.seq);

		WRITE_ONCE(S.seq, s + 1);
		smp_wmb();
		S.lo = k;		// RACE(writer)
		S.hi = -k;		// RACE(writer)
		smp_wmb();
		WRITE_ONCE(S.seq, s + 2);
	}
	return NULL;
}

static void *sampler(void *arg)
{
	int *bad = arg;

	for (int n = 0; n < 50; n++) {
		unsigned int s1, s2;
		int lo, hi;

		do {
			s1 = READ_ONCE(S.seq);
			smp_rmb();
			lo = S.lo;	// RACE(reader)
			hi = S.hi;	// RACE(reader)
			smp_rmb();
			s2 = READ_ONCE(S.seq);
		} while ((s1 & 1) || s1 != s2);
		*bad += lo != -hi;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		S = (struct snap){ 0 };
		BL_RUN2(updater, NULL, sampler, &bad);
	}
	printf("seqlock-plain-reads: %d iterations, %d torn\n", iters, bad);
	return 0;
}
