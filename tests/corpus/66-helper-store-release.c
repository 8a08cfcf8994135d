/*
 * corpus: helper-store-release
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Fixed twin of helper-store-once: the helper's plain stores are followed, in the
 *        caller, by smp_store_release(&submitted, 1), which orders all earlier writes
 *        (including those made in the callee) before the flag.
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
	r->opcode = opcode;
	r->arg = arg;
}

static void submit_request(struct request *r, long arg)
{
	init_request(r, 3, arg);
	smp_store_release(&r->submitted, 1);
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
	if (r->opcode == 3)
		*out = r->arg;
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
	printf("helper-store-release: %d iterations, %d bad requests, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
