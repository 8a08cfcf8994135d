/*
 * mp.c — message passing as a ping-pong, for tests/e2e/dynamic.sh: the
 * writer publishes x through flag (the round number), the reader consumes x
 * and acknowledges through ack, over and over, so that the statistical
 * detector gets many chances.  (A separate ack flag, not flag handed back,
 * so that each flag has one writer and one reader.)
 *
 *   buggy (default):  x = v; WRITE_ONCE(flag, v)        | wait READ_ONCE(flag); r = x;
 *   fixed (-DFIXED):  x = v; smp_store_release(&flag..) | wait smp_load_acquire(&flag); r = x;
 *
 * Usage: ./mp [SECONDS [abort]]  Runs until the runtime has reported a race
 * or SECONDS (default 10) have passed; prints "reports=N".  With "abort",
 * calls abort() right after the first report (the report must survive).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kcsan/lkmm.h>

unsigned long kcsan_rt_reports(void);

int x, flag, ack;
static int stop;

/* Flags are named directly, not through *(&flag): each access site then
 * names its object for the static pass. */
#ifdef FIXED
#define PUBLISH(var, v)	smp_store_release(&var, v)
#define CONSUME(var)	smp_load_acquire(&var)
#else
#define PUBLISH(var, v)	WRITE_ONCE(var, v)
#define CONSUME(var)	READ_ONCE(var)
#endif

/* One sink per thread: the test itself must be race-free. */
static long wsink, rsink;

/* noinline: each access keeps its own function and source line. */
__attribute__((noinline)) void publish(int v)
{
	while (CONSUME(ack) != v - 1)
		if (READ_ONCE(stop))
			return;
	x = v;			/* the race of the buggy twin */
	PUBLISH(flag, v);
	/* More accesses in this function: the delayed x is checked again
	 * after flag has been published. */
	for (int i = 0; i < 4; i++)
		wsink += READ_ONCE(stop);
}

__attribute__((noinline)) int consume(int last)
{
	int r, f;

	while ((f = CONSUME(flag)) == last)
		if (READ_ONCE(stop))
			return last;
	r = x;			/* the race of the buggy twin */
	PUBLISH(ack, f);
	for (int i = 0; i < 4; i++)
		rsink += READ_ONCE(stop) + r;
	return f;
}

void *writer(void *arg)
{
	(void)arg;
	for (int v = 1; !READ_ONCE(stop); v++)
		publish(v);
	return NULL;
}

void *reader(void *arg)
{
	int last = 0;

	(void)arg;
	while (!READ_ONCE(stop))
		last = consume(last);
	return NULL;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	int do_abort = argc > 2 && strcmp(argv[2], "abort") == 0;
	time_t end = time(NULL) + seconds;
	pthread_t w, r;

	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&w, NULL, writer, NULL);
	while (time(NULL) < end && kcsan_rt_reports() == 0) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (do_abort && kcsan_rt_reports())
		abort();
	WRITE_ONCE(stop, 1);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("reports=%lu\n", kcsan_rt_reports());
	return 0;
}
