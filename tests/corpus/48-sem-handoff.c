/*
 * corpus: sem-handoff
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A producer/consumer hand-off through POSIX semaphores: the producer fills a plain
 *        slot then sem_post(full); the consumer sem_wait(full), reads the slot, and
 *        sem_post(empty) before the producer refills it. sem_post/sem_wait synchronize.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#define ITEMS 8

struct channel {
	sem_t full;
	sem_t empty;
	int slot;
};

static struct channel ch;

static void *producer(void *arg)
{
	struct channel *c = &ch;
	int base = *(int *)arg;

	for (int i = 0; i < ITEMS; i++) {
		sem_wait(&c->empty);
		c->slot = base + i;
		sem_post(&c->full);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	struct channel *c = &ch;
	long sum = 0;

	(void)arg;
	for (int i = 0; i < ITEMS; i++) {
		sem_wait(&c->full);
		sum += c->slot;
		sem_post(&c->empty);
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, c;
		int base = 100 * i;
		void *sum;

		sem_init(&ch.full, 0, 0);
		sem_init(&ch.empty, 0, 1);
		ch.slot = 0;
		pthread_create(&c, NULL, consumer, NULL);
		pthread_create(&p, NULL, producer, &base);
		pthread_join(p, NULL);
		pthread_join(c, &sum);
		sem_destroy(&ch.full);
		sem_destroy(&ch.empty);
		if ((long)sum != (long)ITEMS * base + ITEMS * (ITEMS - 1) / 2)
			wrong++;
	}
	printf("sem-handoff: %d iterations, %d wrong sums\n", iters, wrong);
	return 0;
}
