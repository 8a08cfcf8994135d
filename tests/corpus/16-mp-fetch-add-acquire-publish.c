/*
 * corpus: mp-fetch-add-acquire-publish
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The publisher uses atomic_fetch_add_acquire() on the sequence counter. Acquire
 *        orders the RMW before LATER accesses, not the earlier plain write of the record
 *        before it, so the publication is unordered although the reader acquires.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct log {
	int record[2];
	atomic_t seq;
};

static struct log lg;

static void *append(void *arg)
{
	struct log *l = &lg;
	int v = *(int *)arg;
	int prev;

	l->record[1] = v;		// RACE(writer)
	prev = atomic_fetch_add_acquire(1, &l->seq);
	return (void *)(long)prev;
}

static void *tail_log(void *arg)
{
	struct log *l = &lg;
	int *out = arg;
	long spins = 0;

	while (atomic_read_acquire(&l->seq) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = l->record[1];		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, t;
		int v = 2 * i + 1;
		int seen = -1;

		lg.record[1] = 0;
		atomic_set(&lg.seq, 0);
		pthread_create(&t, NULL, tail_log, &seen);
		pthread_create(&a, NULL, append, &v);
		pthread_join(a, NULL);
		pthread_join(t, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("mp-fetch-add-acquire-publish: %d iterations, %d stale records, %d timeouts\n",
	       iters, stale, timeouts);
	return 0;
}
