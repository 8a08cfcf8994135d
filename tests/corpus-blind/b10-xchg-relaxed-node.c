/*
 * corpus: xchg-relaxed-node
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: A node is initialised and pushed by xchg_relaxed(&head, n); the reader
 *        dereferences READ_ONCE(head) (address dependency: reader fine). The relaxed
 *        exchange orders nothing before it, so the node fields race.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct node {
	int key;
	int payload;
	struct node *next;
};

static struct node pool[2];
static struct node *head;

static void *pusher(void *arg)
{
	struct node *n = arg, *old;

	n->key = 7;			// RACE(writer)
	n->payload = 70;		// RACE(writer)
	old = xchg_relaxed(&head, n);
	n->next = old;
	return NULL;
}

static void *peeker(void *arg)
{
	int *bad = arg;
	struct node *p;
	long spins = 0;

	while (!(p = READ_ONCE(head)))
		if (!bl_keep_waiting(&spins))
			return NULL;
	if (p->payload != 70)		// RACE(reader)
		(*bad)++;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		struct node *n = &pool[i & 1];

		*n = (struct node){ 0 };
		head = NULL;
		BL_RUN2(pusher, n, peeker, &bad);
	}
	printf("xchg-relaxed-node: %d iterations, %d bad\n", iters, bad);
	return 0;
}
