/*
 * corpus: mutex-all-accesses
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Data and a WRITE_ONCE/READ_ONCE ready flag, but every access to both happens with
 *        the same pthread mutex held. The flag pattern looks like unordered message passing;
 *        the mutex orders it. No data race (a trap for a tool that ignores locks).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define POLL_LIMIT 200000

struct queue {
	pthread_mutex_t lock;
	int item;
	int has_item;
};

static struct queue q = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void *put(void *arg)
{
	struct queue *qp = &q;

	pthread_mutex_lock(&qp->lock);
	qp->item = *(int *)arg;
	WRITE_ONCE(qp->has_item, 1);
	pthread_mutex_unlock(&qp->lock);
	return NULL;
}

static void *get(void *arg)
{
	struct queue *qp = &q;
	int *out = arg;

	for (int polls = 0; polls < POLL_LIMIT; polls++) {
		pthread_mutex_lock(&qp->lock);
		if (READ_ONCE(qp->has_item)) {
			*out = qp->item;
			WRITE_ONCE(qp->has_item, 0);
			pthread_mutex_unlock(&qp->lock);
			return NULL;
		}
		pthread_mutex_unlock(&qp->lock);
		sched_yield();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, g;
		int v = i + 1;
		int seen = -1;

		pthread_create(&g, NULL, get, &seen);
		pthread_create(&p, NULL, put, &v);
		pthread_join(p, NULL);
		pthread_join(g, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			wrong++;
	}
	printf("mutex-all-accesses: %d iterations, %d wrong items, %d timeouts\n", iters, wrong, timeouts);
	return 0;
}
