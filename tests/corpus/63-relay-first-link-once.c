/*
 * corpus: relay-first-link-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The three-thread relay with T1 publishing a by WRITE_ONCE(): T2 and T3 use a
 *        correct release-acquire chain, but T1's plain write of x is not ordered before
 *        a, so the chain carries nothing about x and T3's read of x races.
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
	x = *(int *)arg;		// RACE(writer)
	WRITE_ONCE(a, 1);
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
		*out = x;		// RACE(reader)
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
	printf("relay-first-link-once: %d iterations, %d stale relays, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
