/*
 * corpus: c11-seqlock-no-fence
 * lkmm: unordered
 * lacks: reader
 * delayed-in-publisher: no
 * about: C11 sequence lock (Boehm's writer: relaxed bump, release fence, relaxed data stores,
 *        release bump) whose reader re-reads the sequence with no acquire fence after the relaxed
 *        data loads: the data loads can be satisfied after the re-read, so a torn pair passes
 *        validation.  Every access is atomic: no data race, an ordering bug.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define UPDATES 200
#define SPIN_LIMIT (1L << 22)

/* A pair read by a sequence lock in C11 (the data are relaxed atomics, so
 * that a read that meets a write is no data race): a consistent snapshot
 * has lo == hi. */
struct pair {
	atomic_uint seq;   /* odd while an update runs */
	atomic_long lo;
	atomic_long hi;
};

static struct pair shared;
static atomic_int done;

static void pair_update(struct pair *p, long v)
{
	unsigned s = atomic_load_explicit(&p->seq, memory_order_relaxed);

	atomic_store_explicit(&p->seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&p->lo, v, memory_order_relaxed); // UNORDERED(writer)
	atomic_store_explicit(&p->hi, v, memory_order_relaxed); // UNORDERED(writer)
	atomic_store_explicit(&p->seq, s + 2, memory_order_release);
}

/* 1 with a consistent snapshot in *LO and *HI, 0 on a timeout. */
static int pair_read(struct pair *p, long *lo, long *hi)
{
	unsigned start;
	long spins = 0;

	do {
		if (++spins > SPIN_LIMIT)
			return 0;
		if (!(spins & 127))
			sched_yield();
		start = atomic_load_explicit(&p->seq, memory_order_acquire);
		*lo = atomic_load_explicit(&p->lo, memory_order_relaxed); // UNORDERED(reader)
		*hi = atomic_load_explicit(&p->hi, memory_order_relaxed); // UNORDERED(reader)
	} while ((start & 1) || atomic_load_explicit(&p->seq, memory_order_relaxed) != start);
	return 1;
}

static void *writer(void *arg)
{
	(void)arg;
	for (long v = 1; v <= UPDATES; v++)
		pair_update(&shared, v);
	atomic_store_explicit(&done, 1, memory_order_relaxed);
	return NULL;
}

static void *reader(void *arg)
{
	long *torn = arg, lo, hi;

	while (!atomic_load_explicit(&done, memory_order_relaxed))
		if (pair_read(&shared, &lo, &hi) && lo != hi)
			(*torn)++;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long torn = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;

		atomic_init(&shared.seq, 0);
		atomic_init(&shared.lo, 0);
		atomic_init(&shared.hi, 0);
		atomic_init(&done, 0);
		pthread_create(&r, NULL, reader, &torn);
		pthread_create(&w, NULL, writer, NULL);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
	}
	printf("c11-seqlock-no-fence: %d iterations, %ld torn snapshots accepted\n", iters, torn);
	return 0;
}
