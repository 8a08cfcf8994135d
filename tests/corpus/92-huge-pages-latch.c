/*
 * corpus: huge-pages-latch
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: no
 * about: Threads that map memory at once share a static "huge pages available" latch: each
 *        tests it plainly, and one that fails clears it plainly so that no one tries again.
 *        A plain test and a plain store of the same static from threads that run together
 *        are a data race (the compiler may cache, tear or invent the accesses).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define NMAPPERS 3

/* A huge-page mapping: the "kernel" grants the first few tries of a round. */
static bool map_huge(long try)
{
	return try < 2;
}

static int map_pages(long try)
{
	static bool huge_available = true;

	if (huge_available) {		// RACE(reader)
		if (map_huge(try))
			return 2;
		huge_available = false;	// RACE(writer)
	}
	return 1;
}

static void *mapper(void *arg)
{
	long n = (long)arg, huge = 0;

	for (long i = 0; i < n; i++)
		huge += map_pages(i) == 2;
	return (void *)huge;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200;
	long huge = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t t[NMAPPERS];

		for (int k = 0; k < NMAPPERS; k++)
			pthread_create(&t[k], NULL, mapper, (void *)100L);
		for (int k = 0; k < NMAPPERS; k++) {
			void *r;

			pthread_join(t[k], &r);
			huge += (long)r;
		}
	}
	printf("huge-pages-latch: %d iterations, %ld huge mappings\n", iters, huge);
	return 0;
}
