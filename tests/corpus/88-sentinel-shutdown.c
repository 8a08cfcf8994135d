/*
 * corpus: sentinel-shutdown
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A server parks until its state changes and reads the payload only for a work item
 *        (state > 0); the only writer tears the payload down and stores -1 (shut down). No
 *        reader goes on to the payload on -1, so nothing is published and nothing races.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

int state;	/* 0: parked, > 0: a work item, -1: shut down */
int payload;

static void *shut_down(void *arg)
{
	(void)arg;
	payload = 0;
	WRITE_ONCE(state, -1);
	return NULL;
}

static void *serve(void *arg)
{
	int *out = arg;
	long spins = 0;
	int v;

	while ((v = READ_ONCE(state)) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	if (v > 0)
		*out = payload;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int served = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		int seen = -1;

		payload = 42;
		state = 0;
		pthread_create(&b, NULL, serve, &seen);
		pthread_create(&a, NULL, shut_down, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (seen != -1)
			served++;
	}
	printf("sentinel-shutdown: %d iterations, %d served a payload\n", iters, served);
	return 0;
}
