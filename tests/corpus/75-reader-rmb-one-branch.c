/*
 * corpus: reader-rmb-one-branch
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The writer releases the flag (value 1 or 2). The reader reads it with READ_ONCE()
 *        and issues smp_rmb() only when it sees 2; when it sees 1 the plain data read is
 *        unordered after the flag read and races with the writer's store.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct shared {
	int data;
	int flag;
};

static struct shared sh;

static void *writer(void *arg)
{
	struct shared *s = &sh;
	int v = *(int *)arg;

	s->data = v;		// RACE(writer)
	smp_store_release(&s->flag, 1 + (v & 1));
	return NULL;
}

static void *reader(void *arg)
{
	struct shared *s = &sh;
	int *out = arg;
	long spins = 0;
	int f;

	while ((f = READ_ONCE(s->flag)) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	if (f == 2)
		smp_rmb();
	*out = s->data;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		int v = i + 1;
		int seen = -1;

		sh.data = 0;
		sh.flag = 0;
		pthread_create(&r, NULL, reader, &seen);
		pthread_create(&w, NULL, writer, &v);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			stale++;
	}
	printf("reader-rmb-one-branch: %d iterations, %d stale reads, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
