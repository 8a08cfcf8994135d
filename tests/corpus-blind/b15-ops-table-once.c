/*
 * corpus: ops-table-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: An operations table (function pointer + parameter) is filled plainly and
 *        installed with WRITE_ONCE(active, &ops_a); the caller acquires active and calls
 *        through it. The table stores are not ordered before the install.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

typedef int (*xform_fn)(int);

struct ops {
	xform_fn fn;
	int scale;
};

static int twice(int v)
{
	return 2 * v;
}

static struct ops ops_a;
static struct ops *active;

static void *installer(void *arg)
{
	(void)arg;
	ops_a.fn = twice;		// RACE(writer)
	ops_a.scale = 3;		// RACE(writer)
	WRITE_ONCE(active, &ops_a);
	return NULL;
}

static void *caller(void *arg)
{
	int *out = arg;
	struct ops *o;
	long spins = 0;

	while (!(o = smp_load_acquire(&active)))
		if (!bl_keep_waiting(&spins))
			return NULL;
	if (o->fn)			// RACE(reader)
		*out = o->fn(o->scale);	// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		int out = 0;

		ops_a = (struct ops){ 0 };
		active = NULL;
		BL_RUN2(installer, NULL, caller, &out);
		bad += out != 6;
	}
	printf("ops-table-once: %d iterations, %d bad\n", iters, bad);
	return 0;
}
