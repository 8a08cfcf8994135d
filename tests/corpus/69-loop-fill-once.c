/*
 * corpus: loop-fill-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The writer fills an array in a loop and then publishes the element count with
 *        WRITE_ONCE(): the loop's plain stores are not ordered before the count, so the
 *        reader, which acquires the count, races on the elements.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)
#define MAX_ITEMS 32

struct batch {
	int items[MAX_ITEMS];
	int count;
};

static struct batch bt;

static void *fill_batch(void *arg)
{
	struct batch *b = &bt;
	int n = *(int *)arg;

	for (int i = 0; i < n; i++)
		b->items[i] = i + 1;		// RACE(writer)
	WRITE_ONCE(b->count, n);
	return NULL;
}

static void *sum_batch(void *arg)
{
	struct batch *b = &bt;
	long *out = arg;
	long spins = 0;
	long sum = 0;
	int n;

	while ((n = smp_load_acquire(&b->count)) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	for (int i = 0; i < n; i++)
		sum += b->items[i];		// RACE(reader)
	*out = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t f, s;
		int n = 1 + i % MAX_ITEMS;
		long sum = -1;

		for (int j = 0; j < MAX_ITEMS; j++)
			bt.items[j] = 0;
		bt.count = 0;
		pthread_create(&s, NULL, sum_batch, &sum);
		pthread_create(&f, NULL, fill_batch, &n);
		pthread_join(f, NULL);
		pthread_join(s, NULL);
		if (sum < 0)
			timeouts++;
		else if (sum != (long)n * (n + 1) / 2)
			bad++;
	}
	printf("loop-fill-once: %d iterations, %d bad sums, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
