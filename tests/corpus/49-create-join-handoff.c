/*
 * corpus: create-join-handoff
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Plain data written by the parent before pthread_create() is read by the child,
 *        and the child's plain results are read by the parent after pthread_join(): thread
 *        creation and join order these accesses, so there is no data race.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct work {
	int input[16];
	int n;
	long result;
	int finished;
};

static struct work jobs[2];

static void *run_job(void *arg)
{
	struct work *w = arg;
	long sum = 0;

	for (int i = 0; i < w->n; i++)
		sum += w->input[i];
	w->result = sum;
	w->finished = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0;

	for (int it = 0; it < iters; it++) {
		pthread_t t[2];

		for (int j = 0; j < 2; j++) {
			jobs[j].n = 16;
			for (int i = 0; i < 16; i++)
				jobs[j].input[i] = it + i + j;
			jobs[j].result = 0;
			jobs[j].finished = 0;
			pthread_create(&t[j], NULL, run_job, &jobs[j]);
		}
		for (int j = 0; j < 2; j++) {
			pthread_join(t[j], NULL);
			if (!jobs[j].finished || jobs[j].result != 16L * (it + j) + 120)
				wrong++;
		}
	}
	printf("create-join-handoff: %d iterations, %d wrong results\n", iters, wrong);
	return 0;
}
