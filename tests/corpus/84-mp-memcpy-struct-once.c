/*
 * corpus: mp-memcpy-struct-once
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The writer fills a struct and publishes it with smp_store_release(); the reader
 *        waits with READ_ONCE() and copies the whole struct out with memcpy(), which reads
 *        every field: with no acquire the copy can see stale fields.
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
	cfg.rate = 10;		// RACE(writer)
	cfg.burst = 20;		// RACE(writer)
	smp_store_release(&ready, 1);
	return NULL;
}

static void *reader(void *arg)
{
	struct config *out = arg;
	long spins = 0;

	while (!READ_ONCE(ready)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	memcpy(out, &cfg, sizeof *out);	// RACE(reader)
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
	printf("mp-memcpy-struct-once: %d iterations, %d stale copies\n", iters, stale);
	return 0;
}
