/*
 * mp.c — message passing, the LWN article's example, as a ping-pong so that
 * it repeats: the writer publishes x through flag, the reader consumes x and
 * hands flag back.
 *
 *   buggy (default):  x = v; WRITE_ONCE(flag, 1)     | while (!READ_ONCE(flag)); r = x;
 *                     (and back: WRITE_ONCE(flag, 0))
 *   fixed (-DFIXED):  x = v; smp_store_release(..)    | while (!smp_load_acquire(..)); r = x;
 *
 * Runs until the runtime has printed a report or until argv[1] seconds
 * have passed (default 20); prints "reports=N" and exits 0.  The test
 * script decides what N must be.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <kcsan/lkmm.h>

/* Non-static functions: their names are in the dynamic symbol table (linked
 * with -rdynamic) and so in the reports. */
void writer_once(int v);
void reader_once(void);
void *writer(void *arg);
void *reader(void *arg);

unsigned long kcsan_rt_reports(void);

static int x, flag;
static int stop;		/* only accessed with READ_ONCE/WRITE_ONCE */
/* One sink per thread: the test itself must be race-free. */
static long wsink, rsink;

#ifdef FIXED
# define PUBLISH(p, v)	smp_store_release(p, v)
# define CONSUME(p)	smp_load_acquire(p)
#else
# define PUBLISH(p, v)	WRITE_ONCE(*(p), v)
# define CONSUME(p)	READ_ONCE(*(p))
#endif

__attribute__((noinline)) void writer_once(int v)
{
	while (CONSUME(&flag) != 0) {
		if (READ_ONCE(stop))
			return;
	}
	x = v;			/* data race in the buggy twin */
	PUBLISH(&flag, 1);
	/* A few more accesses inside this function: the delayed x is
	 * checked again after flag has been published. */
	for (int i = 0; i < 4; i++)
		wsink += READ_ONCE(stop);
}

__attribute__((noinline)) void reader_once(void)
{
	int r;

	while (CONSUME(&flag) != 1) {
		if (READ_ONCE(stop))
			return;
	}
	r = x;			/* data race in the buggy twin */
	PUBLISH(&flag, 0);
	for (int i = 0; i < 4; i++)
		rsink += READ_ONCE(stop) + r;
}

void *writer(void *arg)
{
	(void)arg;
	for (int v = 1; !READ_ONCE(stop); v++)
		writer_once(v);
	return NULL;
}

void *reader(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop))
		reader_once();
	return NULL;
}

int main(int argc, char **argv)
{
	double limit = argc > 1 ? atof(argv[1]) : 20.0;
	struct timespec t0, t;
	pthread_t a, b;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, reader, NULL);
	for (;;) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (kcsan_rt_reports() > 0 ||
		    (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 > limit)
			break;
	}
	WRITE_ONCE(stop, 1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("reports=%lu elapsed=%.2fs\n", kcsan_rt_reports(),
	       (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}
