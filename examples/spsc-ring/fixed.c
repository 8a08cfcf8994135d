/*
 * spsc-ring: a single-producer, single-consumer ring buffer of ints.
 *
 * The producer fills buf[head] and then advances head; the consumer reads
 * buf[tail] and then advances tail.  Each index is the "flag" that hands a
 * slot to the other side, in both directions:
 *   - head hands a filled slot to the consumer: the write of the slot must
 *     be visible before the new head (release), and the consumer must not
 *     read the slot before it has seen the new head (acquire);
 *   - tail hands an emptied slot back to the producer: the consumer's read
 *     of the slot must be complete before the new tail (release), or the
 *     producer may overwrite it while it is being read, and the producer
 *     must not write the slot before it has seen the new tail (acquire).
 *
 * buggy.c: WRITE_ONCE/READ_ONCE for head and tail, which order nothing.
 * fixed.c: smp_store_release/smp_load_acquire for head and tail.
 *
 * Usage: ./prog [ITEMS]   (default 20000)
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcsan/lkmm.h>

#define RING_SIZE 64U	/* a power of two, so that the indices may wrap */

struct ring {
	unsigned int head;	/* next slot to fill: written by the producer only */
	unsigned int tail;	/* next slot to drain: written by the consumer only */
	int buf[RING_SIZE];
};

static struct ring ring;

/* Producer: append value; returns false if the ring is full. */
static bool ring_push(struct ring *r, int value)
{
	unsigned int head = r->head;
	unsigned int tail = smp_load_acquire(&r->tail);

	if (head - tail == RING_SIZE)
		return false;
	r->buf[head % RING_SIZE] = value;
	smp_store_release(&r->head, head + 1);
	return true;
}

/* Consumer: remove and return the oldest value; returns -1 if the ring is empty. */
static int ring_pop(struct ring *r)
{
	unsigned int tail = r->tail;
	unsigned int head = smp_load_acquire(&r->head);
	int value;

	if (head == tail)
		return -1;
	value = r->buf[tail % RING_SIZE];
	smp_store_release(&r->tail, tail + 1);
	return value;
}

static int nitems;

static void *producer_thread(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < nitems; i++)
		while (!ring_push(&ring, i))
			;
	return NULL;
}

static void *consumer_thread(void *arg)
{
	int *wrong = arg;
	int i;

	for (i = 0; i < nitems; i++) {
		int value;

		while ((value = ring_pop(&ring)) < 0)
			;
		if (value != i)
			(*wrong)++;
	}
	return NULL;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "spsc-ring: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	pthread_t producer, consumer;
	int wrong = 0;

	nitems = argc > 1 ? atoi(argv[1]) : 20000;
	check(pthread_create(&consumer, NULL, consumer_thread, &wrong), "pthread_create");
	check(pthread_create(&producer, NULL, producer_thread, NULL), "pthread_create");
	check(pthread_join(producer, NULL), "pthread_join");
	check(pthread_join(consumer, NULL), "pthread_join");
	printf("spsc-ring: %d items through a %u-slot ring, %d received out of order or stale\n",
	       nitems, RING_SIZE, wrong);
	return 0;
}
