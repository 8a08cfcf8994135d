/*
 * corpus: all-once-struct
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A sensor record whose every shared field is written with WRITE_ONCE() and read
 *        with READ_ONCE(), including the valid flag. Stale combinations are possible,
 *        but with no plain access there is no data race by definition.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

typedef struct {
	int temp;
	int humid;
	int valid;
} sensor_t;

static sensor_t sensors[2];

static void *sample(void *arg)
{
	sensor_t *s = arg;

	WRITE_ONCE(s->temp, 21);
	WRITE_ONCE(s->humid, 40);
	WRITE_ONCE(s->valid, 1);
	return NULL;
}

static void *display(void *arg)
{
	sensor_t *s = arg;
	long spins = 0;
	int t, h;

	while (!READ_ONCE(s->valid))
		if (!bl_keep_waiting(&spins))
			return NULL;
	t = READ_ONCE(s->temp);
	h = READ_ONCE(s->humid);
	if (t != 21 || h != 40)
		fprintf(stderr, "stale sensor (allowed)\n");
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		sensor_t *s = &sensors[i & 1];

		*s = (sensor_t){ 0 };
		BL_RUN2(sample, s, display, s);
	}
	printf("all-once-struct: %d iterations\n", iters);
	return 0;
}
