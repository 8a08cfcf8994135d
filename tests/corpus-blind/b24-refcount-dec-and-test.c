/*
 * corpus: refcount-dec-and-test
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Each of two threads writes its own part and drops a reference with
 *        obj_put() = atomic_dec_return() == 0 (fully ordered). The thread whose
 *        decrement reaches zero read-from the other's fully ordered decrement, so it
 *        may sum both parts: no race (the classic atomic_dec_and_test() idiom).
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct obj {
	atomic_t ref;
	int part[2];
	int sum;
};

static struct obj O;

static inline int obj_put(struct obj *o)
{
	return atomic_dec_return(&o->ref) == 0;
}

struct role {
	struct obj *o;
	int idx;
};

static void *holder(void *arg)
{
	struct role *r = arg;
	struct obj *o = r->o;

	o->part[r->idx] = r->idx + 10;
	if (obj_put(o))
		o->sum = o->part[0] + o->part[1];
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;
	struct role r0 = { &O, 0 }, r1 = { &O, 1 };

	for (int i = 0; i < iters; i++) {
		O.part[0] = O.part[1] = 0;
		O.sum = 0;
		atomic_set(&O.ref, 2);
		BL_RUN2(holder, &r0, holder, &r1);
		bad += O.sum != 21;
	}
	printf("refcount-dec-and-test: %d iterations, %d bad\n", iters, bad);
	return 0;
}
