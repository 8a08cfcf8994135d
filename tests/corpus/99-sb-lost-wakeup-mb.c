/*
 * corpus: sb-lost-wakeup-mb
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 98 with smp_mb() between the store and the load on both sides (the
 *        kernel's set_current_state()/wake_up() pairing): at least one of the two loads sees
 *        the other side's store, so a waiter that sleeps is always woken.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

static int waiting, ready, wakeups;

static void *waiter(void *arg)
{
	long lost = 0;

	(void)arg;
	WRITE_ONCE(waiting, 1);
	smp_mb();
	if (!READ_ONCE(ready)) {
		/* "sleep": wait a while for a wakeup (a real waiter would block here) */
		long spins = 0;

		while (!READ_ONCE(wakeups) && !READ_ONCE(ready) && spins < 100000)
			spins++;
		lost = spins == 100000;
	}
	return (void *)lost;
}

static void *waker(void *arg)
{
	(void)arg;
	WRITE_ONCE(ready, 1);
	smp_mb();
	if (READ_ONCE(waiting))
		WRITE_ONCE(wakeups, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200;
	long lost = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, k;
		void *r;

		WRITE_ONCE(waiting, 0);
		WRITE_ONCE(ready, 0);
		WRITE_ONCE(wakeups, 0);
		pthread_create(&w, NULL, waiter, NULL);
		pthread_create(&k, NULL, waker, NULL);
		pthread_join(w, &r);
		pthread_join(k, NULL);
		lost += (long)r;
	}
	printf("sb-lost-wakeup-mb: %d iterations, %ld waits that timed out\n", iters, lost);
	return 0;
}
