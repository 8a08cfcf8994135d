/*
 * signals.c — signal handlers are nested contexts (docs/design.md §5): while one runs,
 * the interrupted code's delayed access is neither re-checked, replaced nor
 * ended by the handler (its accesses, barriers, function exits).  Also
 * checks that the sigaction()/signal() wrappers call the program's handler
 * with the right arguments and report it back as the old action.
 * Run with skip_watch=0 (every plain access in the handler is watched).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <kcsan/lkmm.h>
#include "../../runtime/kcsan_rt.h"

static int passed, failed;
static long x, y;
static int handled, nested_seen, got_info;

static void check(int ok, const char *what)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL: %s\n", what);
	}
}

__attribute__((noinline)) static long callee(long v)
{
	y = v;		/* plain write: would become the delayed access */
	return y + 1;
}

static void handler(int sig)
{
	handled = sig;
	nested_seen = kcsan_get_ctx()->nested;
	y = callee(y);
	smp_mb();	/* would end the interrupted delayed access */
	smp_store_release(&y, 2);
}

static void handler_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_info = si && si->si_signo == sig;
	nested_seen = kcsan_get_ctx()->nested;
	y = callee(y);
	smp_mb();
}

/* Marked stores: with skip_watch=0 a plain store into the context would
 * itself be watched and become the delayed access. */
/* Always inlined: the delayed access must belong to the caller's scope
 * (a separate function would end it at its own exit). */
static inline __attribute__((always_inline)) void arm(struct kcsan_ctx *ctx)
{
	__atomic_store_n(&ctx->reorder.ptr, (const volatile void *)&x, __ATOMIC_RELAXED);
	__atomic_store_n(&ctx->reorder.type, KCSAN_ACCESS_WRITE | KCSAN_ACCESS_SCOPED,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&ctx->reorder.ip, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&ctx->reorder.depth, __atomic_load_n(&ctx->depth, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&ctx->reorder.size, sizeof(x), __ATOMIC_RELAXED);
}

int main(void)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();
	struct sigaction sa, old;
	const volatile void *p;
	size_t sz;

	check(signal(SIGUSR1, handler) != SIG_ERR, "signal() installs");
	arm(ctx);
	raise(SIGUSR1);
	/* Read the state with marked loads before any plain access of main
	 * (with skip_watch=0 main's own next plain access would become the
	 * delayed one). */
	sz = __atomic_load_n(&ctx->reorder.size, __ATOMIC_RELAXED);
	p = __atomic_load_n(&ctx->reorder.ptr, __ATOMIC_RELAXED);
	check(handled == SIGUSR1, "handler ran");
	check(nested_seen == 1, "handler runs nested");
	check(ctx->nested == 0, "nesting undone after the handler");
	check(sz == sizeof(x) && p == &x, "delayed access untouched by the handler");

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler_info;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	check(sigaction(SIGUSR1, &sa, &old) == 0, "sigaction installs");
	check(!(old.sa_flags & SA_SIGINFO) && old.sa_handler == handler,
	      "old action is the program's handler, not the trampoline");
	arm(ctx);
	raise(SIGUSR1);
	sz = __atomic_load_n(&ctx->reorder.size, __ATOMIC_RELAXED);
	p = __atomic_load_n(&ctx->reorder.ptr, __ATOMIC_RELAXED);
	check(got_info, "SA_SIGINFO handler gets its siginfo");
	check(sz == sizeof(x) && p == &x, "delayed access untouched (SA_SIGINFO)");
	check(sigaction(SIGUSR1, NULL, &old) == 0 && (old.sa_flags & SA_SIGINFO) &&
	      old.sa_sigaction == handler_info, "query returns the program's handler");
	__atomic_store_n(&ctx->reorder.size, 0, __ATOMIC_RELAXED);

	printf("signals: %d checks passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
