/*
 * corpus: service-stats-locked
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 90 where each worker counts its runs under the service's own lock, a
 *        test-and-set spinlock built from an exchange with acquire and a release store. The
 *        increments are plain and made by several threads at once, but the exchange makes
 *        each section exclusive, and the release orders it before the next holder's.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define NWORKERS 3

struct service {
	int runstate;		/* 1: started; set before the workers, read with an acquire */
	int lock;		/* 0: free, 1: held */
	unsigned long calls;	/* runs so far, under lock */
	unsigned long work;	/* what the runs added up, under lock */
};

static struct service svc;

static void service_lock(struct service *s)
{
	while (xchg_acquire(&s->lock, 1))
		while (READ_ONCE(s->lock))
			cpu_relax();
}

static void service_unlock(struct service *s)
{
	smp_store_release(&s->lock, 0);
}

static void run_once(struct service *s)
{
	service_lock(s);
	s->work += 1;
	s->calls++;
	service_unlock(s);
}

static void *worker(void *arg)
{
	long rounds = (long)arg;

	for (long i = 0; i < rounds; i++)
		if (smp_load_acquire(&svc.runstate))
			run_once(&svc);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200;
	int short_counts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t t[NWORKERS];

		svc.calls = 0;
		svc.work = 0;
		smp_store_release(&svc.runstate, 1);
		for (int k = 0; k < NWORKERS; k++)
			pthread_create(&t[k], NULL, worker, (void *)1000L);
		for (int k = 0; k < NWORKERS; k++)
			pthread_join(t[k], NULL);
		if (svc.calls != NWORKERS * 1000UL)
			short_counts++;
	}
	printf("service-stats-locked: %d iterations, %d with lost counts\n", iters, short_counts);
	return 0;
}
