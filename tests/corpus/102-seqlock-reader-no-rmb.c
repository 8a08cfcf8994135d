/*
 * corpus: seqlock-reader-no-rmb
 * lkmm: unordered
 * lacks: reader
 * delayed-in-publisher: no
 * about: Sequence lock (issue 12, shape 2), its data accessed with ONCE, whose reader has no
 *        smp_rmb() between its first read of the sequence and the data: the data reads can be
 *        satisfied before the sequence read, so a snapshot torn by an update that ends in between
 *        passes validation (both sequence reads see the even value after it).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define UPDATES 200
#define SPIN_LIMIT (1L << 22)

/* A clock read by a sequence lock: a consistent snapshot has sec == nsec.
 * The fields are read and written with ONCE accesses, so that a read that
 * meets an update is no data race, only a value the retry throws away. */
struct clock_snap {
	unsigned seq;   /* odd while an update runs */
	long sec;
	long nsec;
};

static struct clock_snap clk;
static int done;

static void clock_update(struct clock_snap *c, long v)
{
	WRITE_ONCE(c->seq, c->seq + 1);
	smp_wmb();
	WRITE_ONCE(c->sec, v); // UNORDERED(writer)
	WRITE_ONCE(c->nsec, v); // UNORDERED(writer)
	smp_wmb();
	WRITE_ONCE(c->seq, c->seq + 1);
}

/* 1 with a consistent snapshot in *SEC and *NSEC, 0 on a timeout. */
static int clock_read(struct clock_snap *c, long *sec, long *nsec)
{
	unsigned start;
	long spins = 0;

	do {
		if (++spins > SPIN_LIMIT)
			return 0;
		if (!(spins & 127))
			sched_yield();
		start = READ_ONCE(c->seq);
		*sec = READ_ONCE(c->sec); // UNORDERED(reader)
		*nsec = READ_ONCE(c->nsec); // UNORDERED(reader)
		smp_rmb();
	} while ((start & 1) || READ_ONCE(c->seq) != start);
	return 1;
}

static void *writer(void *arg)
{
	(void)arg;
	for (long v = 1; v <= UPDATES; v++)
		clock_update(&clk, v);
	WRITE_ONCE(done, 1);
	return NULL;
}

static void *reader(void *arg)
{
	long *torn = arg, sec, nsec;

	while (!READ_ONCE(done))
		if (clock_read(&clk, &sec, &nsec) && sec != nsec)
			(*torn)++;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long torn = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r;

		clk.seq = 0;
		clk.sec = 0;
		clk.nsec = 0;
		done = 0;
		pthread_create(&r, NULL, reader, &torn);
		pthread_create(&w, NULL, writer, NULL);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
	}
	printf("seqlock-reader-no-rmb: %d iterations, %ld torn snapshots accepted\n", iters, torn);
	return 0;
}
