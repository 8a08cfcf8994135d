/*
 * corpus: mp-release-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The article's example fixed: smp_store_release(&flag, 1) after the plain write
 *        and smp_load_acquire(&flag) before the plain read. Release orders the write of
 *        data before the flag, acquire orders the flag read before the data read.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

long data;
int flag;

static void *writer(void *arg)
{
	long v = *(long *)arg;

	data = v;
	smp_store_release(&flag, 1);
	return NULL;
}

static void *reader(void *arg)
{
	long *out = arg;
	long spins = 0;

	while (!smp_load_acquire(&flag)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = data;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		long v = 1000 + i;
		long seen = -1;

		data = 0;
		flag = 0;
		pthread_create(&r, NULL, reader, &seen);
		pthread_create(&w, NULL, writer, &v);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
		if (seen < 0)
			timeouts++;
		else if (seen != v)
			wrong++;
	}
	printf("mp-release-acquire: %d iterations, %d wrong values, %d timeouts\n", iters, wrong, timeouts);
	return 0;
}
