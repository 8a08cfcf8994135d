/*
 * ck-handover.c — a hand-over written as Concurrency Kit writes it on x86:
 * the entry is filled with plain stores, then ck_pr_fence_store() -- an
 * empty asm with a "memory" clobber under CK_MD_TSO -- then the marked
 * store ck_pr_store_ptr.  The reader loads the pointer with ck_pr_load_ptr,
 * ck_pr_fence_load(), then reads the entry.
 *
 * No instruction of the fence reaches the runtime; with the profile
 * (profiles/examples/ck.prof: ck_pr_fence_store barrier wmb) and
 * `kcsan-scan cc` (clang: the inline-asm barrier plugin) it ends the
 * writer's delayed store: never reported, with focus or without.
 * -DNO_FENCE leaves the fence out: a true race on a weakly ordered CPU (the
 * entry may become visible after the pointer), reported "(reordered)".
 *
 * Usage: ./ck-handover [ENTRIES]   (default 2000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ck_pr_barrier() __asm__ __volatile__("" ::: "memory")

static inline void ck_pr_fence_store(void)
{
	ck_pr_barrier();
}

static inline void ck_pr_fence_load(void)
{
	ck_pr_barrier();
}

/* The marked store and load: CK's x86_64 port writes them as a "mov" in
 * inline assembly, which no runtime sees; its gcc port (and this test) as
 * relaxed atomics, so that the runtime sees the publication. */
static inline void ck_pr_store_ptr(void *target, void *v)
{
	__atomic_store_n((void **)target, v, __ATOMIC_RELAXED);
}

static inline void *ck_pr_load_ptr(const void *target)
{
	return __atomic_load_n((void *const *)target, __ATOMIC_RELAXED);
}

struct entry {
	long data;
	long pad[7];		/* one entry per cache line */
};

static struct entry *pool;
static void *latest;
static long entries;

static void *producer(void *arg)
{
	(void)arg;
	for (long i = 0; i < entries; i++) {
		struct entry *e = &pool[i];

		e->data = i + 1;	/* plain: filled before the hand-over */
#ifndef NO_FENCE
		ck_pr_fence_store();
#endif
		ck_pr_store_ptr(&latest, e);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	struct entry *last = NULL, *e;
	long sum = 0, seen = 0;

	while (seen < entries) {
		e = ck_pr_load_ptr(&latest);
		if (!e || e == last)
			continue;
		ck_pr_fence_load();
		sum += e->data;		/* plain: read after the hand-over */
		last = e;
		seen = e - pool + 1;
	}
	*(long *)arg = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t p, c;
	long sum = 0;

	entries = argc > 1 ? atol(argv[1]) : 2000;
	if (entries < 1)
		entries = 1;
	pool = calloc((size_t)entries, sizeof(*pool));
	if (!pool || pthread_create(&c, NULL, consumer, &sum) ||
	    pthread_create(&p, NULL, producer, NULL))
		return 1;
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	printf("consumed=%d\n", sum > 0);
	free(pool);
	return 0;
}
