/*
 * corpus: c11-acquire-fence-on-writer
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The writer puts atomic_thread_fence(memory_order_acquire) before the relaxed flag
 *        store. An acquire fence orders only earlier loads, so it does not synchronize
 *        the earlier plain write with the reader's acquire fence; the payload races.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

static int matrix[2][2];
static atomic_int matrix_seq;

static void *writer(void *arg)
{
	int v = *(int *)arg;

	matrix[0][1] = v;		// RACE(writer)
	atomic_thread_fence(memory_order_acquire);
	atomic_store_explicit(&matrix_seq, 1, memory_order_relaxed);
	return NULL;
}

static void *reader(void *arg)
{
	int *out = arg;
	long spins = 0;

	while (atomic_load_explicit(&matrix_seq, memory_order_relaxed) != 1) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	atomic_thread_fence(memory_order_acquire);
	*out = matrix[0][1];		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		int v = i + 1;
		int seen = -1;

		matrix[0][1] = 0;
		atomic_store_explicit(&matrix_seq, 0, memory_order_relaxed);
		pthread_create(&r, NULL, reader, &seen);
		pthread_create(&w, NULL, writer, &v);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
		if (seen == -1)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("c11-acquire-fence-on-writer: %d iterations, %d stale, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
