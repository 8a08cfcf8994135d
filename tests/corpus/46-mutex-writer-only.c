/*
 * corpus: mutex-writer-only
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The updater holds a pthread mutex while it changes two plain statistics fields,
 *        but the monitor reads them without taking the mutex: a plain data race on both
 *        fields (the reader lacks the lock's acquire; a torn pair can be observed).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 200

struct stats {
	pthread_mutex_t lock;
	unsigned long packets;
	unsigned long bytes;
};

static struct stats net = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void *updater(void *arg)
{
	struct stats *s = &net;

	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&s->lock);
		s->packets = s->packets + 1;		// RACE(writer)
		s->bytes = s->bytes + 64;		// RACE(writer)
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

static void *monitor(void *arg)
{
	struct stats *s = &net;
	long torn = 0;

	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		unsigned long p = s->packets;		// RACE(reader)
		unsigned long b = s->bytes;		// RACE(reader)

		if (b != 64 * p)
			torn++;
	}
	return (void *)torn;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long torn = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t u, m;
		void *t;

		net.packets = 0;
		net.bytes = 0;
		pthread_create(&m, NULL, monitor, NULL);
		pthread_create(&u, NULL, updater, NULL);
		pthread_join(u, NULL);
		pthread_join(m, &t);
		torn += (long)t;
	}
	printf("mutex-writer-only: %d iterations, %ld torn samples\n", iters, torn);
	return 0;
}
