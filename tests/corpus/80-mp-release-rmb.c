/*
 * corpus: mp-release-rmb
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Mixed pairing the other way round: smp_store_release() on the writer, READ_ONCE()
 *        then smp_rmb() on the reader before the plain read. Correct.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

static short coords[3];
static int coords_seq;

static void *set_position(void *arg)
{
	short v = *(short *)arg;

	coords[0] = v;
	coords[1] = (short)(v + 1);
	coords[2] = (short)(v + 2);
	smp_store_release(&coords_seq, 1);
	return NULL;
}

static void *get_position(void *arg)
{
	int *out = arg;
	long spins = 0;
	short x, y, z;

	while (READ_ONCE(coords_seq) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	smp_rmb();
	x = coords[0];
	y = coords[1];
	z = coords[2];
	*out = (y == x + 1 && z == x + 2) ? x : -2;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		short v = (short)(1 + i % 1000);
		int seen = -1;

		coords[0] = 0;
		coords[1] = 0;
		coords[2] = 0;
		coords_seq = 0;
		pthread_create(&r, NULL, get_position, &seen);
		pthread_create(&w, NULL, set_position, &v);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
		if (seen == -1)
			timeouts++;
		else if (seen != v)
			bad++;
	}
	printf("mp-release-rmb: %d iterations, %d torn positions, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
