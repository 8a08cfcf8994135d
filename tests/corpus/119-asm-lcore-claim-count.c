/*
 * corpus: asm-lcore-claim-count
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: no
 * about: Each worker claims its own per-lcore flag with a hand-written x86 compare-and-swap
 *        (lock; cmpxchg in inline assembly, behind a test-and-set helper) and, when it
 *        claimed it, adds its lcore to the list to poll with a plain n_poll++.  The flags
 *        are one per lcore, so two workers claim two flags and both update the shared
 *        count at once: one increment is lost (DPDK's timer adapter before its fix).
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

static void *worker(void *arg)
{
	long lcore = (long)arg;

	if (test_and_set16(&ad.in_use[lcore].v))
		ad.n_poll++;		// RACE(writer) // RACE(reader)
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
	printf("asm-lcore-claim-count: %d iterations, %d with lost counts\n", iters, short_counts);
	return 0;
}
