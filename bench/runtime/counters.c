/* counters.c — runtime benchmark: four threads bump an array of atomic
 * counters (relaxed fetch_add) chosen by a per-thread xorshift, with some
 * plain bookkeeping in a thread-private histogram.  ./counters [OPS] */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define NCTR 256
static atomic_long ctr[NCTR];
static long ops;

struct priv {
	long hist[16];
	unsigned long rng;
};

static void *worker(void *arg)
{
	struct priv *p = arg;

	for (long i = 0; i < ops; i++) {
		p->rng ^= p->rng << 13;
		p->rng ^= p->rng >> 7;
		p->rng ^= p->rng << 17;
		atomic_fetch_add_explicit(&ctr[p->rng % NCTR], 1, memory_order_relaxed);
		p->hist[p->rng % 16]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct priv priv[4];
	pthread_t t[4];
	long total = 0;

	ops = argc > 1 ? atol(argv[1]) : 3000000;
	for (int i = 0; i < 4; i++) {
		priv[i].rng = 88172645463325252UL + (unsigned long)i;
		pthread_create(&t[i], NULL, worker, &priv[i]);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < NCTR; i++)
		total += atomic_load(&ctr[i]);
	printf("counters: %ld increments\n", total);
	return total != 4 * ops;
}
