/*
 * corpus: index-publish-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: A slot of an array of structs is filled and its index published with
 *        WRITE_ONCE(); the reader's slots[i] accesses are address-dependent on the index
 *        (reader side fine) but the writer never orders the slot before the index.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct slot {
	int v;
	int gen;
};

static struct slot slots[4];
static int cur = -1;

static void *publisher(void *arg)
{
	int k = *(int *)arg;

	slots[k].v = 42;		// RACE(writer)
	slots[k].gen = 1;		// RACE(writer)
	WRITE_ONCE(cur, k);
	return NULL;
}

static void *lookup(void *arg)
{
	(void)arg;
	long spins = 0;
	int i;

	while ((i = READ_ONCE(cur)) < 0)
		if (!bl_keep_waiting(&spins))
			return NULL;
	if (slots[i].v != 42)		// RACE(reader)
		fprintf(stderr, "stale slot\n");
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		int k = i & 3;

		for (int s = 0; s < 4; s++)
			slots[s] = (struct slot){ 0 };
		cur = -1;
		BL_RUN2(publisher, &k, lookup, NULL);
	}
	printf("index-publish-once: %d iterations\n", iters);
	return 0;
}
