/*
 * corpus: ptr-dep-plus-global
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: Release-published pointer read with READ_ONCE: the reads through the pointer are
 *        ordered by the address dependency, but the reader also reads a global generation
 *        number that does not depend on the pointer value; that plain read is unordered.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct table {
	int size;
	int entries[8];
};

static struct table tables[2];
static struct table *live_table;
static unsigned int table_generation;

static void *publish_table(void *arg)
{
	unsigned int gen = *(unsigned int *)arg;
	struct table *t = &tables[gen & 1];

	table_generation = gen;		// RACE(writer)
	t->size = 8;
	t->entries[7] = (int)gen;
	smp_store_release(&live_table, t);
	return NULL;
}

static void *lookup(void *arg)
{
	unsigned int *out = arg;
	struct table *t;
	long spins = 0;
	int last;
	unsigned int gen;

	while (!(t = READ_ONCE(live_table))) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	last = t->entries[t->size - 1];
	gen = table_generation;		// RACE(reader)
	*out = gen == (unsigned int)last ? 1 : 2;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int mismatched = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, l;
		unsigned int gen = (unsigned int)i + 1;
		unsigned int res = 0;

		tables[gen & 1].size = 0;
		live_table = NULL;
		table_generation = 0;
		pthread_create(&l, NULL, lookup, &res);
		pthread_create(&p, NULL, publish_table, &gen);
		pthread_join(p, NULL);
		pthread_join(l, NULL);
		if (res == 0)
			timeouts++;
		else if (res == 2)
			mismatched++;
	}
	printf("ptr-dep-plus-global: %d iterations, %d generation mismatches, %d timeouts\n",
	       iters, mismatched, timeouts);
	return 0;
}
