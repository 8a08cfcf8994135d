/*
 * corpus: mcs-enqueue-release
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 96 with the link stored with __ATOMIC_RELEASE (DPDK's fix of its MCS
 *        lock): a predecessor that finds the node through the link (an acquire load) sees
 *        its locked = 1 first, so its hand-over (locked = 0) comes after it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 3

struct qnode {
	struct qnode *next;
	int locked;
};

static struct qnode *tail;
static struct qnode nodes[NTHREADS];
static long counter;

static void mcs_lock(struct qnode *me)
{
	struct qnode *prev;

	__atomic_store_n(&me->locked, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&me->next, NULL, __ATOMIC_RELAXED);
	prev = __atomic_exchange_n(&tail, me, __ATOMIC_ACQ_REL);
	if (prev == NULL)
		return;
	__atomic_store_n(&prev->next, me, __ATOMIC_RELEASE);
	while (__atomic_load_n(&me->locked, __ATOMIC_ACQUIRE))
		;
}

static void mcs_unlock(struct qnode *me)
{
	struct qnode *next = __atomic_load_n(&me->next, __ATOMIC_ACQUIRE);

	if (next == NULL) {
		struct qnode *expected = me;

		if (__atomic_compare_exchange_n(&tail, &expected, NULL, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
		while ((next = __atomic_load_n(&me->next, __ATOMIC_ACQUIRE)) == NULL)
			;
	}
	__atomic_store_n(&next->locked, 0, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	struct qnode *me = &nodes[(long)arg];

	for (int i = 0; i < 1000; i++) {
		mcs_lock(me);
		counter++;
		mcs_unlock(me);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 50;

	for (int i = 0; i < iters; i++) {
		pthread_t t[NTHREADS];

		for (long k = 0; k < NTHREADS; k++)
			pthread_create(&t[k], NULL, worker, (void *)k);
		for (int k = 0; k < NTHREADS; k++)
			pthread_join(t[k], NULL);
	}
	printf("mcs-enqueue-release: %d iterations, counter %ld\n", iters, counter);
	return 0;
}
