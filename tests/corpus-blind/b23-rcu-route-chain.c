/*
 * corpus: rcu-route-chain
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: RCU-style publication with local assign/deref macros (release / READ_ONCE).
 *        The reader reaches every plain field through an address dependency on a
 *        marked pointer load, hop by hop (route, then route->ex via the deref macro).
 */
#include "bl.h"
#include <kcsan/lkmm.h>

#define my_assign_pointer(p, v)	smp_store_release(&(p), (v))
#define my_deref(p)		READ_ONCE(p)

struct route_extra {
	int mtu;
};

struct route {
	int dst;
	int metric;
	struct route_extra *ex;
};

static struct route rt_store[2];
static struct route_extra ex_store[2];
static struct route *cur_route;

static void *updater(void *arg)
{
	int k = *(int *)arg;
	struct route *r = &rt_store[k];
	struct route_extra *e = &ex_store[k];

	e->mtu = 1500;
	r->dst = 5;
	r->metric = 1;
	r->ex = e;
	my_assign_pointer(cur_route, r);
	return NULL;
}

static void *forwarder(void *arg)
{
	int *bad = arg;
	struct route *r;
	struct route_extra *e;
	long spins = 0;

	while (!(r = my_deref(cur_route)))
		if (!bl_keep_waiting(&spins))
			return NULL;
	e = my_deref(r->ex);
	*bad += r->dst != 5 || r->metric != 1 || e->mtu != 1500;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		int k = i & 1;

		rt_store[k] = (struct route){ 0 };
		ex_store[k] = (struct route_extra){ 0 };
		cur_route = NULL;
		BL_RUN2(updater, &k, forwarder, &bad);
	}
	printf("rcu-route-chain: %d iterations, %d bad\n", iters, bad);
	return 0;
}
