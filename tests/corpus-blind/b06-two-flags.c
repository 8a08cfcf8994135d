/*
 * corpus: two-flags
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: Two payloads with two flags: a is released properly through fa, but b is
 *        written after that release and published with WRITE_ONCE(fb). A release orders
 *        only what precedes it, so b is unordered before fb; the reader of a is fine.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct pair {
	int a;
	int b;
	int fa;
	int fb;
};

static struct pair P;

static void *setter(void *arg)
{
	struct pair *p = arg;

	p->a = 1;
	smp_store_release(&p->fa, 1);
	p->b = 2;			// RACE(writer)
	WRITE_ONCE(p->fb, 1);
	return NULL;
}

static void *getter(void *arg)
{
	struct pair *p = arg;
	long spins = 0;
	int ra = -1, rb;

	while (!smp_load_acquire(&p->fb))
		if (!bl_keep_waiting(&spins))
			return NULL;
	rb = p->b;			// RACE(reader)
	if (smp_load_acquire(&p->fa))
		ra = p->a;
	if (rb != 2 || ra != 1)
		fprintf(stderr, "stale a=%d b=%d\n", ra, rb);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		P = (struct pair){ 0 };
		BL_RUN2(setter, &P, getter, &P);
	}
	printf("two-flags: %d iterations\n", iters);
	return 0;
}
