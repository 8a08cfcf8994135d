/* rcu.c — runtime benchmark: RCU-like pointer publication.  The writer
 * fills a fresh node (plain stores) and publishes it with a release store;
 * two readers load it with acquire and read its fields (plain loads).
 * ./rcu [NODES]: NODES published, and as many reads by each reader (a fixed
 * amount of work per thread: readers that ran until the writer was done
 * made the run time the writer's alone, fast or slow with whether the
 * readers got a CPU).
 *
 * The nodes are published in rounds of at most ROUND_NODES: a round starts
 * the three threads on a zeroed array and joins them, so that no node is
 * reused while a reader may still hold it (the joins are the grace period)
 * and the memory used does not grow with NODES: the benchmark scales the
 * work with NODES, and compares peak RSS across builds. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUND_NODES	(1L << 20)	/* 32 MiB of nodes */

struct node {
	long a, b, c, d;
};
static struct node *nodes;
static _Atomic(struct node *) cur;
static long nnodes;		/* nodes (and reads per reader) of the round */

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
	return NULL;
}

static void *reader(void *arg)
{
	long reads = 0, bad = 0;

	for (long i = 0; i < nnodes; i++) {
		struct node *n = atomic_load_explicit(&cur, memory_order_acquire);

		bad += n->d != n->a + n->b + n->c;
		reads++;
	}
	((long *)arg)[0] += reads;
	((long *)arg)[1] += bad;
	return NULL;
}

int main(int argc, char **argv)
{
	long total = argc > 1 ? atol(argv[1]) : 2000000;
	long res[2][2] = { { 0, 0 }, { 0, 0 } };

	nodes = malloc(ROUND_NODES * sizeof(*nodes));
	if (!nodes)
		return 2;
	for (long left = total; left > 0; left -= nnodes) {
		pthread_t w, r[2];

		nnodes = left < ROUND_NODES ? left : ROUND_NODES;
		/* Fresh nodes for the round; pthread_create orders these
		 * stores before the threads' accesses. */
		memset(nodes, 0, (size_t)nnodes * sizeof(*nodes));
		atomic_store(&cur, &nodes[0]);
		for (int i = 0; i < 2; i++)
			pthread_create(&r[i], NULL, reader, res[i]);
		pthread_create(&w, NULL, writer, NULL);
		pthread_join(w, NULL);
		for (int i = 0; i < 2; i++)
			pthread_join(r[i], NULL);
	}
	printf("rcu: %ld nodes, %ld reads, %ld bad\n", total, res[0][0] + res[1][0],
	       res[0][1] + res[1][1]);
	free(nodes);
	return res[0][1] + res[1][1] != 0;
}
