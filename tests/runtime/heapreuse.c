/*
 * heapreuse.c — memory that is freed and handed to another thread by the
 * allocator (issue 9, item 1).  The allocator's own locking orders the
 * free before the next malloc that returns the memory, but it is not
 * instrumented: the runtime has to know that free/realloc/munmap end the
 * thread's delayed (weak-memory) access to the memory and the watchpoints
 * on it, or the re-check of a write made before free() races with the
 * next owner's writes ("data-race ... (reordered)").
 *
 *   ./heapreuse reuse SECS    two threads, one malloc arena: each loops
 *                             malloc a batch, write it, free it (more than
 *                             the thread cache holds, so the chunks go back
 *                             to the shared arena and the other thread gets
 *                             them).  Never a report.
 *   ./heapreuse realloc SECS  the same, the objects moved by realloc (the
 *                             old block freed) before free / reallocarray.
 *   ./heapreuse mmap SECS     the same with pages: mmap, write, munmap (the
 *                             kernel gives the address to the next mmap).
 *   ./heapreuse shared SECS   a true race on reused memory: both threads
 *                             write one live heap object (allocated where
 *                             a block of its size was just freed) without
 *                             a lock.  Must report.
 *   ./heapreuse watched ROUNDS  a block freed while another thread's
 *                             watchpoint is on it (run with skip_watch=0
 *                             and a long udelay): thread A reads the
 *                             block and waits in its delay window, thread
 *                             B frees it, gets it back from malloc and
 *                             writes it.  A's read does race with the
 *                             free (the runtime does not report races with
 *                             free), but B's write to its new block is no
 *                             race with A's read, nor are the allocator's
 *                             writes into the freed chunk a change of A's
 *                             value: never a report.  Run with
 *                             weak_memory=0: A's read itself happens after
 *                             its window, after the free, and the model
 *                             rightly reports its delayed re-checks
 *                             against B's write.  Timing only decides whether
 *                             B frees during A's window (it sleeps a
 *                             quarter of the window first); nothing is
 *                             asserted about it.
 * Prints "MODE: reports=N"; stops at the first report (harness.h).
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

struct obj {
	long a, b, c, d;
};

/* More than glibc's per-thread cache keeps per size (7): the rest goes
 * back to the arena, where the other thread's malloc finds it. */
#define BATCH 24

static const char *mode;

/* The whole loop in one function: a watched write stays delayed until the
 * function returns, i.e. across the frees and the next mallocs. */
static void *private_worker(void *arg)
{
	struct obj *o[BATCH];
	long v = (long)arg;
	int i;

	while (!harness_stop()) {
		for (i = 0; i < BATCH; i++) {
			o[i] = malloc(sizeof(struct obj));
			if (!o[i])
				abort();
			o[i]->a = v;
			o[i]->b = v + 1;
		}
		if (mode[0] == 'r') {
			for (i = 0; i < BATCH; i++) {
				struct obj *n = i % 2 ? realloc(o[i], 4096)
						      : reallocarray(o[i], 128, sizeof(struct obj));

				if (!n)
					abort();
				o[i] = n;
				o[i]->c = v;
			}
		}
		for (i = 0; i < BATCH; i++) {
			o[i]->d = o[i]->a + o[i]->b;
			free(o[i]);
		}
		v++;
	}
	return NULL;
}

static void *mmap_worker(void *arg)
{
	const size_t len = 2 * 4096;
	long v = (long)arg;

	while (!harness_stop()) {
		long *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			abort();
		p[0] = v;
		p[512] = v + 1;
		p[1] = p[0] + p[512];
		munmap(p, len);
		v++;
	}
	return NULL;
}

/* The true race: one live object, written by both threads unlocked. */
static struct obj *volatile shared_obj;

static void *shared_worker(void *arg)
{
	long v = (long)arg;

	while (!harness_stop()) {
		struct obj *o = shared_obj;

		o->a = v;
		o->b = o->a + 1;
		v++;
	}
	return NULL;
}

/* watched: the block, published by A; B's "done" for the round. */
static struct obj *watched_obj;
static int watched_done;
static long watched_udelay_us;
long watched_sink;	/* external: the read is not dead code */

/* Out of line: the compiler must not know o->c of a fresh calloc. */
__attribute__((noinline)) long read_c(struct obj *o);
__attribute__((noinline)) long read_c(struct obj *o)
{
	return o->c;
}

static void *watched_a(void *arg)
{
	long rounds = (long)arg, r, v;

	for (r = 1; r <= rounds; r++) {
		struct obj *o = calloc(1, sizeof(struct obj));

		if (!o)
			abort();
		__atomic_store_n(&watched_obj, o, __ATOMIC_RELEASE);
		/* A read, watched (skip_watch=0): B frees o meanwhile.  (A
		 * write would itself land after the window, in B's block:
		 * a race with B's write, rightly reported.) */
		v = read_c(o);
		/* No delayed access left to meet B's writes after the window
		 * (and no marked write before this: it would make the next
		 * re-check a watched one, weakmem.c). */
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&watched_sink, v, __ATOMIC_RELAXED);
		while (__atomic_load_n(&watched_done, __ATOMIC_ACQUIRE) != r)
			sched_yield();
	}
	return NULL;
}

static void *watched_b(void *arg)
{
	long rounds = (long)arg, r;
	struct timespec quarter = { 0, watched_udelay_us * 1000 / 4 };

	struct obj *n = NULL;

	for (r = 1; r <= rounds; r++) {
		struct obj *o;

		while (!(o = __atomic_load_n(&watched_obj, __ATOMIC_ACQUIRE)))
			sched_yield();
		__atomic_store_n(&watched_obj, NULL, __ATOMIC_RELAXED);
		nanosleep(&quarter, NULL);	/* A is in its window by now */
		free(n);	/* (the last round's: its store is not dead) */
		free(o);
		n = malloc(sizeof(struct obj));	/* o's chunk, from this
						 * thread's cache (LIFO) */
		if (!n)
			abort();
		n->c = -r;
		__atomic_store_n(&watched_done, r, __ATOMIC_RELEASE);
	}
	free(n);
	return NULL;
}

static unsigned long run_watched(long rounds)
{
	const char *opt = getenv("KCSAN_OPTIONS"), *u = opt ? strstr(opt, "udelay=") : NULL;
	pthread_t a, b;

	watched_udelay_us = u ? atol(u + 7) : 80;
	if (watched_udelay_us < 4 || watched_udelay_us >= 4000000)
		watched_udelay_us = 80;
	pthread_create(&a, NULL, watched_a, (void *)rounds);
	pthread_create(&b, NULL, watched_b, (void *)rounds);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return kcsan_rt_reports();
}

int main(int argc, char **argv)
{
	double secs = harness_seconds(argc, argv, 2, 2);
	void *(*fn)(void *) = private_worker;
	unsigned long r;

	mode = argc > 1 ? argv[1] : "";
	/* One arena: both threads' mallocs and frees meet in it. */
	mallopt(M_ARENA_MAX, 1);
	if (!strcmp(mode, "watched")) {
		printf("watched: reports=%lu\n", run_watched(argc > 2 ? atol(argv[2]) : 5));
		return 0;
	}
	if (!strcmp(mode, "mmap")) {
		fn = mmap_worker;
	} else if (!strcmp(mode, "shared")) {
		/* Allocated after a free of the same size: reused memory. */
		free(malloc(sizeof(struct obj)));
		shared_obj = calloc(1, sizeof(struct obj));
		fn = shared_worker;
	} else if (strcmp(mode, "reuse") && strcmp(mode, "realloc")) {
		fprintf(stderr, "usage: heapreuse reuse|realloc|mmap|shared SECS | watched ROUNDS\n");
		return 2;
	}
	r = harness_run(2, fn, secs);
	printf("%s: reports=%lu\n", mode, r);
	return 0;
}
