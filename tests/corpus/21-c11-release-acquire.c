/*
 * corpus: c11-release-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: C11 message passing with atomic_store_explicit(memory_order_release) and
 *        atomic_load_explicit(memory_order_acquire): the store synchronizes-with the load
 *        that reads it, so the plain payload write happens-before the payload read.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

struct msg {
	int id;
	char text[16];
	atomic_int ready;
};

static struct msg m;

static void *send_msg(void *arg)
{
	struct msg *p = &m;

	p->id = *(int *)arg;
	p->text[0] = 'h';
	atomic_store_explicit(&p->ready, 1, memory_order_release);
	return NULL;
}

static void *recv_msg(void *arg)
{
	struct msg *p = &m;
	int *out = arg;
	long spins = 0;

	while (!atomic_load_explicit(&p->ready, memory_order_acquire)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	if (p->text[0] == 'h')
		*out = p->id;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t s, r;
		int v = i + 1;
		int seen = -1;

		m.id = 0;
		m.text[0] = 0;
		atomic_store_explicit(&m.ready, 0, memory_order_relaxed);
		pthread_create(&r, NULL, recv_msg, &seen);
		pthread_create(&s, NULL, send_msg, &v);
		pthread_join(s, NULL);
		pthread_join(r, NULL);
		if (seen == -1)
			timeouts++;
		else if (seen != v)
			wrong++;
	}
	printf("c11-release-acquire: %d iterations, %d wrong messages, %d timeouts\n", iters, wrong, timeouts);
	return 0;
}
