/*
 * corpus: all-marked
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Statistics shared with WRITE_ONCE()/READ_ONCE() on every access and no barriers:
 *        the reader may see a stale or mixed pair (tolerated here), but with no plain
 *        access there is no data race in LKMM.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define ROUNDS 200

struct counters {
	unsigned long events;
	unsigned long last_event;
	int updated;
};

static struct counters ctrs;

static void *producer(void *arg)
{
	struct counters *c = &ctrs;

	(void)arg;
	for (unsigned long i = 1; i <= ROUNDS; i++) {
		WRITE_ONCE(c->events, READ_ONCE(c->events) + 1);
		WRITE_ONCE(c->last_event, i);
		WRITE_ONCE(c->updated, 1);
	}
	return NULL;
}

static void *sampler(void *arg)
{
	struct counters *c = &ctrs;
	long mixed = 0;

	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		if (READ_ONCE(c->updated)) {
			unsigned long e = READ_ONCE(c->events);
			unsigned long l = READ_ONCE(c->last_event);

			if (e != l)
				mixed++;
		}
	}
	return (void *)mixed;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long mixed = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, s;
		void *m;

		ctrs.events = 0;
		ctrs.last_event = 0;
		ctrs.updated = 0;
		pthread_create(&s, NULL, sampler, NULL);
		pthread_create(&p, NULL, producer, NULL);
		pthread_join(p, NULL);
		pthread_join(s, &m);
		mixed += (long)m;
	}
	printf("all-marked: %d iterations, %ld mixed samples (allowed, not a data race)\n", iters, mixed);
	return 0;
}
