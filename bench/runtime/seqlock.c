/* seqlock.c — runtime benchmark: one writer updates a four-field record
 * under a sequence count, two readers retry until they read a consistent
 * snapshot (C11 seqlock: relaxed atomic fields, release/acquire fences).
 * ./seqlock [UPDATES]: the writer makes UPDATES updates, each reader takes
 * UPDATES snapshots.
 *
 * Every thread has a fixed amount of work (readers that ran until the
 * writer was done made the run time the writer's alone, fast or slow with
 * whether the readers got a CPU), and a reader yields after a run of
 * failed retries (on a machine with fewer free CPUs than threads, the
 * writer may be preempted in the middle of an update). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_uint seq;
static atomic_long rec[4];
static long updates;

#define RETRIES	100	/* failed reads before a reader yields */

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
	return NULL;
}

static void *reader(void *arg)
{
	long snaps = 0, bad = 0;

	for (long n = 0; n < updates; n++) {
		unsigned s1, s2;
		long v[4];
		int retries = 0;

		for (;;) {
			s1 = atomic_load_explicit(&seq, memory_order_acquire);
			for (int f = 0; f < 4; f++)
				v[f] = atomic_load_explicit(&rec[f], memory_order_relaxed);
			atomic_thread_fence(memory_order_acquire);
			s2 = atomic_load_explicit(&seq, memory_order_relaxed);
			if (!(s1 & 1) && s1 == s2)
				break;
			if (++retries >= RETRIES) {
				sched_yield();
				retries = 0;
			}
		}
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
