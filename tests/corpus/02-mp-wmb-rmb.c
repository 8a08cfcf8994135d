/*
 * corpus: mp-wmb-rmb
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Message passing through a struct: the producer writes the payload, smp_wmb(),
 *        then WRITE_ONCE(ready); the consumer READ_ONCE(ready), smp_rmb(), then reads the
 *        payload. The wmb/rmb pair orders write->write and read->read: no data race.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct mailbox {
	int payload;
	int ready;
};

static struct mailbox box;

static void *producer(void *arg)
{
	struct mailbox *mb = &box;
	int v = *(int *)arg;

	mb->payload = v;
	smp_wmb();
	WRITE_ONCE(mb->ready, 1);
	return NULL;
}

static void *consumer(void *arg)
{
	struct mailbox *mb = &box;
	int *out = arg;
	long spins = 0;

	while (!READ_ONCE(mb->ready)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	smp_rmb();
	*out = mb->payload;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, c;
		int v = i + 1;
		int seen = -1;

		box.payload = 0;
		box.ready = 0;
		pthread_create(&c, NULL, consumer, &seen);
		pthread_create(&p, NULL, producer, &v);
		pthread_join(p, NULL);
		pthread_join(c, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			wrong++;
	}
	printf("mp-wmb-rmb: %d iterations, %d wrong payloads, %d timeouts\n", iters, wrong, timeouts);
	return 0;
}
