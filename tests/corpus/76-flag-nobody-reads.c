/*
 * corpus: flag-nobody-reads
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A worker writes its plain result and then a WRITE_ONCE() progress flag that no
 *        other thread reads concurrently; the parent reads the result and the flag only
 *        after pthread_join(). An unpaired "publication" is not a race by itself.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

struct task {
	long input;
	long result;
	int finished;
};

static struct task tasks[2];

static void *run(void *arg)
{
	struct task *t = arg;
	long r = 0;

	for (long i = 1; i <= t->input; i++)
		r += i;
	t->result = r;
	WRITE_ONCE(t->finished, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t th[2];

		for (int j = 0; j < 2; j++) {
			tasks[j].input = 10 + i % 50 + j;
			tasks[j].result = 0;
			tasks[j].finished = 0;
			pthread_create(&th[j], NULL, run, &tasks[j]);
		}
		for (int j = 0; j < 2; j++) {
			long n = tasks[j].input;

			pthread_join(th[j], NULL);
			if (!tasks[j].finished || tasks[j].result != n * (n + 1) / 2)
				wrong++;
		}
	}
	printf("flag-nobody-reads: %d iterations, %d wrong results\n", iters, wrong);
	return 0;
}
