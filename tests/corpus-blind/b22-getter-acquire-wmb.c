/*
 * corpus: getter-acquire-wmb
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Mixed pairing through helpers: the writer orders with smp_wmb() before
 *        WRITE_ONCE(ready); the reader polls through a getter that uses
 *        smp_load_acquire(). wmb + acquire pairs correctly.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

typedef struct {
	int mode;
	int rate;
	int ready;
} port_t;

static port_t ports[3];

static inline int port_ready(port_t *p)
{
	return smp_load_acquire(&p->ready);
}

static void port_configure(port_t *p, int mode, int rate)
{
	p->mode = mode;
	p->rate = rate;
	smp_wmb();
	WRITE_ONCE(p->ready, 1);
}

static void *setup(void *arg)
{
	port_configure(arg, 2, 9600);
	return NULL;
}

static void *use(void *arg)
{
	port_t *p = arg;
	long spins = 0;

	while (!port_ready(p))
		if (!bl_keep_waiting(&spins))
			return NULL;
	if (p->mode != 2 || p->rate != 9600)
		fprintf(stderr, "bad port\n");
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		port_t *p = &ports[i % 3];

		*p = (port_t){ 0 };
		BL_RUN2(setup, p, use, p);
	}
	printf("getter-acquire-wmb: %d iterations\n", iters);
	return 0;
}
