/* rcu.c — runtime benchmark: RCU-like pointer publication.  The writer
 * fills a fresh node (plain stores) and publishes it with a release store;
 * two readers load it with acquire and read its fields (plain loads).
 * Nodes are never reused during the run.  ./rcu [NODES] */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
	long a, b, c, d;
};
static struct node *nodes;
static _Atomic(struct node *) cur;
static atomic_int done;
static long nnodes;

static void *writer(void *arg)
{
	(void)arg;
	for (long i = 1; i < nnodes; i++) {
		struct node *n = &nodes[i];

		n->a = i;
		n->b = 2 * i;
		n->c = 3 * i;
		n->d = n->a + n->b + n->c;
		atomic_store_explicit(&cur, n, memory_order_release);
	}
	atomic_store(&done, 1);
	return NULL;
}

static void *reader(void *arg)
{
	long reads = 0, bad = 0;

	while (!atomic_load_explicit(&done, memory_order_acquire)) {
		for (int k = 0; k < 16; k++) {
			struct node *n = atomic_load_explicit(&cur, memory_order_acquire);

			bad += n->d != n->a + n->b + n->c;
			reads++;
		}
	}
	((long *)arg)[0] = reads;
	((long *)arg)[1] = bad;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, r[2];
	long res[2][2];

	nnodes = argc > 1 ? atol(argv[1]) : 2000000;
	nodes = calloc((size_t)nnodes, sizeof(*nodes));
	if (!nodes)
		return 2;
	atomic_store(&cur, &nodes[0]);
	for (int i = 0; i < 2; i++)
		pthread_create(&r[i], NULL, reader, res[i]);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(w, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(r[i], NULL);
	printf("rcu: %ld nodes, %ld reads, %ld bad\n", nnodes, res[0][0] + res[1][0],
	       res[0][1] + res[1][1]);
	free(nodes);
	return res[0][1] + res[1][1] != 0;
}
