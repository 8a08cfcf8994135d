/*
 * corpus: stop-private-count
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Stop-flag pattern: a controller sets WRITE_ONCE(stop); the worker spins on
 *        READ_ONCE(stop) counting in a local, then stores the count into its own arg
 *        struct, which main reads after pthread_join. The flag carries no data.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct wstate {
	long count;
	int cap;
};

static int stop;

static void *controller(void *arg)
{
	(void)arg;
	for (int k = 0; k < 200; k++)
		barrier();
	WRITE_ONCE(stop, 1);
	return NULL;
}

static void *spinner(void *arg)
{
	struct wstate *w = arg;
	long local = 0;

	while (!READ_ONCE(stop) && local < w->cap)
		local++;
	w->count = local;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);
	long total = 0;

	for (int i = 0; i < iters; i++) {
		struct wstate w = { .count = 0, .cap = 1 << 20 };

		stop = 0;
		BL_RUN2(controller, NULL, spinner, &w);
		total += w.count;
	}
	printf("stop-private-count: %d iterations, %ld spins\n", iters, total);
	return 0;
}
