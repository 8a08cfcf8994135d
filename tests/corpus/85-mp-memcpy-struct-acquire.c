/*
 * corpus: mp-memcpy-struct-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 84: the reader waits with smp_load_acquire(), so the memcpy() of the
 *        struct, which reads every field, is ordered after the writer's release.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct config {
	int rate;
	int burst;
};

struct config cfg;
int ready;

static void *writer(void *arg)
{
	(void)arg;
	cfg.rate = 10;	
	cfg.burst = 20;	
	smp_store_release(&ready, 1);
	return NULL;
}

static void *reader(void *arg)
{
	struct config *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&ready)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	memcpy(out, &cfg, sizeof *out);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		struct config seen = { -1, -1 };

		cfg.rate = 0;
		cfg.burst = 0;
		ready = 0;
		pthread_create(&b, NULL, reader, &seen);
		pthread_create(&a, NULL, writer, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (seen.rate == 0 || seen.burst == 0)
			stale++;
	}
	printf("mp-memcpy-struct-acquire: %d iterations, %d stale copies\n", iters, stale);
	return 0;
}
