/*
 * membarrier.c — an RCU grace period made of membarrier(2), as liburcu's
 * membarrier flavour (urcu-memb) makes it (issue 13, item 5).
 *
 * Readers use compiler barriers only: rcu_read_lock stores the grace-period
 * counter into the reader's slot, rcu_read_unlock clears it, and the plain
 * read of the node's data lies in between.  The writer publishes a new
 * node, then synchronize_rcu: a membarrier (every reader executes a full
 * barrier), wait until no reader is in a critical section that began before
 * the counter was bumped, a membarrier again; then it poisons the old node
 * (a plain write) and frees it.
 *
 * The runtime delays the reader's plain read past rcu_read_unlock (no
 * barrier of the reader's own ends it).  The second membarrier orders it
 * for real: the runtime must not report it against the poison write.
 *
 *   ./membarrier syscall SECS     membarrier through syscall(__NR_membarrier):
 *                                 never a report
 *   ./membarrier wrapper SECS     through a membarrier() function (glibc has
 *                                 none; the runtime's own wrapper): never a
 *                                 report
 *   ./membarrier none SECS        the same grace period with compiler
 *                                 barriers instead of membarrier: on a weakly
 *                                 ordered CPU the reader's read can be
 *                                 satisfied after its unlock, after the poison
 *                                 or the free -- a true race, must be reported
 *                                 "(reordered)"
 * Prints "MODE: reports=N"; stops at the first report (harness.h).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"

/* linux/membarrier.h's values. */
#define CMD_PRIVATE_EXPEDITED		(1 << 3)
#define CMD_REGISTER_PRIVATE_EXPEDITED	(1 << 4)

int membarrier(int cmd, unsigned int flags, int cpu_id);

#define NREADERS 2
#define barrier() __asm__ __volatile__("" ::: "memory")

struct node {
	long data;
};

static struct node *head;
static long gp_ctr = 1;
static long reader_ctr[NREADERS];	/* 0: not in a critical section */
static long sink;
static const char *mode;

/* The writer's side of the asymmetric fence. */
static void smp_mb_master(void)
{
	if (!strcmp(mode, "syscall"))
		syscall(__NR_membarrier, CMD_PRIVATE_EXPEDITED, 0, 0);
	else if (!strcmp(mode, "wrapper"))
		membarrier(CMD_PRIVATE_EXPEDITED, 0, 0);
	else
		barrier();	/* the bug: no fence at all */
}

/* One function for the whole loop: the runtime's delayed read lives until
 * it returns, i.e. across rcu_read_unlock and later iterations. */
static void *reader(void *arg)
{
	const int me = (int)(long)arg - 1;
	long sum = 0;

	while (!harness_stop()) {
		struct node *p;

		/* rcu_read_lock */
		__atomic_store_n(&reader_ctr[me], __atomic_load_n(&gp_ctr, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
		barrier();
		p = __atomic_load_n(&head, __ATOMIC_RELAXED);	/* rcu_dereference */
		if (p)
			sum += p->data;		/* plain read */
		/* rcu_read_unlock */
		barrier();
		__atomic_store_n(&reader_ctr[me], 0, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

/* Returns 0 when the run stopped before the grace period ended: a reader
 * may then still be reading the old node, which must not be touched (the
 * poison write would be a real race, reported at the end of a slow run). */
static int synchronize_rcu(void)
{
	long g;
	int r;

	smp_mb_master();
	g = __atomic_add_fetch(&gp_ctr, 1, __ATOMIC_RELAXED);
	for (r = 0; r < NREADERS; r++) {
		long c;

		/* In a critical section begun before the bump: wait. */
		while ((c = __atomic_load_n(&reader_ctr[r], __ATOMIC_RELAXED)) != 0 && c != g) {
			if (harness_stop())
				return 0;
			sched_yield();
		}
	}
	smp_mb_master();
	return 1;
}

static void *writer(void)
{
	long v = 0;

	while (!harness_stop()) {
		struct node *n = malloc(sizeof(*n)), *old;

		if (!n)
			abort();
		n->data = ++v;
		old = __atomic_exchange_n(&head, n, __ATOMIC_RELEASE);	/* rcu_assign_pointer */
		if (!old)
			continue;
		if (!synchronize_rcu())
			break;		/* (old is left to the end of the process) */
		old->data = -1;		/* poison: plain write */
		free(old);
	}
	return NULL;
}

static void *worker(void *arg)
{
	return (long)arg == 0 ? writer() : reader(arg);
}

int main(int argc, char **argv)
{
	unsigned long n;

	mode = argc > 1 ? argv[1] : "syscall";
	if (strcmp(mode, "syscall") && strcmp(mode, "wrapper") && strcmp(mode, "none")) {
		fprintf(stderr, "usage: %s syscall|wrapper|none [SECS]\n", argv[0]);
		return 2;
	}
	if (strcmp(mode, "none") &&
	    syscall(__NR_membarrier, CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) {
		perror("membarrier register");	/* e.g. a seccomp filter */
		return 77;
	}
	n = harness_run(1 + NREADERS, worker, harness_seconds(argc, argv, 2, 2));
	printf("%s: reports=%lu\n", mode, n);
	return 0;
}
