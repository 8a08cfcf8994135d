/*
 * corpus: mp-struct-assign-once
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: A configuration struct filled field by field and published with smp_store_release();
 *        the reader tests the flag with READ_ONCE() and copies the whole struct out with an
 *        assignment (copy = shared), which reads every field, plainly, with nothing
 *        ordering those reads after the flag's (issue 12, shape 6: objects as real code has
 *        them).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct config {
	long rate;
	long burst;
};

static struct config shared;
static int ready;

static void *writer(void *arg)
{
	long v = (long)arg;

	shared.rate = v;        // RACE(writer)
	shared.burst = 2 * v;   // RACE(writer)
	smp_store_release(&ready, 1);
	return NULL;
}

static void *reader(void *arg)
{
	struct config copy = { 0, 0 };
	long spins = 0;

	while (!READ_ONCE(ready) && spins++ < SPIN_LIMIT)
		if (spins % 128 == 127)
			sched_yield();
	if (READ_ONCE(ready))
		copy = shared;          // RACE(reader)
	(void)arg;
	return (void *)(long)(copy.burst != 2 * copy.rate);
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long torn = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		void *res;

		shared.rate = shared.burst = 0;
		ready = 0;
		pthread_create(&r, NULL, reader, NULL);
		pthread_create(&w, NULL, writer, (void *)(long)(i + 1));
		pthread_join(w, NULL);
		pthread_join(r, &res);
		torn += (long)res;
	}
	printf("mp-struct-assign-once: %d iterations, %ld torn copies\n", iters, torn);
	return 0;
}
