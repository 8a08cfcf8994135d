/*
 * corpus: mp-rmb-on-writer
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The writer uses the wrong barrier kind: smp_rmb() between the data write and
 *        WRITE_ONCE(flag) orders only reads, so the data write may become visible after
 *        the flag. The reader's READ_ONCE + smp_rmb() side is correct.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

int msg;
int msg_valid;

static void *sender(void *arg)
{
	int v = *(int *)arg;

	msg = v;		// RACE(writer)
	smp_rmb();
	WRITE_ONCE(msg_valid, 1);
	return NULL;
}

static void *receiver(void *arg)
{
	int *out = arg;
	long spins = 0;

	while (!READ_ONCE(msg_valid)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	smp_rmb();
	*out = msg;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t s, r;
		int v = i + 7;
		int seen = -1;

		msg = 0;
		msg_valid = 0;
		pthread_create(&r, NULL, receiver, &seen);
		pthread_create(&s, NULL, sender, &v);
		pthread_join(s, NULL);
		pthread_join(r, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("mp-rmb-on-writer: %d iterations, %d stale messages, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
