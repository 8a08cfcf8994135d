/*
 * corpus: task-array-atomic-set
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: yes
 * about: Workers each square their task's input into an array of structs and mark it
 *        done with atomic_set() (unordered); a collector polls atomic_read() (unordered)
 *        and sums the outputs. Both sides lack ordering.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

#define NT 3

typedef struct {
	int input;
	int output;
	atomic_t done;
} task_t;

static task_t tasks[NT];

static void *work(void *arg)
{
	task_t *t = arg;

	t->output = t->input * t->input;	// RACE(writer)
	atomic_set(&t->done, 1);
	return NULL;
}

static void *collect(void *arg)
{
	long *sum = arg;

	for (int i = 0; i < NT; i++) {
		long spins = 0;

		while (!atomic_read(&tasks[i].done))
			if (!bl_keep_waiting(&spins))
				return NULL;
		*sum += tasks[i].output;		// RACE(reader)
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w[NT], c;
		long sum = 0;

		for (int k = 0; k < NT; k++) {
			tasks[k].input = k + 1;
			tasks[k].output = 0;
			atomic_set(&tasks[k].done, 0);
		}
		pthread_create(&c, NULL, collect, &sum);
		for (int k = 0; k < NT; k++)
			pthread_create(&w[k], NULL, work, &tasks[k]);
		for (int k = 0; k < NT; k++)
			pthread_join(w[k], NULL);
		pthread_join(c, NULL);
		bad += sum != 14;
	}
	printf("task-array-atomic-set: %d iterations, %d bad\n", iters, bad);
	return 0;
}
