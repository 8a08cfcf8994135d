/*
 * corpus: sentinel-shutdown-stats
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: yes
 * about: The twin of 88 where the worker reads the shutdown's statistics once it has seen
 *        the stop value (-1): the sentinel does publish them to it, and neither the relaxed
 *        store nor the relaxed load orders them.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

int state;	/* 0: running, -1: shut down */
int stats;

static void *shut_down(void *arg)
{
	(void)arg;
	stats = 7;		// RACE(writer)
	WRITE_ONCE(state, -1);
	return NULL;
}

static void *work(void *arg)
{
	int *out = arg;
	long spins = 0;

	while (READ_ONCE(state) >= 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = stats;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		int seen = -1;

		stats = 0;
		state = 0;
		pthread_create(&b, NULL, work, &seen);
		pthread_create(&a, NULL, shut_down, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (seen == 0)
			stale++;
	}
	printf("sentinel-shutdown-stats: %d iterations, %d stale statistics\n", iters, stale);
	return 0;
}
