/*
 * corpus: ring-head-out-param-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The same with the head read by smp_load_acquire() in fetch_head(): every slot
 *        read is ordered after it.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define NSLOTS 8u
#define SPIN_LIMIT (1L << 22)

struct ring {
	unsigned head;          /* written by the producer */
	unsigned tail;          /* written by the consumer */
	long slot[NSLOTS];
};

static struct ring q;

static int put(struct ring *r, long v)
{
	unsigned h = r->head;

	if (h - smp_load_acquire(&r->tail) == NSLOTS)
		return 0;
	r->slot[h % NSLOTS] = v;
	smp_store_release(&r->head, h + 1);
	return 1;
}

/* Stores the producer's head into *HEAD, for the caller to test. */
static void fetch_head(struct ring *r, unsigned *head)
{
	*head = smp_load_acquire(&r->head);
}

/* Takes up to MAX values into OUT; returns how many. */
static unsigned take(struct ring *r, long *out, unsigned max)
{
	unsigned t = r->tail, h, n;

	fetch_head(r, &h);
	n = h - t;
	if (n > max)
		n = max;
	for (unsigned i = 0; i < n; i++)
		out[i] = r->slot[(t + i) % NSLOTS];
	smp_store_release(&r->tail, t + n);
	return n;
}

static void *producer(void *arg)
{
	long n = (long)arg;

	for (long v = 1; v <= n; v++)
		for (long spins = 0; !put(&q, v) && spins < SPIN_LIMIT; spins++)
			if (spins % 128 == 127)
				sched_yield();
	return NULL;
}

static void *consumer(void *arg)
{
	long n = (long)arg, next = 1, bad = 0, spins = 0;
	long got[NSLOTS];

	while (next <= n && spins++ < SPIN_LIMIT) {
		unsigned k = take(&q, got, NSLOTS);

		for (unsigned i = 0; i < k; i++, next++)
			bad += got[i] != next;
		if (k == 0 && spins % 128 == 127)
			sched_yield();
	}
	return (void *)bad;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long bad = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, c;
		void *res;

		q.head = q.tail = 0;
		pthread_create(&c, NULL, consumer, (void *)64L);
		pthread_create(&p, NULL, producer, (void *)64L);
		pthread_join(p, NULL);
		pthread_join(c, &res);
		bad += (long)res;
	}
	printf("ring-head-out-param-acquire: %d iterations, %ld values out of order\n", iters, bad);
	return 0;
}
