/*
 * context.c — per-thread context and one-time initialisation.
 *
 * Each thread has one struct kcsan_ctx in thread-local storage (initial-exec
 * model: no allocation and no lock on first use, which matters because the
 * first use can come from any instrumented access, even inside malloc's
 * callers or a signal handler).  A signal handler runs on the interrupted
 * thread and so shares its context, as a kernel interrupt shares a task's
 * kcsan_ctx: the in_rt flag stops it from entering the runtime while the
 * thread is inside it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "fastpath.h"
#include "focus.h"
#include "kcsan_rt.h"

__thread struct kcsan_ctx kcsan_tls __attribute__((tls_model("initial-exec")));

static unsigned int kcsan_next_tid;

/* 0: not yet, 1: in progress, 2: done.  Read with acquire by every entry
 * point (through kcsan_get_ctx); kcsan_opts is published by the release. */
int kcsan_initialized;

static void kcsan_atexit(void)
{
	if (!kcsan_opts.verbose)
		return;
	kcsan_focus_summary();
	kcsan_delay_summary();
	/* The exiting thread's own count (no sum over threads: a counter
	 * shared by all would be written by every gated access): how many
	 * of its accesses left the inline fast path (fastpath.h). */
	dprintf(kcsan_opts.log_fd, "kcsan: gate: %lu accesses of the exiting thread left the inline fast path\n",
		kcsan_tls.gated);
	dprintf(kcsan_opts.log_fd, "kcsan: %lu report(s)\n", kcsan_rt_reports());
}

void kcsan_init(void)
{
	int expected = 0;

	if (__atomic_load_n(&kcsan_initialized, __ATOMIC_ACQUIRE) == 2)
		return;
	if (!__atomic_compare_exchange_n(&kcsan_initialized, &expected, 1, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		/* Another thread initialises; the runtime stays off (every
		 * entry point tests == 2) until it is done: no waiting here,
		 * an entry point must never block. */
		return;
	}
	kcsan_parse_options(getenv(KCSAN_ENV_OPTIONS));
	if (kcsan_opts.verbose)
		kcsan_print_options();
	/* Focus reads the database and the line table: SQLite and libdw
	 * take locks through the pthread wrappers, which only forward
	 * while in_rt is set.  The runtime is still off (state 1). */
	{
		struct kcsan_ctx *ctx = kcsan_get_ctx();
		int saved = ctx->in_rt;

		ctx->in_rt = 1;
		kcsan_focus_init();
		ctx->in_rt = saved;
	}
	atexit(kcsan_atexit);
	__atomic_store_n(&kcsan_initialized, 2, __ATOMIC_RELEASE);
	/* Open the fast path (fastpath.h): with focus, every access asks the
	 * focus map first; with enabled=0 it stays closed and the slow path
	 * returns at once. */
	if (kcsan_focus_active)
		__atomic_fetch_add(&kcsan_gate.word, KCSAN_GATE_FOCUS, __ATOMIC_RELAXED);
	if (kcsan_opts.enabled)
		__atomic_fetch_sub(&kcsan_gate.word, KCSAN_GATE_CLOSED, __ATOMIC_RELEASE);
}

/* xorshift64*: cheap, per thread, good enough to de-synchronise sampling. */
uint64_t kcsan_rand(struct kcsan_ctx *ctx)
{
	uint64_t x = ctx->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	ctx->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/*
 * The number of plain accesses to let pass before the next watchpoint.  As
 * in the kernel, randomised so that two threads running the same loop do not
 * watch in lock-step (which would make them miss each other).
 */
void kcsan_reset_skip(struct kcsan_ctx *ctx)
{
	long skip = kcsan_opts.skip_watch;

	if (kcsan_opts.skip_watch_rand && skip > 0)
		skip -= (long)(kcsan_rand(ctx) % (uint64_t)skip);
	ctx->skip = skip;
}

void kcsan_ctx_first_use(struct kcsan_ctx *ctx)
{
	{
		struct timespec ts;

		kcsan_init();
		ctx->tid = __atomic_add_fetch(&kcsan_next_tid, 1, __ATOMIC_RELAXED);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ctx->rng = ((uint64_t)ts.tv_nsec << 20) ^ ((uint64_t)ctx->tid * 0x9E3779B97F4A7C15ULL);
		if (!ctx->rng)
			ctx->rng = 1;
		kcsan_reset_skip(ctx);
		/*
		 * A new thread starts anywhere in [0, skip_watch]: the kernel's
		 * skip counter is per CPU and carries over from task to task,
		 * but a thread's starts afresh, and a first count of at least
		 * 1 would mean that a thread making only a few plain accesses
		 * (one store and a flag, the typical worker of a litmus test or
		 * a thread pool's short task) is never watched at all.
		 */
		if (kcsan_opts.skip_watch_rand && kcsan_opts.skip_watch > 0)
			ctx->skip = (long)(kcsan_rand(ctx) % (uint64_t)(kcsan_opts.skip_watch + 1));
	}
}
