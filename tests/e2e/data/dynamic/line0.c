/*
 * line0.c — a race whose write the compiler places at line 0, for
 * tests/e2e/dynamic.sh: '#line 0' before the increment makes clang give
 * its instructions line 0 in the DWARF line table, as it does for code it
 * merges or generates.  The runtime must not record (nor the report show)
 * a line 0: that side is placed at its caller, writer(), the innermost
 * frame with a line.
 *
 * Usage: ./line0 [SECONDS]  Runs until the runtime has reported a race or
 * SECONDS (default 10) have passed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

unsigned long kcsan_rt_reports(void);

unsigned long hits, sink;
static volatile int stop;

__attribute__((noinline)) static void bump(void)
{
#line 0
	hits++;
#line 26
}

__attribute__((noinline)) static unsigned long peek(void)
{
	return hits;
}

static void *writer(void *arg)
{
	(void)arg;
	while (!stop)
		bump();		/* line 37: where the write is placed */
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	while (!stop)
		sink += peek();
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
