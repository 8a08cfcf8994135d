/*
 * corpus: fifo-push-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: SPSC fifo whose push helper stores the slot plainly and then advances the tail
 *        with WRITE_ONCE(); the pop helper acquires the tail. The slot stores are not
 *        ordered before the tail store, so the consumer can read a stale slot.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

#define QSZ 8

typedef struct {
	int key;
	int val;
} item_t;

struct fifo {
	item_t ring[QSZ];
	unsigned int tail;
};

static struct fifo the_q;

static void fifo_push(struct fifo *f, int k, int v)
{
	unsigned int t = f->tail;

	f->ring[t % QSZ].key = k;	// RACE(writer)
	f->ring[t % QSZ].val = v;	// RACE(writer)
	WRITE_ONCE(f->tail, t + 1);
}

static int fifo_pop(struct fifo *f, unsigned int head, item_t *out)
{
	if (smp_load_acquire(&f->tail) == head)
		return 0;
	out->key = f->ring[head % QSZ].key;	// RACE(reader)
	out->val = f->ring[head % QSZ].val;	// RACE(reader)
	return 1;
}

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= 4; i++)
		fifo_push(&the_q, i, i * 10);
	return NULL;
}

static void *consumer(void *arg)
{
	int *bad = arg;
	unsigned int head = 0;
	long spins = 0;
	item_t it;

	while (head < 4) {
		if (!fifo_pop(&the_q, head, &it)) {
			if (!bl_keep_waiting(&spins))
				return NULL;
			continue;
		}
		if (it.val != it.key * 10)
			(*bad)++;
		head++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		the_q = (struct fifo){ 0 };
		BL_RUN2(producer, NULL, consumer, &bad);
	}
	printf("fifo-push-once: %d iterations, %d bad items\n", iters, bad);
	return 0;
}
