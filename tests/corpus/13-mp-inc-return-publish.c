/*
 * corpus: mp-inc-return-publish
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A generation counter bumped with atomic_inc_return(), a value-returning and
 *        therefore fully ordered RMW, publishes the plain statistics; the reader polls
 *        with atomic_read() and then smp_rmb() before reading them.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct stats {
	unsigned long rx;
	unsigned long tx;
	atomic_t gen;
	int last_gen;
};

static struct stats st;

static void *update_stats(void *arg)
{
	struct stats *s = arg;

	s->rx = 100;
	s->tx = 200;
	s->last_gen = atomic_inc_return(&s->gen);
	return NULL;
}

static void *read_stats(void *arg)
{
	struct stats *s = arg;
	long spins = 0;
	unsigned long rx, tx;

	while (atomic_read(&s->gen) == 0) {
		if (++spins > SPIN_LIMIT)
			return (void *)0;
		if (!(spins & 127))
			sched_yield();
	}
	smp_rmb();
	rx = s->rx;
	tx = s->tx;
	return (void *)(unsigned long)(rx + tx == 300 ? 1 : 2);
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0, gens = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t u, r;
		void *res;

		st.rx = 0;
		st.tx = 0;
		st.last_gen = 0;
		atomic_set(&st.gen, 0);
		pthread_create(&r, NULL, read_stats, &st);
		pthread_create(&u, NULL, update_stats, &st);
		pthread_join(u, NULL);
		pthread_join(r, &res);
		gens += st.last_gen;
		if (res == (void *)0)
			timeouts++;
		else if (res == (void *)2)
			bad++;
	}
	printf("mp-inc-return-publish: %d iterations (%d generations), %d torn stats, %d timeouts\n",
	       iters, gens, bad, timeouts);
	return 0;
}
