/*
 * corpus: write-after-release
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: no
 * about: The message header is written before smp_store_release(&ready), but the body
 *        after it (a code-order bug). The acquiring reader's body read races with the
 *        body store; the header is fine.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct msg {
	int hdr;
	int body;
	int ready;
};

static struct msg M;

static void *sender(void *arg)
{
	struct msg *m = arg;

	m->hdr = 1;
	smp_store_release(&m->ready, 1);
	m->body = 2;			// RACE(writer)
	return NULL;
}

static void *receiver(void *arg)
{
	struct msg *m = arg;
	long spins = 0;
	int h, b;

	while (!smp_load_acquire(&m->ready))
		if (!bl_keep_waiting(&spins))
			return NULL;
	h = m->hdr;
	b = m->body;			// RACE(reader)
	if (h != 1 || b != 2)
		fprintf(stderr, "partial message %d %d\n", h, b);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		M = (struct msg){ 0 };
		BL_RUN2(sender, &M, receiver, &M);
	}
	printf("write-after-release: %d iterations\n", iters);
	return 0;
}
