/*
 * corpus: callback-publish
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: no
 * about: The worker stores its result plainly and then signals completion through a
 *        function pointer whose target does WRITE_ONCE(done). Nothing orders the result
 *        store before the done store, although the waiter acquires done.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct job {
	int arg;
	int result;
	int done;
	void (*complete)(struct job *);
};

static struct job J;

static void mark_done(struct job *j)
{
	WRITE_ONCE(j->done, 1);
}

static int compute(int x)
{
	return x * x + 1;
}

static void *worker(void *p)
{
	struct job *j = p;

	j->result = compute(j->arg);	// RACE(writer)
	j->complete(j);
	return NULL;
}

static void *waiter(void *p)
{
	struct job *j = p;
	long spins = 0;
	int r;

	while (!smp_load_acquire(&j->done))
		if (!bl_keep_waiting(&spins))
			return NULL;
	r = j->result;			// RACE(reader)
	if (r != 50)
		fprintf(stderr, "stale result %d\n", r);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		J = (struct job){ .arg = 7, .complete = mark_done };
		BL_RUN2(worker, &J, waiter, &J);
	}
	printf("callback-publish: %d iterations\n", iters);
	return 0;
}
