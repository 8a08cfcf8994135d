/*
 * t1t2.c — the LWN article's example, literally: T1() stores x and sets
 * flag with WRITE_ONCE(), T2() waits for flag with READ_ONCE() and reads x.
 * Each round starts a fresh pair of threads (like the article's two
 * functions run once each).  Must be reported, with the write to x
 * "(reordered)"; with -DFIXED (smp_store_release / smp_load_acquire) never.
 *
 *   ./t1t2 [SECONDS]
 */
#include <sched.h>

#include <kcsan/lkmm.h>

#include "harness.h"

int x, flag, sink;

__attribute__((noinline)) void T1(void)
{
	x = 1;
#ifdef FIXED
	smp_store_release(&flag, 1);
#else
	WRITE_ONCE(flag, 1);
#endif
}

__attribute__((noinline)) void T2(void)
{
	long spins = 0;

#ifdef FIXED
	while (!smp_load_acquire(&flag))
#else
	while (!READ_ONCE(flag))
#endif
		if (++spins % 128 == 0)
			sched_yield();
	sink = x;
}

static void *t1(void *arg) { (void)arg; T1(); return NULL; }
static void *t2(void *arg) { (void)arg; T2(); return NULL; }

int main(int argc, char **argv)
{
	double seconds = harness_seconds(argc, argv, 1, 20);
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		pthread_t a, b;

		x = 0;
		flag = 0;
		pthread_create(&b, NULL, t2, NULL);
		pthread_create(&a, NULL, t1, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (kcsan_rt_reports() == 0 &&
		 (now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
	printf("reports=%lu\n", kcsan_rt_reports());
	return 0;
}
