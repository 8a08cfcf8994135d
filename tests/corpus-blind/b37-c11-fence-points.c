/*
 * corpus: c11-fence-points
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: An array of point structs filled, then atomic_thread_fence(release) and a
 *        relaxed store of the count; the reader polls the count relaxed and issues
 *        atomic_thread_fence(acquire) before reading. Fence-fence synchronisation.
 */
#include "bl.h"
#include <stdatomic.h>

typedef struct {
	int x, y;
} pt_t;

static pt_t pts[4];
static atomic_int npts;

static void *plotter(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++) {
		pts[i].x = i;
		pts[i].y = i * i;
	}
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&npts, 4, memory_order_relaxed);
	return NULL;
}

static void *viewer(void *arg)
{
	int *bad = arg;
	long spins = 0;
	int n;

	while ((n = atomic_load_explicit(&npts, memory_order_relaxed)) == 0)
		if (!bl_keep_waiting(&spins))
			return NULL;
	atomic_thread_fence(memory_order_acquire);
	for (int i = 0; i < n; i++)
		*bad += pts[i].y != pts[i].x * pts[i].x || pts[i].x != i;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		for (int k = 0; k < 4; k++)
			pts[k] = (pt_t){ -1, -1 };
		atomic_store_explicit(&npts, 0, memory_order_relaxed);
		BL_RUN2(plotter, NULL, viewer, &bad);
	}
	printf("c11-fence-points: %d iterations, %d bad\n", iters, bad);
	return 0;
}
