/*
 * corpus: mp-once-once
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: yes
 * about: Message passing with WRITE_ONCE(flag) on the writer and READ_ONCE(flag) on the
 *        reader (the LWN article's example): neither side orders the plain access to x
 *        against the flag, so the reader can see flag == 1 and a stale x.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

int x;
int flag;

static void *t1(void *arg)
{
	(void)arg;
	x = 1;			// RACE(writer)
	WRITE_ONCE(flag, 1);
	return NULL;
}

static void *t2(void *arg)
{
	int *out = arg;
	long spins = 0;

	while (!READ_ONCE(flag)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = x;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		int seen = -1;

		x = 0;
		flag = 0;
		pthread_create(&b, NULL, t2, &seen);
		pthread_create(&a, NULL, t1, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (seen == 0)
			stale++;
		else if (seen < 0)
			timeouts++;
	}
	printf("mp-once-once: %d iterations, %d stale reads, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
