/*
 * corpus: barrier-one-branch
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The smp_wmb() between the plain store and WRITE_ONCE(flag) sits inside an if, so
 *        it runs only for odd values; on the path that skips it the store is unordered
 *        before the flag and the acquiring reader races.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

static int value;
static int value_ready;

static void *writer(void *arg)
{
	int v = *(int *)arg;

	value = v;		// RACE(writer)
	if (v & 1)
		smp_wmb();
	WRITE_ONCE(value_ready, 1);
	return NULL;
}

static void *reader(void *arg)
{
	int *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&value_ready)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = value;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		int v = i + 1;
		int seen = -1;

		value = 0;
		value_ready = 0;
		pthread_create(&r, NULL, reader, &seen);
		pthread_create(&w, NULL, writer, &v);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("barrier-one-branch: %d iterations, %d stale values, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
