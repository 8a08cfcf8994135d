/*
 * wmb-rmb-queue: hand work items from a producer to a consumer through a
 * queue of slots.
 *
 * The producer fills a slot's op and arg, issues smp_wmb() so that those
 * stores are visible before the next one, and sets slot->ready.  The
 * consumer waits for slot->ready and then reads op and arg.  A write
 * barrier only does half the job: it must pair with a read barrier
 * (smp_rmb()) or an acquire on the reader side, or the consumer's loads of
 * op and arg may be satisfied before its load of ready and see the slot as
 * it was before the producer filled it.
 *
 * buggy.c: smp_wmb() in the producer, no barrier in the consumer.
 * fixed.c: smp_wmb() in the producer, paired with smp_rmb() in the consumer.
 *
 * Usage: ./prog [ITEMS]   (default 20000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcsan/lkmm.h>

enum { OP_NONE, OP_ADD, OP_SUB };

struct work_item {
	int ready;	/* set to 1 once op and arg are valid */
	int op;		/* OP_ADD or OP_SUB */
	long arg;
};

/* Producer: fill a free slot and hand it to the consumer. */
static void work_post(struct work_item *w, int op, long arg)
{
	w->op = op;
	w->arg = arg;
	smp_wmb();
	WRITE_ONCE(w->ready, 1);
}

/* Consumer: wait until the slot has been posted, then run the work item. */
static long work_run(struct work_item *w, long total)
{
	int op;
	long arg;

	while (!READ_ONCE(w->ready))
		;
	smp_rmb();
	op = w->op;
	arg = w->arg;
	switch (op) {
	case OP_ADD:
		return total + arg;
	case OP_SUB:
		return total - arg;
	default:			/* a slot read before it was filled */
		return total;
	}
}

static struct work_item *queue;
static int nitems;

static void *producer_thread(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < nitems; i++)
		work_post(&queue[i], i % 3 ? OP_ADD : OP_SUB, i);
	return NULL;
}

static void *consumer_thread(void *arg)
{
	long *total = arg;
	int i;

	for (i = 0; i < nitems; i++)
		*total = work_run(&queue[i], *total);
	return NULL;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "wmb-rmb-queue: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	pthread_t producer, consumer;
	long total = 0, expected = 0;
	int i;

	nitems = argc > 1 ? atoi(argv[1]) : 20000;
	queue = calloc(nitems > 0 ? nitems : 1, sizeof(*queue));
	if (!queue) {
		perror("wmb-rmb-queue: calloc");
		return 1;
	}
	for (i = 0; i < nitems; i++)
		expected += i % 3 ? i : -i;
	check(pthread_create(&consumer, NULL, consumer_thread, &total), "pthread_create");
	check(pthread_create(&producer, NULL, producer_thread, NULL), "pthread_create");
	check(pthread_join(producer, NULL), "pthread_join");
	check(pthread_join(consumer, NULL), "pthread_join");
	printf("wmb-rmb-queue: %d work items run, total = %ld (expected %ld)%s\n",
	       nitems, total, expected, total == expected ? "" : ": STALE ITEMS");
	free(queue);
	return 0;
}
