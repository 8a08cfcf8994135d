/*
 * corpus: rmb-inside-poll
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The writer is correct (smp_wmb). The reader puts smp_rmb() at the top of its
 *        poll loop, i.e. before each flag read; after the read that sees the flag set the
 *        loop exits with no barrier, so the data read is unordered after it.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

static int data;
static int flag;

static void *writer(void *arg)
{
	(void)arg;
	data = 5;			// RACE(writer)
	smp_wmb();
	WRITE_ONCE(flag, 1);
	return NULL;
}

static void *reader(void *arg)
{
	int *out = arg;
	long spins = 0;
	int f;

	do {
		smp_rmb();
		f = READ_ONCE(flag);
	} while (!f && bl_keep_waiting(&spins));
	if (f)
		*out = data;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		int out = -1;

		data = 0;
		flag = 0;
		BL_RUN2(writer, NULL, reader, &out);
		bad += out == 0;
	}
	printf("rmb-inside-poll: %d iterations, %d stale\n", iters, bad);
	return 0;
}
