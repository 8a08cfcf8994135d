/*
 * corpus: c11-relaxed-batch
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: yes
 * about: A batch of samples filled in a loop and published by a relaxed C11 store of the
 *        count, read by a relaxed load: no happens-before, so the sample accesses race
 *        (undefined behaviour in C11).
 */
#include "bl.h"
#include <stdatomic.h>

typedef struct {
	long samples[4];
	atomic_int nr;
} batch_t;

static batch_t B;

static void *fill(void *p)
{
	batch_t *b = p;

	for (int i = 0; i < 4; i++)
		b->samples[i] = i * 3 + 1;	// RACE(writer)
	atomic_store_explicit(&b->nr, 4, memory_order_relaxed);
	return NULL;
}

static void *drain(void *p)
{
	batch_t *b = p;
	long spins = 0, sum = 0;

	while (atomic_load_explicit(&b->nr, memory_order_relaxed) != 4)
		if (!bl_keep_waiting(&spins))
			return NULL;
	for (int i = 0; i < 4; i++)
		sum += b->samples[i];		// RACE(reader)
	if (sum != 22)
		fprintf(stderr, "bad sum %ld\n", sum);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		for (int k = 0; k < 4; k++)
			B.samples[k] = 0;
		atomic_init(&B.nr, 0);
		BL_RUN2(fill, &B, drain, &B);
	}
	printf("c11-relaxed-batch: %d iterations\n", iters);
	return 0;
}
