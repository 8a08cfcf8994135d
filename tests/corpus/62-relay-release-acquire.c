/*
 * corpus: relay-release-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A relay through a third thread: T1 writes x then releases a; T2 acquires a then
 *        releases b; T3 acquires b then reads x. Release is A-cumulative in LKMM, so the
 *        release-acquire chain orders T1's plain write before T3's plain read.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

static int x;
static int a;
static int b;

static int wait_acquire(int *flag)
{
	long spins = 0;

	while (!smp_load_acquire(flag)) {
		if (++spins > SPIN_LIMIT)
			return 0;
		if (!(spins & 127))
			sched_yield();
	}
	return 1;
}

static void *t1(void *arg)
{
	x = *(int *)arg;
	smp_store_release(&a, 1);
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	if (wait_acquire(&a))
		smp_store_release(&b, 1);
	return NULL;
}

static void *t3(void *arg)
{
	int *out = arg;

	if (wait_acquire(&b))
		*out = x;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p1, p2, p3;
		int v = i + 1;
		int seen = -1;

		x = 0;
		a = 0;
		b = 0;
		pthread_create(&p3, NULL, t3, &seen);
		pthread_create(&p2, NULL, t2, NULL);
		pthread_create(&p1, NULL, t1, &v);
		pthread_join(p1, NULL);
		pthread_join(p2, NULL);
		pthread_join(p3, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("relay-release-acquire: %d iterations, %d stale relays, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
