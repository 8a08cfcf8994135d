/*
 * corpus: sync-fetch-add-publish
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: __sync_fetch_and_add() is a full barrier (GCC manual); the writer publishes with
 *        it and the reader polls with __sync_fetch_and_add(&ready, 0), also full. Both
 *        sides are ordered.
 */
#include "bl.h"

struct reading {
	double value;
	int unit;
};

static struct reading rd;
static int ready;

static void *meter(void *arg)
{
	(void)arg;
	rd.value = 3.5;
	rd.unit = 2;
	__sync_fetch_and_add(&ready, 1);
	return NULL;
}

static void *logger(void *arg)
{
	int *bad = arg;
	long spins = 0;

	while (__sync_fetch_and_add(&ready, 0) == 0)
		if (!bl_keep_waiting(&spins))
			return NULL;
	*bad += rd.unit != 2 || rd.value != 3.5;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		rd = (struct reading){ 0 };
		ready = 0;
		BL_RUN2(meter, NULL, logger, &bad);
	}
	printf("sync-fetch-add-publish: %d iterations, %d bad\n", iters, bad);
	return 0;
}
