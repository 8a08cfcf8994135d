/*
 * corpus: stop-with-reason
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: yes
 * about: A stop flag carrying data: the controller thread stores the stop reason plainly
 *        and then WRITE_ONCE(stop); the worker, after seeing stop, reads the reason. Only
 *        one thread reads the reason, but it is still an unordered plain write/read pair
 *        between two running threads: a race.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

static int stop;
static int stop_reason;

static void request_stop(int why)
{
	stop_reason = why;		// RACE(writer)
	WRITE_ONCE(stop, 1);
}

static void *controller(void *arg)
{
	(void)arg;
	for (int k = 0; k < 100; k++)
		barrier();
	request_stop(3);
	return NULL;
}

static void *worker(void *arg)
{
	int *why = arg;
	long spins = 0, work = 0;

	while (!READ_ONCE(stop)) {
		work++;
		if (!bl_keep_waiting(&spins))
			return NULL;
	}
	*why = stop_reason;		// RACE(reader)
	(void)work;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		int why = -1;

		stop = 0;
		stop_reason = 0;
		BL_RUN2(controller, NULL, worker, &why);
		bad += why == 0;
	}
	printf("stop-with-reason: %d iterations, %d stale reasons\n", iters, bad);
	return 0;
}
