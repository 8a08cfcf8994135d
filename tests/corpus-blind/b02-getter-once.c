/*
 * corpus: getter-once
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The writer releases dev->ready correctly, but the reader polls it through a
 *        static inline getter that uses READ_ONCE(); the later plain config reads are
 *        only control-dependent on it, which does not order reads.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct dev {
	int cfg_a;
	int cfg_b;
	int ready;
};

static struct dev devs[2];

static inline int dev_is_ready(const struct dev *d)
{
	return READ_ONCE(d->ready);
}

static void *probe(void *arg)
{
	struct dev *d = arg;

	d->cfg_a = 10;		// RACE(writer)
	d->cfg_b = 20;		// RACE(writer)
	smp_store_release(&d->ready, 1);
	return NULL;
}

static void *user(void *arg)
{
	struct dev *d = arg;
	long spins = 0;
	int sum;

	while (!dev_is_ready(d))
		if (!bl_keep_waiting(&spins))
			return NULL;
	sum = d->cfg_a;		// RACE(reader)
	sum += d->cfg_b;	// RACE(reader)
	if (sum != 30)
		fprintf(stderr, "stale config %d\n", sum);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		struct dev *d = &devs[i & 1];

		*d = (struct dev){ 0 };
		BL_RUN2(probe, d, user, d);
	}
	printf("getter-once: %d iterations\n", iters);
	return 0;
}
