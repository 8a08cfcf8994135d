/*
 * corpus: create-join-jobs
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: main fills an array of job structs (with function pointers), hands each to a
 *        thread through pthread_create, and reads the outputs after pthread_join. Each
 *        thread touches only its own job; create and join order everything.
 */
#include "bl.h"

typedef int (*op_fn)(int, int);

struct job {
	op_fn op;
	int a, b;
	int out;
};

static int add(int a, int b)
{
	return a + b;
}

static int mul(int a, int b)
{
	return a * b;
}

static struct job jobs[4];

static void *run_job(void *arg)
{
	struct job *j = arg;

	j->out = j->op(j->a, j->b);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t t[4];
		int total = 0;

		for (int k = 0; k < 4; k++) {
			jobs[k].op = (k & 1) ? mul : add;
			jobs[k].a = k;
			jobs[k].b = 3;
			jobs[k].out = -1;
			pthread_create(&t[k], NULL, run_job, &jobs[k]);
		}
		for (int k = 0; k < 4; k++)
			pthread_join(t[k], NULL);
		for (int k = 0; k < 4; k++)
			total += jobs[k].out;
		bad += total != 3 + 3 + 5 + 9;
	}
	printf("create-join-jobs: %d iterations, %d bad\n", iters, bad);
	return 0;
}
