/*
 * corpus: sync-tas-publish
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: gcc
 * about: __sync_lock_test_and_set() is only an acquire barrier (GCC manual), so using
 *        it to publish a result orders nothing before it, even though the reader
 *        acquires the flag.  gcc instruments it as an acquire exchange, which keeps
 *        the delay; clang compiles it as a seq_cst exchange, which ends it (the clang
 *        binary is ordered: found by the static pass only).
 */
#include "bl.h"

static long result;
static int flag;

static void *producer(void *arg)
{
	(void)arg;
	result = 99;			// RACE(writer)
	(void)__sync_lock_test_and_set(&flag, 1);
	return NULL;
}

static void *consumer(void *arg)
{
	long *out = arg;
	long spins = 0;

	while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
		if (!bl_keep_waiting(&spins))
			return NULL;
	*out = result;			// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		long out = -1;

		result = 0;
		flag = 0;
		BL_RUN2(producer, NULL, consumer, &out);
		bad += out == 0;
	}
	printf("sync-tas-publish: %d iterations, %d stale\n", iters, bad);
	return 0;
}
