/*
 * signals.c — signal handlers are the user-space "nested contexts" of
 * docs/design.md §5 (the kernel's interrupts): a handler runs on the
 * interrupted thread and shares its kcsan_ctx, including its delayed access.  Rules, as in the
 * kernel (seed 002 and 003):
 *   - the handler's own accesses are checked and may be watched normally;
 *   - but no scoped check is done from it: the interrupted code's delayed
 *     access is neither re-checked (the thread would race with itself) nor
 *     replaced or ended by the handler's accesses and function exits.
 * To know that a handler is running, sigaction() and signal() are
 * interposed: a handler is installed through a trampoline that brackets the
 * call with ctx->nested.  The program sees its own handler when it asks for
 * the old action.  The trampoline only touches thread-local memory and the
 * handler table: async-signal-safe.
 *
 * SIGSEGV and SIGBUS at SIG_DFL have the runtime's crash handler
 * (overflow.c): the program sees SIG_DFL for it, and setting SIG_DFL puts
 * it back; a handler of the program's own replaces it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "kcsan_rt.h"

#define ABI __attribute__((visibility("default")))

#ifndef NSIG
# define NSIG 65
#endif

/* The program's handler per signal (sa_handler or sa_sigaction), published
 * before the trampoline is installed and read by it: atomics. */
static void *user_handler[NSIG];
static int user_siginfo[NSIG];

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static sigaction_fn real_sigaction;

static sigaction_fn get_real_sigaction(void)
{
	sigaction_fn f = __atomic_load_n(&real_sigaction, __ATOMIC_RELAXED);

	if (!f) {
		f = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
		if (!f)
			abort();	/* cannot happen with a working libc */
		__atomic_store_n(&real_sigaction, f, __ATOMIC_RELAXED);
	}
	return f;
}

int kcsan_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	return get_real_sigaction()(sig, act, old);
}

static void trampoline(int sig, siginfo_t *info, void *uc)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();
	void *h = __atomic_load_n(&user_handler[sig], __ATOMIC_ACQUIRE);

	ctx->nested++;
	ctx->handlers++;
	__asm__ __volatile__("" ::: "memory");
	if (__atomic_load_n(&user_siginfo[sig], __ATOMIC_RELAXED))
		((void (*)(int, siginfo_t *, void *))h)(sig, info, uc);
	else
		((void (*)(int))h)(sig);
	__asm__ __volatile__("" ::: "memory");
	ctx->nested--;
}

static int is_real_handler(const struct sigaction *act)
{
	void *h = (act->sa_flags & SA_SIGINFO) ? (void *)act->sa_sigaction
					       : (void *)act->sa_handler;

	return h != (void *)SIG_DFL && h != (void *)SIG_IGN && h != NULL;
}

ABI int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction mine;
	void *prev_h;
	int prev_si, r;

	if (sig <= 0 || sig >= NSIG)
		return get_real_sigaction()(sig, act, old);
	/* The program's previous handler, to report it through old (the
	 * kernel only knows the trampoline).  Not atomic with respect to a
	 * concurrent sigaction() on the same signal, like libc's own
	 * read-then-set users of old. */
	prev_h = __atomic_load_n(&user_handler[sig], __ATOMIC_ACQUIRE);
	prev_si = __atomic_load_n(&user_siginfo[sig], __ATOMIC_RELAXED);
	if (act && is_real_handler(act)) {
		mine = *act;
		__atomic_store_n(&user_siginfo[sig], (act->sa_flags & SA_SIGINFO) != 0,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&user_handler[sig],
				 (act->sa_flags & SA_SIGINFO) ? (void *)act->sa_sigaction
							      : (void *)act->sa_handler,
				 __ATOMIC_RELEASE);
		mine.sa_sigaction = trampoline;
		mine.sa_flags |= SA_SIGINFO;
		act = &mine;
	} else if ((sig == SIGSEGV || sig == SIGBUS) && act && act->sa_handler == SIG_DFL) {
		/* (sa_handler and sa_sigaction share their storage: SIG_DFL
		 * is the null pointer either way.) */
		/* SIGSEGV/SIGBUS back to the default: the runtime's crash
		 * message again (overflow.c), the old action read first. */
		if (old && get_real_sigaction()(sig, NULL, old) != 0)
			return -1;
		if (kcsan_overflow_default(sig)) {
			if (old)
				goto translate;
			return 0;
		}
	}
	r = get_real_sigaction()(sig, act, old);
	if (r)
		return r;
translate:
	if (old)
		kcsan_overflow_hide(old);
	if (old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction == trampoline) {
		if (prev_si) {
			old->sa_sigaction = (void (*)(int, siginfo_t *, void *))prev_h;
		} else {
			old->sa_flags &= ~SA_SIGINFO;
			old->sa_handler = (void (*)(int))prev_h;
		}
	}
	return 0;
}

/* glibc's signal() calls its internal sigaction, not ours: interpose it too,
 * with its BSD semantics (SA_RESTART, handler stays installed). */
ABI sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART;
	sigemptyset(&act.sa_mask);
	sigaddset(&act.sa_mask, sig);
	if (sigaction(sig, &act, &old) < 0)
		return SIG_ERR;
	return (old.sa_flags & SA_SIGINFO) ? (sighandler_t)(void *)old.sa_sigaction
					   : old.sa_handler;
}
