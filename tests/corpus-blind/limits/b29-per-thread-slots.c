/*
 * corpus: per-thread-slots
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Two threads each own one element of a padded per-thread array and count into
 *        it plainly, bumping a shared heartbeat with WRITE_ONCE() and watching it with
 *        READ_ONCE(). No thread touches another's slot; main sums after join. The
 *        elements are distinct objects, so there is no race.
 */
#include "../bl.h"
#include <kcsan/lkmm.h>

struct pcpu {
	long cnt;
	char pad[56];
};

static struct pcpu slot[2];
static int heartbeat;

static void *spin_count(void *arg)
{
	int me = *(int *)arg;

	for (int k = 0; k < 100; k++) {
		slot[me].cnt++;
		WRITE_ONCE(heartbeat, k);
		if (READ_ONCE(heartbeat) > 50)
			slot[me].cnt += 0;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;
	int id0 = 0, id1 = 1;

	for (int i = 0; i < iters; i++) {
		slot[0].cnt = slot[1].cnt = 0;
		heartbeat = 0;
		BL_RUN2(spin_count, &id0, spin_count, &id1);
		bad += slot[0].cnt + slot[1].cnt != 200;
	}
	printf("per-thread-slots: %d iterations, %d bad\n", iters, bad);
	return 0;
}
