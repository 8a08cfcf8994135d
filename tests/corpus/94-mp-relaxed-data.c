/*
 * corpus: mp-relaxed-data
 * lkmm: unordered
 * lacks: writer
 * delayed-in-publisher: no
 * about: Samples filled with WRITE_ONCE and published by WRITE_ONCE of a pointer to them; the
 *        reader loads the pointer with READ_ONCE and reads the sample through it.  Every
 *        access is marked: no data race, but nothing orders the fill before the pointer
 *        store, so a reader may follow the new pointer to the old contents (MP with ONCE
 *        stores: the reader's address dependency cannot make up for the writer).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define NSLOTS 4

struct sample {
	long value;
	long twice;
};

static struct sample slots[NSLOTS];
static struct sample *current;

static void *sampler(void *arg)
{
	int n = (int)(long)arg;

	for (int i = 1; i <= n; i++) {
		struct sample *s = &slots[i % NSLOTS];

		WRITE_ONCE(s->value, i);           // UNORDERED(writer)
		WRITE_ONCE(s->twice, 2L * i);      // UNORDERED(writer)
		WRITE_ONCE(current, s);
	}
	return NULL;
}

static void *watcher(void *arg)
{
	int n = (int)(long)arg;
	long torn = 0;

	for (int i = 0; i < n; i++) {
		struct sample *s = READ_ONCE(current);

		if (s) {
			long v = READ_ONCE(s->value);    // UNORDERED(reader)
			long t = READ_ONCE(s->twice);    // UNORDERED(reader)

			torn += t != 2 * v;
		}
	}
	return (void *)torn;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200;
	long torn = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		void *res;

		WRITE_ONCE(current, NULL);
		pthread_create(&r, NULL, watcher, (void *)1000L);
		pthread_create(&w, NULL, sampler, (void *)1000L);
		pthread_join(w, NULL);
		pthread_join(r, &res);
		torn += (long)res;
	}
	printf("mp-relaxed-data: %d iterations, %ld torn samples\n", iters, torn);
	return 0;
}
