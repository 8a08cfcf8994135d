/*
 * corpus: single-thread-data
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The writer updates its own private plain scratch state before WRITE_ONCE(flag),
 *        and the reader does plain reads after READ_ONCE(flag), but of its own private
 *        state: the plain accesses on the two sides touch different objects. No data race.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

static long writer_scratch[4];	/* only the writer thread touches this */
static long reader_scratch[4];	/* only the reader thread touches this */
static int tick;

static void *writer(void *arg)
{
	long v = *(long *)arg;

	writer_scratch[0] = v;
	writer_scratch[1] = writer_scratch[0] * 2;
	WRITE_ONCE(tick, 1);
	return (void *)writer_scratch[1];
}

static void *reader(void *arg)
{
	long spins = 0;

	(void)arg;
	reader_scratch[0] = 5;
	while (!READ_ONCE(tick)) {
		if (++spins > SPIN_LIMIT)
			return (void *)-1L;
		if (!(spins & 127))
			sched_yield();
	}
	reader_scratch[1] = reader_scratch[0] + 1;
	return (void *)reader_scratch[1];
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int wrong = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;
		long v = i;
		void *rw, *rr;

		tick = 0;
		pthread_create(&r, NULL, reader, NULL);
		pthread_create(&w, NULL, writer, &v);
		pthread_join(w, &rw);
		pthread_join(r, &rr);
		if ((long)rr == -1)
			timeouts++;
		else if ((long)rr != 6 || (long)rw != 2 * v)
			wrong++;
	}
	printf("single-thread-data: %d iterations, %d wrong, %d timeouts\n", iters, wrong, timeouts);
	return 0;
}
