/*
 * corpus: mp-relaxed-data-ordered
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 94 with the pointer stored with smp_store_release(): a reader that
 *        follows it (an address dependency, which the LKMM orders) sees the fill made
 *        before it.  The sample's own accesses stay WRITE_ONCE/READ_ONCE.
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

		WRITE_ONCE(s->value, i);
		WRITE_ONCE(s->twice, 2L * i);
		smp_store_release(&current, s);
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
			long v = READ_ONCE(s->value);
			long t = READ_ONCE(s->twice);

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
	printf("mp-relaxed-data-ordered: %d iterations, %ld torn samples\n", iters, torn);
	return 0;
}
