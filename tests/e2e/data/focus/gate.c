/*
 * gate.c — focus active, and most of the program's accesses outside the
 * focused code: those must stay on the runtime's inline fast path
 * (runtime/fastpath.h), not leave it for the out-of-line gated path at
 * every access (liburcu's test_urcu spent 20 % of its run there, which
 * made focus cost 1.3-1.65x the throughput of --no-focus).
 *
 * A writer-side candidate (data published by a relaxed WRITE_ONCE in a
 * writer thread, which a reader thread consumes) gives focus its sites;
 * then the main thread, alone, publishes ROUNDS - 1 more times (the
 * focused sites: these may leave the fast path) and makes 2 x SPIN plain
 * accesses to an array in a function of no finding (these must not).  The runtime's verbose=1 line "kcsan: gate: N
 * accesses of the exiting thread left the inline fast path" counts the
 * main thread's departures; the test compares N with ROUNDS and SPIN.
 *
 * Then the main thread runs the reader's code READS more times: a hot
 * focused site (the plain read of data) on a line with an access of
 * another kind (the write of *out).  Past the site's burst, neither may
 * leave the fast path at every execution: the write is not of the
 * candidate's kind, and the read is set aside between its paced watches
 * (runtime/focus.c).
 *
 *   ./gate ROUNDS SPIN [READS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define READ_ONCE(v) (*(const volatile __typeof__(v) *)&(v))
#define WRITE_ONCE(v, val) (*(volatile __typeof__(v) *)&(v) = (val))

static long data;
static long flag;
static long table[64];

/* Not inlined: the delayed access of a watched write of data ends when
 * publish returns, as in a real publisher's loop (focus.sh hot_marked). */
__attribute__((noinline)) static void publish(long v)
{
	data = v;
	WRITE_ONCE(flag, v);
}

static void *writer(void *arg)
{
	publish((long)arg);
	return NULL;
}

static void *reader(void *arg)
{
	long *out = arg;

	if (READ_ONCE(flag))
		*out = data;
	return NULL;
}

/* No finding here: plain accesses of the main thread only. */
__attribute__((noinline)) static long spin(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++) {
		table[i % 64] += i;
		s += table[(i * 7) % 64];
	}
	return s;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;
	long n = argc > 2 ? atol(argv[2]) : 100000;
	long reads = argc > 3 ? atol(argv[3]) : 0;
	long got = 0, s;
	pthread_t w, r;

	pthread_create(&w, NULL, writer, (void *)1L);
	pthread_create(&r, NULL, reader, &got);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	/* The threads are gone: the main thread alone from here. */
	for (long i = 2; i <= rounds; i++)
		publish(i);
	s = spin(n);
	for (long i = 0; i < reads; i++)
		reader(&got);
	printf("%ld %ld\n", got, s);
	return 0;
}
