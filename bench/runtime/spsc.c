/* spsc.c — runtime benchmark: a lock-free single-producer single-consumer
 * ring (C11 release/acquire on head and tail) with heavy traffic; plain
 * slot writes and reads.  ./spsc [ITEMS] prints the checksum.
 *
 * A side that finds the ring full (empty) spins a little, then yields, as
 * user-space rings do: a pure spin on a machine with fewer free CPUs than
 * threads burns the rest of its time slice while the other side cannot
 * run, and the run time then measures the scheduler, not the accesses. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define QSZ 1024
static long ring[QSZ];
/* Each index on a cache line of its own, and each side keeps its last view
 * of the other's index, reading it again only when the ring looks full
 * (empty): the usual layout of a user-space ring, and one whose speed does
 * not swing with whether the two threads share a CPU. */
static _Alignas(64) atomic_ulong head;
static _Alignas(64) atomic_ulong tail;
static long items;

#define SPINS	100	/* polls of the other side's index before yielding */

static void backoff(int *spins)
{
	if (++*spins >= SPINS) {
		sched_yield();
		*spins = 0;
	}
}

static void *producer(void *arg)
{
	unsigned long seen_tail = 0;

	(void)arg;
	for (long i = 1; i <= items; i++) {
		unsigned long h = atomic_load_explicit(&head, memory_order_relaxed);
		int spins = 0;

		while (h - seen_tail == QSZ) {
			seen_tail = atomic_load_explicit(&tail, memory_order_acquire);
			if (h - seen_tail == QSZ)
				backoff(&spins);
		}
		ring[h % QSZ] = i;
		atomic_store_explicit(&head, h + 1, memory_order_release);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	unsigned long seen_head = 0;
	long sum = 0;

	for (long n = 0; n < items; n++) {
		unsigned long t = atomic_load_explicit(&tail, memory_order_relaxed);
		int spins = 0;

		while (seen_head == t) {
			seen_head = atomic_load_explicit(&head, memory_order_acquire);
			if (seen_head == t)
				backoff(&spins);
		}
		sum += ring[t % QSZ];
		atomic_store_explicit(&tail, t + 1, memory_order_release);
	}
	*(long *)arg = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t p, c;
	long sum = 0;

	items = argc > 1 ? atol(argv[1]) : 4000000;
	pthread_create(&c, NULL, consumer, &sum);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	printf("spsc: %ld items, sum %ld\n", items, sum);
	return sum != items * (items + 1) / 2;
}
