/*
 * corpus: mp-wmb-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Mixed pairing: the writer orders its plain store before WRITE_ONCE(flag) with
 *        smp_wmb(), the reader reads the flag with smp_load_acquire(). Any write-ordering
 *        barrier pairs with any read-ordering one, so this is correct.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct timer {
	unsigned long expires;
	int armed;
};

static struct timer tmr;

static void arm_timer(struct timer *t, unsigned long when)
{
	t->expires = when;
	smp_wmb();
	WRITE_ONCE(t->armed, 1);
}

static void *armer(void *arg)
{
	arm_timer(&tmr, *(unsigned long *)arg);
	return NULL;
}

static void *ticker(void *arg)
{
	struct timer *t = &tmr;
	unsigned long *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&t->armed)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = t->expires;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, t;
		unsigned long when = 1000UL + (unsigned long)i;
		unsigned long seen = 0;

		tmr.expires = 0;
		tmr.armed = 0;
		pthread_create(&t, NULL, ticker, &seen);
		pthread_create(&a, NULL, armer, &when);
		pthread_join(a, NULL);
		pthread_join(t, NULL);
		if (seen == 0)
			timeouts++;
		else if (seen != when)
			stale++;
	}
	printf("mp-wmb-acquire: %d iterations, %d stale expiry times, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
