/*
 * overflow.c — a crash says why: deep recursion in an instrumented program
 * used to die with a bare SIGSEGV, where ThreadSanitizer prints a line.
 *
 * A stack overflow faults on the guard page below the stack, and the
 * kernel cannot run a handler on the exhausted stack: it needs an
 * alternate signal stack.  So
 *   - every thread the runtime starts (the pthread_create wrapper of
 *     interpose.c runs kcsan_thread_start first in the new thread) and the
 *     main thread (kcsan_overflow_init, from __tsan_init) get one, freed at
 *     thread exit (a pthread key's destructor: runs on return and on
 *     pthread_exit);
 *   - SIGSEGV and SIGBUS get the runtime's handler, with SA_ONSTACK, as
 *     long as the program leaves them at SIG_DFL.  It writes one line to
 *     stderr -- "kcsan-scan: stack overflow in thread T (address A, stack
 *     pointer S); the program crashed" or, for other faults, "kcsan-scan:
 *     SIGSEGV on address A in thread T; the program crashed" -- then puts
 *     the default disposition back and returns: the faulting instruction
 *     faults again and the process dies of the same signal, with the same
 *     exit status and core dump as without the runtime.  A signal sent with
 *     kill() (no fault to repeat) is raised again instead, silently.
 *   - A program that installs its own handler for them gets it (signals.c
 *     installs it as for any signal: the runtime's handler is gone, the
 *     program's decides, as without the runtime); asked for the old action,
 *     the program sees SIG_DFL where the runtime's handler is
 *     (kcsan_overflow_hide).  Setting SIG_DFL again puts the runtime's
 *     handler back (kcsan_overflow_default).
 *   - handle_segv=0 (KCSAN_OPTIONS) turns all of this off.
 * The handler only uses async-signal-safe calls (write, sigaction, raise)
 * and thread-local data recorded at thread start (the stack's bounds).
 *
 * A fault is taken for a stack overflow when its address is near the stack
 * pointer (512 bytes below to 64 KiB above, as the sanitizers do: a call
 * or push just below it, a large frame) or in the 1 MiB below the thread's
 * lowest stack address (its guard, the main stack's guard gap).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "kcsan_rt.h"

/* This thread's alternate stack (the runtime's, NULL if none) and its
 * stack's lowest address (0 if unknown). */
struct thread_stack {
	void *alt;
	size_t alt_size;
};
static __thread uintptr_t stack_lo __attribute__((tls_model("initial-exec")));

static int handling;		/* handle_segv=1 and the handler installed */
static pthread_key_t alt_key;
static int alt_key_ok;
static size_t alt_size;

static void fault_handler(int sig, siginfo_t *info, void *uc);

/* (kcsan_real_sigaction: signals.c's wrapper would take our handler for
 * the program's.) */
static void install(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	kcsan_real_sigaction(sig, &sa, NULL);
}

static void set_default(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	kcsan_real_sigaction(sig, &sa, NULL);
}

/* ---- the message -------------------------------------------------------- */

struct line {
	char s[192];
	size_t n;
};

static void put(struct line *l, const char *s)
{
	while (*s && l->n < sizeof(l->s) - 1)
		l->s[l->n++] = *s++;
}

static void put_num(struct line *l, uintptr_t v, unsigned int base)
{
	char d[24];
	int i = 0;

	if (base == 16)
		put(l, "0x");
	do {
		d[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v && i < (int)sizeof(d));
	while (i > 0 && l->n < sizeof(l->s) - 1)
		l->s[l->n++] = d[--i];
}

static void put_thread(struct line *l)
{
	unsigned int tid = kcsan_tls.tid;

	put(l, "thread ");
	if (tid) {
		put_num(l, tid, 10);
	} else {
		/* A thread that never made an instrumented access. */
		put(l, "(tid ");
		put_num(l, (uintptr_t)syscall(SYS_gettid), 10);
		put(l, ")");
	}
}

static uintptr_t fault_sp(void *uc)
{
#if defined(__x86_64__)
	return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.sp;
#else
	(void)uc;
	return 0;
#endif
}

static int is_stack_overflow(uintptr_t addr, uintptr_t sp)
{
	const uintptr_t lo = stack_lo, gap = 1u << 20;

	if (sp && addr + 512 > sp && addr < sp + 0x10000)
		return 1;
	return lo && addr < lo + 4096 && addr + gap >= lo;
}

static void fault_handler(int sig, siginfo_t *info, void *uc)
{
	const int faulted = info && info->si_code > 0;	/* not kill() */
	const int saved_errno = errno;

	if (faulted) {
		uintptr_t addr = (uintptr_t)info->si_addr, sp = fault_sp(uc);
		struct line l = { .n = 0 };

		put(&l, "kcsan-scan: ");
		if (sig == SIGSEGV && is_stack_overflow(addr, sp)) {
			put(&l, "stack overflow in ");
			put_thread(&l);
			put(&l, " (address ");
			put_num(&l, addr, 16);
			if (sp) {
				put(&l, ", stack pointer ");
				put_num(&l, sp, 16);
			}
			put(&l, ")");
		} else {
			put(&l, sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
			put(&l, " on address ");
			put_num(&l, addr, 16);
			put(&l, " in ");
			put_thread(&l);
		}
		put(&l, "; the program crashed\n");
		if (write(2, l.s, l.n) < 0) {
			/* nowhere else to say it */
		}
		if (kcsan_opts.log_fd != 2 && write(kcsan_opts.log_fd, l.s, l.n) < 0) {
			/* nor there */
		}
	}
	/* Die of this signal as without the runtime: the faulting
	 * instruction runs again and faults with the default action; a
	 * sent signal, blocked while this handler runs, is delivered when it
	 * returns. */
	set_default(sig);
	if (!faulted)
		raise(sig);
	errno = saved_errno;
}

/* ---- alternate stacks ---------------------------------------------------- */

static void free_alt(void *p)
{
	struct thread_stack *ts = p;
	stack_t cur;

	/* Still ours (the program may have set its own since)?  Then off
	 * before the memory goes. */
	if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == ts->alt && !(cur.ss_flags & SS_ONSTACK)) {
		stack_t off;

		memset(&off, 0, sizeof(off));
		off.ss_flags = SS_DISABLE;
		sigaltstack(&off, NULL);
	}
	munmap(ts->alt, ts->alt_size + sizeof(*ts));
}

/* Gives the calling thread an alternate stack unless it has one; records
 * its stack bounds.  keep: free it at thread exit (not the main thread). */
static void setup_thread(int keep)
{
	pthread_attr_t attr;
	stack_t cur, ss;
	struct thread_stack *ts;
	void *mem;

	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		void *addr;
		size_t size;

		if (pthread_attr_getstack(&attr, &addr, &size) == 0)
			stack_lo = (uintptr_t)addr;
		pthread_attr_destroy(&attr);
	}
	if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
		return;		/* the program's own: leave it */
	/* One mapping: the stack, then the record to free it by. */
	mem = mmap(NULL, alt_size + sizeof(*ts), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return;		/* no message on overflow, nothing worse */
	ts = (struct thread_stack *)((char *)mem + alt_size);
	ts->alt = mem;
	ts->alt_size = alt_size;
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = mem;
	ss.ss_size = alt_size;
	if (sigaltstack(&ss, NULL) != 0) {
		munmap(mem, alt_size + sizeof(*ts));
		return;
	}
	if (keep && alt_key_ok && pthread_setspecific(alt_key, ts) != 0)
		free_alt(ts);	/* cannot free it at exit: none at all */
}

void kcsan_thread_start(void)
{
	if (__atomic_load_n(&handling, __ATOMIC_ACQUIRE))
		setup_thread(1);
}

void kcsan_overflow_init(void)
{
	static int done;
	struct sigaction cur;
	long min = sysconf(_SC_MINSIGSTKSZ);

	if (done++ || !kcsan_opts.handle_segv)
		return;
	/* Room for the handler and the dynamic linker's first-call
	 * resolution of what it calls: a few pages, at least the minimum. */
	alt_size = 64 * 1024;
	if (min > 0 && (size_t)min * 4 > alt_size)
		alt_size = (size_t)min * 4;
	alt_key_ok = pthread_key_create(&alt_key, free_alt) == 0;
	setup_thread(0);
	/* Only where the program (an earlier constructor) set nothing. */
	if (kcsan_real_sigaction(SIGSEGV, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL)
		install(SIGSEGV);
	if (kcsan_real_sigaction(SIGBUS, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL)
		install(SIGBUS);
	__atomic_store_n(&handling, 1, __ATOMIC_RELEASE);
}

/* signals.c: the program sets SIG_DFL for sig; 1 if the runtime's handler
 * was installed instead. */
int kcsan_overflow_default(int sig)
{
	if ((sig != SIGSEGV && sig != SIGBUS) || !__atomic_load_n(&handling, __ATOMIC_ACQUIRE))
		return 0;
	install(sig);
	return 1;
}

/* signals.c: an old action the kernel returned; the runtime's handler is
 * shown as SIG_DFL. */
void kcsan_overflow_hide(struct sigaction *old)
{
	if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction == fault_handler) {
		memset(old, 0, sizeof(*old));
		old->sa_handler = SIG_DFL;
		sigemptyset(&old->sa_mask);
	}
}
