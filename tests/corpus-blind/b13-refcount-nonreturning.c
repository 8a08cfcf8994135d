/*
 * corpus: refcount-nonreturning
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: yes
 * about: Each holder records a statistic and drops its reference with atomic_dec(),
 *        which is unordered; the owner waits for atomic_read() == 0 (unordered too) and
 *        sums the statistics. The other holder's plain store races with the sum.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct obj {
	atomic_t users;
	int stats[2];
};

static struct obj O;

static void *holder(void *arg)
{
	struct obj *o = arg;

	o->stats[1] = 6;		// RACE(writer)
	atomic_dec(&o->users);
	return NULL;
}

static void *owner(void *arg)
{
	struct obj *o = arg;
	long spins = 0;
	int total;

	o->stats[0] = 5;
	atomic_dec(&o->users);
	while (atomic_read(&o->users) != 0)
		if (!bl_keep_waiting(&spins))
			return NULL;
	total = o->stats[0] + o->stats[1];	// RACE(reader)
	if (total != 11)
		fprintf(stderr, "lost stat %d\n", total);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		O.stats[0] = O.stats[1] = 0;
		atomic_set(&O.users, 2);
		BL_RUN2(holder, &O, owner, &O);
	}
	printf("refcount-nonreturning: %d iterations\n", iters);
	return 0;
}
