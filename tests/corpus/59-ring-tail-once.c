/*
 * corpus: ring-tail-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The SPSC ring with the consumer freeing a slot by WRITE_ONCE(tail) after its plain
 *        read of the slot: the read is not ordered before the tail store, so the producer
 *        (which acquires tail) may overwrite the slot first. Here the consumer is the
 *        publishing (writer) side; the producer's plain slot write is the reader side.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define RING_SIZE 8
#define ITEMS 64
#define SPIN_LIMIT (1L << 22)

struct ring {
	unsigned int head;	/* written by the producer only */
	unsigned int tail;	/* written by the consumer only */
	int buf[RING_SIZE];
};

static struct ring rg;

static int ring_push(struct ring *r, int v)
{
	unsigned int head = r->head;
	unsigned int tail = smp_load_acquire(&r->tail);

	if (head - tail >= RING_SIZE)
		return 0;
	r->buf[head % RING_SIZE] = v;		// RACE(reader)
	smp_store_release(&r->head, head + 1);
	return 1;
}

static int ring_pop(struct ring *r, int *v)
{
	unsigned int tail = r->tail;
	unsigned int head = smp_load_acquire(&r->head);

	if (head == tail)
		return 0;
	*v = r->buf[tail % RING_SIZE];		// RACE(writer)
	WRITE_ONCE(r->tail, tail + 1);
	return 1;
}

static void *producer(void *arg)
{
	long spins = 0;

	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		while (!ring_push(&rg, i)) {
			if (++spins > SPIN_LIMIT)
				return NULL;
			if (!(spins & 127))
				sched_yield();
		}
	}
	return NULL;
}

static void *consumer(void *arg)
{
	long spins = 0;
	long errors = 0;

	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		int v;

		while (!ring_pop(&rg, &v)) {
			if (++spins > SPIN_LIMIT)
				return (void *)(errors + ITEMS);
			if (!(spins & 127))
				sched_yield();
		}
		if (v != i)
			errors++;
	}
	return (void *)errors;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long errors = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, c;
		void *e;

		rg.head = 0;
		rg.tail = 0;
		pthread_create(&c, NULL, consumer, NULL);
		pthread_create(&p, NULL, producer, NULL);
		pthread_join(p, NULL);
		pthread_join(c, &e);
		errors += (long)e;
	}
	printf("ring-tail-once: %d iterations, %ld bad items\n", iters, errors);
	return 0;
}
