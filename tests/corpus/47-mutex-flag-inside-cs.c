/*
 * corpus: mutex-flag-inside-cs
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The writer sets the data and a WRITE_ONCE ready flag inside one mutex critical
 *        section; a lockless reader smp_load_acquire()s the flag. Inside the critical
 *        section nothing orders the data write before the flag write (the unlock comes
 *        after both), so the lockless reader races.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct cache_entry {
	pthread_mutex_t lock;
	int key;
	int value;
	int valid;
};

static struct cache_entry ent = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void cache_fill(struct cache_entry *e, int key, int value)
{
	pthread_mutex_lock(&e->lock);
	e->key = key;		// RACE(writer)
	e->value = value;		// RACE(writer)
	WRITE_ONCE(e->valid, 1);
	pthread_mutex_unlock(&e->lock);
}

static int cache_lookup_lockless(struct cache_entry *e, int *value)
{
	long spins = 0;

	while (!smp_load_acquire(&e->valid)) {
		if (++spins > SPIN_LIMIT)
			return -1;
		if (!(spins & 127))
			sched_yield();
	}
	*value = e->value;		// RACE(reader)
	return e->key;		// RACE(reader)
}

static void *filler(void *arg)
{
	int k = *(int *)arg;

	cache_fill(&ent, k, 10 * k);
	return NULL;
}

static void *looker(void *arg)
{
	int *out = arg;
	int value = 0;
	int key = cache_lookup_lockless(&ent, &value);

	if (key < 0)
		out[0] = -1;
	else
		out[0] = key == 0 || value != 10 * key;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t f, l;
		int k = i + 1;
		int res = 0;

		ent.key = 0;
		ent.value = 0;
		ent.valid = 0;
		pthread_create(&l, NULL, looker, &res);
		pthread_create(&f, NULL, filler, &k);
		pthread_join(f, NULL);
		pthread_join(l, NULL);
		if (res < 0)
			timeouts++;
		else if (res)
			bad++;
	}
	printf("mutex-flag-inside-cs: %d iterations, %d half-filled entries, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
