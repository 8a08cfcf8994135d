/*
 * limitation: W19 (docs/limitations.md)
 * lkmm: no-race
 * about: pop() returns NULL without a fence, or the node after smp_mb(). The
 *        caller reads 'data' only for a non-NULL result, but the callee's paths
 *        are merged in its summary and the fence is lost.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <stddef.h>

struct node { struct node *next; };
static struct node *top, n0;
static int data;

static struct node *pop(void)
{
	struct node *e = READ_ONCE(top);

	if (e == NULL)
		return NULL;
	smp_mb();
	return e;
}

static void *reader(void *a)
{
	if (pop() == NULL)
		return a;
	return (void *)(long)data;
}

static void *writer(void *a)
{
	data = 1;
	smp_wmb();
	WRITE_ONCE(top, &n0);
	return a;
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], 0, reader, 0);
	pthread_create(&t[1], 0, writer, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
