/*
 * corpus: service-stats-lost-update
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: no
 * about: Several worker threads run a service while it is started (an atomic run state,
 *        read with an acquire) and count each run with a plain increment of the service's
 *        statistics: two workers can read the same count, and one increment is lost.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define NWORKERS 3

struct service {
	int runstate;		/* 1: started; set before the workers, read with an acquire */
	unsigned long calls;	/* runs so far */
	unsigned long work;	/* what the runs added up */
};

static struct service svc;

static void run_once(struct service *s)
{
	s->work += 1;		// RACE(writer) // RACE(reader)
	s->calls++;		// RACE(writer) // RACE(reader)
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
	printf("service-stats-lost-update: %d iterations, %d with lost counts\n", iters, short_counts);
	return 0;
}
