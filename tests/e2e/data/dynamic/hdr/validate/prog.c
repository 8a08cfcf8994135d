/*
 * prog.c — a plain data race between two functions of a header reached
 * through a '..' path (../include/racy.h), for tests/e2e/dynamic.sh: one
 * thread bumps a counter, another reads it, with no lock and no marked
 * access.  Built as 'validate/prog.c' from the directory above, so that
 * the compiler records the header as 'validate/../include/racy.h'.
 *
 * Usage: ./prog [SECONDS]  Runs until the runtime has reported a race or
 * SECONDS (default 10) have passed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "../include/racy.h"

unsigned long kcsan_rt_reports(void);

unsigned long hits, sink;
static volatile int stop;

static void *writer(void *arg)
{
	(void)arg;
	while (!stop)
		racy_bump();
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	while (!stop)
		sink += racy_peek();
	return NULL;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	time_t end = time(NULL) + seconds;
	pthread_t w, r;

	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	while (time(NULL) < end && kcsan_rt_reports() == 0) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	stop = 1;
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	return 0;
}
