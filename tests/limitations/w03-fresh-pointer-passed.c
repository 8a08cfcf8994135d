/*
 * limitation: W3 (docs/limitations.md)
 * lkmm: no-race
 * about: A new node is initialised partly by a helper (init_node(n, k)) and partly
 *        by the caller (n->data = d), then published by a release store. The
 *        call ends n's freshness in the caller, so n->data = d is taken as a
 *        shared write and paired with 'state', which publishes nothing about n.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <stdlib.h>

struct node { int key; void *data; struct node *next; };
static struct node *head;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int state;

static void init_node(struct node *n, int k)
{
	n->key = k;
}

static void insert(int k, void *d)
{
	struct node *n = malloc(sizeof(*n));

	if (!n)
		abort();
	init_node(n, k);
	n->data = d;
	pthread_mutex_lock(&lock);
	n->next = head;
	smp_store_release(&head, n);
	pthread_mutex_unlock(&lock);
}

static void *loader(void *a)
{
	insert(1, a);
	WRITE_ONCE(state, 1);
	return a;
}

static void *updater(void *a)
{
	if (READ_ONCE(state))
		insert(2, a);
	return a;
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], 0, loader, 0);
	pthread_create(&t[1], 0, updater, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
