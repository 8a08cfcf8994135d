/*
 * pace.c — a writer-side candidate (a plain store published by a relaxed
 * WRITE_ONCE, which a reader consumes) run two ways, for the pacing of
 * focus (focus.c focus_due):
 *
 *   ./pace hot N     the writer publishes N times in a tight loop: past
 *                    its burst the site must be watched about once per
 *                    focus_pace, not once per so many executions;
 *   ./pace rare N    a long-lived writer publishes N times, sleeping
 *                    20 ms in between: each execution must be watched
 *                    (past the burst too), however few they are.
 *
 * In the rare mode the reader waits on a semaphore for each round, so that
 * every candidate site runs once per round, 20 ms apart.  Races may be
 * reported (the pattern is the buggy one); the test looks at the runtime's
 * count of the focused executions it watched (verbose=1, "kcsan: focus:").
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define READ_ONCE(v) (*(const volatile __typeof__(v) *)&(v))
#define WRITE_ONCE(v, val) (*(volatile __typeof__(v) *)&(v) = (val))

static long data;
static long flag;
static long rounds;
static int rare;
static sem_t published;

static void *writer(void *arg)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };

	(void)arg;
	for (long i = 1; i <= rounds; i++) {
		data = i;
		WRITE_ONCE(flag, i);
		if (rare) {
			sem_post(&published);
			nanosleep(&pause, NULL);
		}
	}
	return NULL;
}

static void *reader(void *arg)
{
	long seen = 0, sum = 0;

	while (seen < rounds) {
		long f;

		if (rare)
			sem_wait(&published);
		f = READ_ONCE(flag);
		if (f != seen) {
			seen = f;
			sum += data;
		}
	}
	*(long *)arg = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, r;
	long sum = 0;

	if (argc != 3 || (strcmp(argv[1], "hot") && strcmp(argv[1], "rare"))) {
		fprintf(stderr, "usage: pace hot|rare ROUNDS\n");
		return 2;
	}
	rare = !strcmp(argv[1], "rare");
	rounds = atol(argv[2]);
	sem_init(&published, 0, 0);
	pthread_create(&r, NULL, reader, &sum);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("pace: %ld rounds, sum %ld\n", rounds, sum);
	return 0;
}
