/*
 * corpus: mp-store-mb
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: smp_store_mb(flag, 1) is WRITE_ONCE(flag, 1) followed by smp_mb(): the full
 *        barrier comes after the flag store, so the earlier plain data write is not
 *        ordered before the flag. The reader's smp_load_acquire() is correct.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

int token;
int token_posted;

static void *poster(void *arg)
{
	token = *(int *)arg;		// RACE(writer)
	smp_store_mb(token_posted, 1);
	return NULL;
}

static void *taker(void *arg)
{
	int *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&token_posted)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = token;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, t;
		int v = 3 * i + 1;
		int seen = -1;

		token = 0;
		token_posted = 0;
		pthread_create(&t, NULL, taker, &seen);
		pthread_create(&p, NULL, poster, &v);
		pthread_join(p, NULL);
		pthread_join(t, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("mp-store-mb: %d iterations, %d stale tokens, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
