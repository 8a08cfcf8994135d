/*
 * watchers.c — while one thread's focused watches keep a watchpoint set up
 * most of the time, another thread's accesses to memory no watchpoint is
 * near must stay on the runtime's inline fast path (runtime/fastpath.h).
 * They used to leave it for kcsan_check_gated at every access made while
 * any watchpoint existed: liburcu's test_urcu, whose focused watches are
 * in its writers, sent 5 % of its readers' accesses out of line.
 *
 * A writer thread publishes (data, then a relaxed WRITE_ONCE of flag: a
 * writer-side candidate, which reader() pairs with) until told to stop;
 * with every execution of its site focused (focus_burst large) it sleeps
 * in watch windows as much as the delay budget allows.  Meanwhile the main
 * thread makes 2 x SPIN plain accesses to a table on a page whose
 * watchpoint slots (the page's and its two neighbours', 64 slots chosen by
 * page) are not those of data's or flag's page.  The runtime's verbose=1
 * line "kcsan: gate: N accesses of the exiting thread left the inline fast
 * path" counts the main thread's departures; the test compares N with SPIN.
 *
 *   ./watchers SPIN
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define READ_ONCE(v) (*(const volatile __typeof__(v) *)&(v))
#define WRITE_ONCE(v, val) (*(volatile __typeof__(v) *)&(v) = (val))

static long data;
static long flag;
static int stop;

static void publish(long v)
{
	data = v;
	WRITE_ONCE(flag, v);
}

static void *writer(void *arg)
{
	long i = 0;

	while (!READ_ONCE(stop))
		publish(++i);
	return arg;
}

static void *reader(void *arg)
{
	long *out = arg;

	if (READ_ONCE(flag))
		*out = data;
	return NULL;
}

/* The slot of the page of p (runtime/fastpath.h: 4096-byte pages, 64). */
static unsigned long slot_of(const void *p)
{
	return ((uintptr_t)p >> 12) % 64;
}

/* A page of region (66 pages) whose slot is at least 3 from those of data
 * and flag: none of the three slots either looks at is one of its. */
static long *far_page(char *region)
{
	for (int i = 0; i < 66; i++) {
		char *p = region + (size_t)i * 4096;
		unsigned long a = (slot_of(p) - slot_of(&data) + 64) % 64;
		unsigned long b = (slot_of(p) - slot_of(&flag) + 64) % 64;

		if (a >= 3 && a <= 61 && b >= 3 && b <= 61)
			return (long *)p;
	}
	return NULL;
}

/* No finding here: plain accesses of the main thread only. */
__attribute__((noinline)) static long spin(long *table, long n)
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
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	long got = 0, s;
	pthread_t w, r;
	char *region = mmap(NULL, 66 * 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long *table;

	if (region == MAP_FAILED || !(table = far_page(region)))
		return 2;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, &got);
	pthread_join(r, NULL);
	/* The writer in its windows before the main thread starts. */
	while (READ_ONCE(flag) < 10)
		usleep(1000);
	s = spin(table, n);
	WRITE_ONCE(stop, 1);
	pthread_join(w, NULL);
	printf("%ld %ld\n", got, s);
	return 0;
}
