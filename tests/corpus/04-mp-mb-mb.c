/*
 * corpus: mp-mb-mb
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Message passing with full barriers: data write, smp_mb(), WRITE_ONCE(flag) on
 *        the writer; READ_ONCE(flag), smp_mb(), data read on the reader. A full barrier
 *        orders everything, so the plain accesses cannot race.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct shared {
	unsigned int seq;
	unsigned int value;
	int go;
};

static struct shared sh;

static void *t_write(void *arg)
{
	struct shared *s = arg;

	s->value = s->seq * 3;
	smp_mb();
	WRITE_ONCE(s->go, 1);
	return NULL;
}

static void *t_read(void *arg)
{
	struct shared *s = arg;
	long spins = 0;
	unsigned int v;

	while (!READ_ONCE(s->go)) {
		if (++spins > SPIN_LIMIT)
			return (void *)0;
		if (!(spins & 127))
			sched_yield();
	}
	smp_mb();
	v = s->value;
	return (void *)(unsigned long)(v == s->seq * 3 ? 1 : 2);
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		void *res;

		sh.seq = (unsigned int)i + 1;
		sh.value = 0;
		sh.go = 0;
		pthread_create(&w, NULL, t_write, &sh);
		pthread_create(&r, NULL, t_read, &sh);
		pthread_join(w, NULL);
		pthread_join(r, &res);
		if (res == (void *)0)
			timeouts++;
		else if (res == (void *)2)
			bad++;
	}
	printf("mp-mb-mb: %d iterations, %d bad values, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
