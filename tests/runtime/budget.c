/*
 * budget.c — the delay budget (max_delay_pct) holds for the process, not
 * only per thread.  Four threads take turns in one critical section that
 * loops over a shared array with plain accesses: while one of them waits
 * in a sampled watchpoint's delay window, the others wait for the lock.
 * Each stays within its own share of its running time, so a per-thread
 * budget alone let the four together spend about four times the share.
 *
 * The program does the work; run.sh runs it with verbose=1 and checks the
 * runtime's own account ("kcsan: sampled delays: D us in E us, budget P%")
 * against P% of E, plus one delay window per thread (a window that starts
 * under the budget ends past it).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
static long data[N];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long passes;

static void *worker(void *arg)
{
	long id = (long)arg;

	for (long p = 0; p < passes; p++) {
		pthread_mutex_lock(&lock);
		for (int i = 0; i < N; i++)
			data[i] = data[i] * 3 + id + (data[(i + 1) % N] >> 3);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	long sum = 0;

	passes = argc > 1 ? atol(argv[1]) : 300;
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < N; i++)
		sum += data[i];
	printf("budget: %ld passes, checksum %ld\n", passes, sum);
	return 0;
}
