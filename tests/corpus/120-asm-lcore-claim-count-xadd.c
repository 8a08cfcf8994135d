/*
 * corpus: asm-lcore-claim-count-xadd
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The same per-lcore claims, each followed by a hand-written x86 fetch-and-add of the
 *        shared count (lock; xadd in inline assembly): every increment is atomic, and the
 *        slot the old count picks is the worker's own (DPDK's fix, in C11 atomics there).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NWORKERS 4
#define MPLOCKED "lock ; "

typedef struct {
	volatile unsigned short cnt;
} atomic16_t;

/* 1 when *dst held exp and now holds src. */
static inline int cmpset16(volatile unsigned short *dst, unsigned short exp, unsigned short src)
{
	unsigned char res;

	asm volatile(MPLOCKED "cmpxchgw %[src], %[dst];"
		     "sete %[res];"
		     : [res] "=a" (res), [dst] "=m" (*dst)
		     : [src] "r" (src), "a" (exp), "m" (*dst)
		     : "memory");
	return res;
}

static inline int test_and_set16(atomic16_t *v)
{
	return cmpset16(&v->cnt, 0, 1);
}

struct adapter {
	struct {
		atomic16_t v;
	} in_use[NWORKERS];		/* an lcore's list is polled */
	unsigned int poll[NWORKERS];	/* the lcores to poll */
	int n_poll;
};

static struct adapter ad;

/* Adds v to *p; returns what *p held before. */
static inline int fetch_add(volatile int *p, int v)
{
	asm volatile(MPLOCKED "xaddl %[v], %[cnt]"
		     : [cnt] "+m" (*p), [v] "+r" (v)
		     :
		     : "memory");
	return v;
}

static void *worker(void *arg)
{
	long lcore = (long)arg;

	if (test_and_set16(&ad.in_use[lcore].v))
		ad.poll[fetch_add(&ad.n_poll, 1)] = (unsigned int)lcore;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200;
	int short_counts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t t[NWORKERS];

		for (int k = 0; k < NWORKERS; k++)
			ad.in_use[k].v.cnt = 0;
		ad.n_poll = 0;
		for (long k = 0; k < NWORKERS; k++)
			pthread_create(&t[k], NULL, worker, (void *)k);
		for (int k = 0; k < NWORKERS; k++)
			pthread_join(t[k], NULL);
		if (ad.n_poll != NWORKERS)
			short_counts++;
	}
	printf("asm-lcore-claim-count-xadd: %d iterations, %d with lost counts\n", iters, short_counts);
	return 0;
}
