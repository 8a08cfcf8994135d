/*
 * corpus: huge-pages-latch-once
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 92 with the latch read with READ_ONCE and cleared with WRITE_ONCE:
 *        two threads may still both try a huge mapping before one clears the latch, which
 *        the code tolerates (a failed try falls back), but no access is plain, so nothing
 *        races.  A test-and-set shape on a static, marked: a trap for a naive tool.
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

	if (READ_ONCE(huge_available)) {
		if (map_huge(try))
			return 2;
		WRITE_ONCE(huge_available, false);
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
	printf("huge-pages-latch-once: %d iterations, %ld huge mappings\n", iters, huge);
	return 0;
}
