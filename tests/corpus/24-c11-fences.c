/*
 * corpus: c11-fences
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Standalone C11 fences with relaxed flag accesses: atomic_thread_fence(release)
 *        before the relaxed store and atomic_thread_fence(acquire) after the relaxed load
 *        give fence-to-fence synchronization (like smp_wmb/smp_rmb). No data race.
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

	matrix[0][0] = v;
	matrix[1][1] = v;
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&matrix_seq, 1, memory_order_relaxed);
	return NULL;
}

static void *reader(void *arg)
{
	int *out = arg;
	long spins = 0;
	int a, b;

	while (atomic_load_explicit(&matrix_seq, memory_order_relaxed) != 1) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	atomic_thread_fence(memory_order_acquire);
	a = matrix[0][0];
	b = matrix[1][1];
	*out = a == b ? a : -2;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		int v = i + 1;
		int seen = -1;

		matrix[0][0] = 0;
		matrix[1][1] = 0;
		atomic_store_explicit(&matrix_seq, 0, memory_order_relaxed);
		pthread_create(&r, NULL, reader, &seen);
		pthread_create(&w, NULL, writer, &v);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
		if (seen == -1)
			timeouts++;
		else if (seen != v)
			bad++;
	}
	printf("c11-fences: %d iterations, %d bad matrices, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
