/*
 * corpus: helper-store-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: no
 * about: The plain stores are made in a helper, init_request(), called just before the
 *        caller publishes with WRITE_ONCE(flag): nothing orders the helper's writes before
 *        the flag, although they happen in a different function from the publication.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct request {
	int opcode;
	long arg;
	int submitted;
};

static struct request rq;

static void init_request(struct request *r, int opcode, long arg)
{
	r->opcode = opcode;		// RACE(writer)
	r->arg = arg;		// RACE(writer)
}

static void submit_request(struct request *r, long arg)
{
	init_request(r, 3, arg);
	WRITE_ONCE(r->submitted, 1);
}

static void *client(void *arg)
{
	submit_request(&rq, *(long *)arg);
	return NULL;
}

static void *server(void *arg)
{
	struct request *r = &rq;
	long *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&r->submitted)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	if (r->opcode == 3)		// RACE(reader)
		*out = r->arg;		// RACE(reader)
	else
		*out = 0;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t c, s;
		long v = 40 + i;
		long seen = -1;

		rq.opcode = 0;
		rq.arg = 0;
		rq.submitted = 0;
		pthread_create(&s, NULL, server, &seen);
		pthread_create(&c, NULL, client, &v);
		pthread_join(c, NULL);
		pthread_join(s, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			bad++;
	}
	printf("helper-store-once: %d iterations, %d bad requests, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
