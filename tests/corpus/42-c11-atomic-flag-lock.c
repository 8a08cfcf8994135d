/*
 * corpus: c11-atomic-flag-lock
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A C11 atomic_flag spinlock: atomic_flag_test_and_set_explicit(acquire) and
 *        atomic_flag_clear_explicit(release) around plain updates of a shared histogram.
 *        Each unlock synchronizes with the next lock: no data race.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)
#define ROUNDS 50

struct histogram {
	atomic_flag lock;
	unsigned int bins[8];
	unsigned int total;
};

static struct histogram hist = { .lock = ATOMIC_FLAG_INIT };

static int hist_add(struct histogram *h, unsigned int value)
{
	long spins = 0;

	while (atomic_flag_test_and_set_explicit(&h->lock, memory_order_acquire)) {
		if (++spins > SPIN_LIMIT)
			return 0;
		if (!(spins & 127))
			sched_yield();
	}
	h->bins[value % 8]++;
	h->total++;
	atomic_flag_clear_explicit(&h->lock, memory_order_release);
	return 1;
}

static void *sampler(void *arg)
{
	unsigned int seed = *(unsigned int *)arg;
	long done = 0;

	for (int i = 0; i < ROUNDS; i++)
		done += hist_add(&hist, seed + (unsigned int)i);
	return (void *)done;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int lost = 0;
	unsigned int sa = 1, sb = 5;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		void *da, *db;
		unsigned int sum = 0;

		for (int j = 0; j < 8; j++)
			hist.bins[j] = 0;
		hist.total = 0;
		pthread_create(&a, NULL, sampler, &sa);
		pthread_create(&b, NULL, sampler, &sb);
		pthread_join(a, &da);
		pthread_join(b, &db);
		for (int j = 0; j < 8; j++)
			sum += hist.bins[j];
		if (sum != hist.total || hist.total != (unsigned int)((long)da + (long)db))
			lost++;
	}
	printf("c11-atomic-flag-lock: %d iterations, %d inconsistent histograms\n", iters, lost);
	return 0;
}
