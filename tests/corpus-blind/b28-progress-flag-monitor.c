/*
 * corpus: progress-flag-monitor
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A worker fills results[] plainly and advertises progress with WRITE_ONCE(); a
 *        monitor thread reads only the progress counter, never results[]. main reads
 *        results[] after joining the worker. The flag pattern has no data reader.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

#define NR 8

static int results[NR];
static int progress;

static void *crunch(void *arg)
{
	(void)arg;
	for (int i = 0; i < NR; i++) {
		results[i] = i * 7;
		WRITE_ONCE(progress, i + 1);
	}
	return NULL;
}

static void *monitor(void *arg)
{
	int *seen = arg;
	long spins = 0;

	while (READ_ONCE(progress) < NR)
		if (!bl_keep_waiting(&spins))
			break;
	*seen = READ_ONCE(progress);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		int seen = 0;

		for (int k = 0; k < NR; k++)
			results[k] = 0;
		progress = 0;
		BL_RUN2(crunch, NULL, monitor, &seen);
		for (int k = 0; k < NR; k++)
			bad += results[k] != k * 7;
	}
	printf("progress-flag-monitor: %d iterations, %d bad\n", iters, bad);
	return 0;
}
