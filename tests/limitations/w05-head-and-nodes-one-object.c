/*
 * limitation: W5 (docs/limitations.md)
 * lkmm: no-race
 * about: lookup() reads the list head's 'level', set once statically; inserter()
 *        sets a pool node's 'level' before publishing it with a release.
 *        The head and the nodes are one field object, so the head's read is
 *        reported as not ordered after the read of 'next'.  (The node comes
 *        from a static pool: fresh memory published in order is seen by any
 *        reader that follows a pointer, which hides the weakness.)
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <stdlib.h>

struct node { int level; struct node *next; };
static struct node head = { 4, NULL };
static struct node pool[1];

static int lookup(struct node *h)
{
	struct node *p = READ_ONCE(h->next);

	if (p == NULL)
		return -1;
	return h->level;
}

static void *inserter(void *a)
{
	struct node *n = &pool[0];

	n->level = 1;
	n->next = NULL;
	smp_store_release(&head.next, n);
	return a;
}

static void *reader(void *a)
{
	return (void *)(long)lookup(&head);
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], 0, inserter, 0);
	pthread_create(&t[1], 0, reader, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
