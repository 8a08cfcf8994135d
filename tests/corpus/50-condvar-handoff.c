/*
 * corpus: condvar-handoff
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The classic condition-variable hand-off: the plain message and the plain
 *        "posted" predicate are written and read only under the mutex, and the consumer
 *        waits with pthread_cond_wait(). Correctly synchronized.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct mailbox {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int posted;
	long message;
};

static struct mailbox mbx = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

static void *poster(void *arg)
{
	struct mailbox *m = &mbx;

	pthread_mutex_lock(&m->lock);
	m->message = *(long *)arg;
	m->posted = 1;
	pthread_cond_signal(&m->cond);
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

static void *receiver(void *arg)
{
	struct mailbox *m = &mbx;
	long *out = arg;

	pthread_mutex_lock(&m->lock);
	while (!m->posted)
		pthread_cond_wait(&m->cond, &m->lock);
	*out = m->message;
	m->posted = 0;
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t p, r;
		long v = 77 + i;
		long seen = -1;

		pthread_create(&r, NULL, receiver, &seen);
		pthread_create(&p, NULL, poster, &v);
		pthread_join(p, NULL);
		pthread_join(r, NULL);
		if (seen != v)
			wrong++;
	}
	printf("condvar-handoff: %d iterations, %d wrong messages\n", iters, wrong);
	return 0;
}
