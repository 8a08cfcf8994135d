/* mutex_compute.c — runtime benchmark: plain compute loops over a shared
 * array, each pass under one pthread mutex (four threads take turns).
 * ./mutex_compute [PASSES]
 * Also the program tests/runtime/run.sh checks the process-wide delay
 * budget with (threads that take turns wait for each other's delays). */
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

	passes = argc > 1 ? atol(argv[1]) : 400;
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < N; i++)
		sum += data[i];
	printf("mutex_compute: %ld passes, checksum %ld\n", passes, sum);
	return 0;
}
