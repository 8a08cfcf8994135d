/*
 * corpus: fifo-helpers-relacq
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: SPSC fifo whose push (release of tail) and availability check (acquire of tail)
 *        live as static inline helpers in a local header; the consumer reads the record
 *        after the acquiring check. Ordered on both sides.
 */
#include "bl.h"
#include "bl_fifo.h"

static struct bf_fifo F;

static void *prod(void *arg)
{
	(void)arg;
	for (unsigned int t = 0; t < 5; t++)
		bf_push(&F, t, (int)t + 1, (int)t * 4);
	return NULL;
}

static void *cons(void *arg)
{
	int *bad = arg;
	unsigned int head = 0;
	long spins = 0;

	while (head < 5) {
		struct bf_rec r;

		if (!bf_avail(&F, head)) {
			if (!bl_keep_waiting(&spins))
				return NULL;
			continue;
		}
		r = F.rec[head % BF_SZ];
		*bad += r.len != (r.id - 1) * 4;
		head++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		F = (struct bf_fifo){ 0 };
		BL_RUN2(prod, NULL, cons, &bad);
	}
	printf("fifo-helpers-relacq: %d iterations, %d bad\n", iters, bad);
	return 0;
}
