/*
 * corpus: sb-lost-wakeup
 * lkmm: unordered
 * lacks: both
 * delayed-in-publisher: no
 * about: A waiter announces itself (WRITE_ONCE(waiting, 1)) and then checks the condition
 *        (READ_ONCE(ready)) before it sleeps; the waker sets the condition and then checks
 *        for a waiter before it wakes one.  Store buffering: with no full barrier between
 *        the store and the load on either side, both loads may miss the other's store, the
 *        waiter sleeps and the waker wakes no one (a lost wakeup).  Every access is marked.
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
	WRITE_ONCE(waiting, 1);                 // UNORDERED(writer)
	if (!READ_ONCE(ready)) {                // UNORDERED(reader)
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
	WRITE_ONCE(ready, 1);                   // UNORDERED(writer)
	if (READ_ONCE(waiting))                 // UNORDERED(reader)
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
	printf("sb-lost-wakeup: %d iterations, %ld waits that timed out\n", iters, lost);
	return 0;
}
