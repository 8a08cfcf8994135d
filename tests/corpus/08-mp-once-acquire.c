/*
 * corpus: mp-once-acquire
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: Reader is correct (smp_load_acquire on the flag) but the writer publishes with a
 *        plain WRITE_ONCE(): nothing orders the earlier plain write of the buffer length
 *        before the flag write.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct request {
	unsigned long len;
	int done;
};

static struct request req;

static void complete_request(struct request *r, unsigned long len)
{
	r->len = len;		// RACE(writer)
	WRITE_ONCE(r->done, 1);
}

static void *completer(void *arg)
{
	complete_request(&req, *(unsigned long *)arg);
	return NULL;
}

static void *waiter(void *arg)
{
	struct request *r = &req;
	unsigned long *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&r->done)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = r->len;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t c, w;
		unsigned long len = 4096 + (unsigned long)i;
		unsigned long seen = 0;

		req.len = 0;
		req.done = 0;
		pthread_create(&w, NULL, waiter, &seen);
		pthread_create(&c, NULL, completer, &len);
		pthread_join(c, NULL);
		pthread_join(w, NULL);
		if (seen == 0)
			timeouts++;
		else if (seen != len)
			stale++;
	}
	printf("mp-once-acquire: %d iterations, %d stale lengths, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
