/*
 * corpus: mp-xchg-relaxed-publish
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: Same as the xchg() publication but with xchg_relaxed(): a relaxed RMW gives no
 *        ordering, so the plain buffer write may be seen after the flag by an acquiring
 *        reader.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

int buffer[4];
int pending;

static void *post(void *arg)
{
	int old;

	buffer[0] = *(int *)arg;		// RACE(writer)
	old = xchg_relaxed(&pending, 1);
	return (void *)(long)old;
}

static void *consume(void *arg)
{
	int *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&pending)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = buffer[0];		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0, doubles = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, c;
		int v = i + 11;
		int seen = -1;
		void *old;

		buffer[0] = 0;
		pending = 0;
		pthread_create(&c, NULL, consume, &seen);
		pthread_create(&p, NULL, post, &v);
		pthread_join(p, &old);
		pthread_join(c, NULL);
		if (old != NULL)
			doubles++;
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("mp-xchg-relaxed-publish: %d iterations, %d stale, %d timeouts, %d double posts\n",
	       iters, stale, timeouts, doubles);
	return 0;
}
