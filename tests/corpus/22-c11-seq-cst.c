/*
 * corpus: c11-seq-cst
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: C11 message passing with the default (seq_cst) atomic_store()/atomic_load() on an
 *        atomic_bool: seq_cst operations are release stores and acquire loads too, so the
 *        plain data accesses do not race.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

static unsigned char frame[64];
static atomic_bool frame_done;

static void *render(void *arg)
{
	unsigned char colour = *(unsigned char *)arg;

	for (int i = 0; i < 64; i++)
		frame[i] = colour;
	atomic_store(&frame_done, true);
	return NULL;
}

static void *display(void *arg)
{
	int *out = arg;
	long spins = 0;
	int sum = 0;

	while (!atomic_load(&frame_done)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	for (int i = 0; i < 64; i++)
		sum += frame[i];
	*out = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int torn = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t r, d;
		unsigned char colour = (unsigned char)(1 + i % 200);
		int seen = -1;

		for (int j = 0; j < 64; j++)
			frame[j] = 0;
		atomic_store(&frame_done, false);
		pthread_create(&d, NULL, display, &seen);
		pthread_create(&r, NULL, render, &colour);
		pthread_join(r, NULL);
		pthread_join(d, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != 64 * colour)
			torn++;
	}
	printf("c11-seq-cst: %d iterations, %d torn frames, %d timeouts\n", iters, torn, timeouts);
	return 0;
}
