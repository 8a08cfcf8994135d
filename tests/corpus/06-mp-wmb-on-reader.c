/*
 * corpus: mp-wmb-on-reader
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The writer is correct (data, smp_wmb(), WRITE_ONCE(flag)) but the reader uses the
 *        wrong barrier kind: smp_wmb() after READ_ONCE(flag) orders only writes, so the
 *        plain read of the data may be satisfied before the flag read.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct cfg {
	int width;
	int published;
};

static struct cfg the_cfg;

static void *update(void *arg)
{
	struct cfg *c = &the_cfg;

	c->width = *(int *)arg;		// RACE(writer)
	smp_wmb();
	WRITE_ONCE(c->published, 1);
	return NULL;
}

static void *use(void *arg)
{
	struct cfg *c = &the_cfg;
	int *out = arg;
	long spins = 0;

	while (!READ_ONCE(c->published)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	smp_wmb();
	*out = c->width;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t u, w;
		int v = 80 + i;
		int seen = -1;

		the_cfg.width = 0;
		the_cfg.published = 0;
		pthread_create(&u, NULL, use, &seen);
		pthread_create(&w, NULL, update, &v);
		pthread_join(w, NULL);
		pthread_join(u, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("mp-wmb-on-reader: %d iterations, %d stale widths, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
