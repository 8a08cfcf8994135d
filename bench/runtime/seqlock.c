/* seqlock.c — runtime benchmark: one writer updates a four-field record
 * under a sequence count, two readers retry until they read a consistent
 * snapshot (C11 seqlock: relaxed atomic fields, release/acquire fences).
 * ./seqlock [UPDATES] prints the readers' snapshot count. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_uint seq;
static atomic_long rec[4];
static atomic_int done;
static long updates;

static void *writer(void *arg)
{
	(void)arg;
	for (long i = 1; i <= updates; i++) {
		unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);

		atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
		atomic_thread_fence(memory_order_release);
		for (int f = 0; f < 4; f++)
			atomic_store_explicit(&rec[f], i, memory_order_relaxed);
		atomic_store_explicit(&seq, s + 2, memory_order_release);
	}
	atomic_store(&done, 1);
	return NULL;
}

static void *reader(void *arg)
{
	long snaps = 0, bad = 0;

	while (!atomic_load_explicit(&done, memory_order_acquire)) {
		unsigned s1, s2;
		long v[4];

		do {
			s1 = atomic_load_explicit(&seq, memory_order_acquire);
			for (int f = 0; f < 4; f++)
				v[f] = atomic_load_explicit(&rec[f], memory_order_relaxed);
			atomic_thread_fence(memory_order_acquire);
			s2 = atomic_load_explicit(&seq, memory_order_relaxed);
		} while ((s1 & 1) || s1 != s2);
		bad += v[0] != v[3];
		snaps++;
	}
	((long *)arg)[0] = snaps;
	((long *)arg)[1] = bad;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, r[2];
	long res[2][2];

	updates = argc > 1 ? atol(argv[1]) : 2000000;
	for (int i = 0; i < 2; i++)
		pthread_create(&r[i], NULL, reader, res[i]);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(w, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(r[i], NULL);
	printf("seqlock: %ld updates, %ld snapshots, %ld torn\n", updates,
	       res[0][0] + res[1][0], res[0][1] + res[1][1]);
	return res[0][1] + res[1][1] != 0;
}
