/*
 * corpus: lazy-cfg-no-acquire
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: cfg_get() returns &the_cfg once READ_ONCE(cfg_ready) is set. The returned
 *        pointer is a constant, not computed from the flag value, so the caller's
 *        c->width reads carry only a control dependency: not ordered after the flag.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct cfg {
	int width;
	int height;
};

static struct cfg the_cfg;
static int cfg_ready;

static struct cfg *cfg_get(void)
{
	if (!READ_ONCE(cfg_ready))
		return NULL;
	return &the_cfg;
}

static void *initer(void *arg)
{
	(void)arg;
	the_cfg.width = 640;		// RACE(writer)
	the_cfg.height = 480;		// RACE(writer)
	smp_store_release(&cfg_ready, 1);
	return NULL;
}

static void *renderer(void *arg)
{
	long *area = arg;
	struct cfg *c;
	long spins = 0;

	while (!(c = cfg_get()))
		if (!bl_keep_waiting(&spins))
			return NULL;
	*area = (long)c->width * c->height;	// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		long area = 0;

		the_cfg = (struct cfg){ 0 };
		cfg_ready = 0;
		BL_RUN2(initer, NULL, renderer, &area);
		bad += area != 640L * 480;
	}
	printf("lazy-cfg-no-acquire: %d iterations, %d bad\n", iters, bad);
	return 0;
}
