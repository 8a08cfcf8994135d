/*
 * corpus: fence-helpers
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: smp_wmb()/smp_rmb() hidden in static inline helpers of a local header
 *        (publish_fence/consume_fence); the writer calls publish_fence() between the
 *        frame fields and WRITE_ONCE(seq), the reader consume_fence() after READ_ONCE(seq).
 */
#include "bl.h"
#include "bl_fence.h"

struct frame {
	short w, h;
	int crc;
};

static struct frame fr;
static int frame_seq;

static void *camera(void *arg)
{
	(void)arg;
	fr.w = 320;
	fr.h = 200;
	fr.crc = 320 ^ 200;
	publish_fence();
	WRITE_ONCE(frame_seq, 1);
	return NULL;
}

static void *encoder(void *arg)
{
	int *bad = arg;
	long spins = 0;

	while (READ_ONCE(frame_seq) == 0)
		if (!bl_keep_waiting(&spins))
			return NULL;
	consume_fence();
	*bad += fr.crc != (fr.w ^ fr.h);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		fr = (struct frame){ 0, 0, 1 };
		frame_seq = 0;
		BL_RUN2(camera, NULL, encoder, &bad);
	}
	printf("fence-helpers: %d iterations, %d bad\n", iters, bad);
	return 0;
}
