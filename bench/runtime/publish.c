/* publish.c — runtime benchmark: rcu.c with its bug.  The writer fills a
 * fresh node and publishes it with a *relaxed* store (no release), the bug
 * that passes every test on x86 (TSO keeps the stores in order) and lets a
 * reader see a half-filled node on arm64.  The scan reports it
 * (missing-release), so that, unlike the correct programs of this
 * directory, this one has findings in its innermost loop: it is where
 * `make bench-runtime` measures what focus costs (the runtime reports the
 * race once, and keeps watching).  Same work and rounds as rcu.c; it does
 * not check the fields (x86 never shows the bug). */
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
		atomic_store_explicit(&cur, n, memory_order_relaxed);
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
	printf("publish: %ld nodes, %ld reads, %ld bad\n", total, res[0][0] + res[1][0],
	       res[0][1] + res[1][1]);
	free(nodes);
	return 0;
}
