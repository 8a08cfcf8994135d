/*
 * membarrier.c — membarrier(2) as the barrier it is for every thread: the
 * grace periods of liburcu's membarrier flavour (urcu-memb) and of other
 * asymmetric-fence schemes.
 *
 * There, the readers' side is compiler barriers only (rcu_read_lock and
 * rcu_read_unlock emit no fence); the writer's side calls
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED or _SHARED), which makes every
 * running thread of the process (of the system, for the GLOBAL commands)
 * execute a full memory barrier before the call returns.  Without this
 * file, a reader's plain access stayed delayed past rcu_read_unlock (the
 * model delays it until a barrier *of that thread* or its function's
 * return) and met the writer's free or overwrite after synchronize_rcu:
 * a false "(reordered)" report.
 *
 * The rule (the epoch):
 *   kcsan_mb_epoch counts the barrier membarrier calls that returned
 *   successfully in this process.  The caller first ends its own delayed
 *   access (a full barrier, kcsan_sync_memorder), makes the real call, and
 *   bumps the epoch only after it returned: by then every thread has
 *   executed its barrier, so every access delayed before the bump is
 *   ordered.  (Bumping before the call would leave a window in which a
 *   thread that has not yet been interrupted counts as ordered; after it,
 *   accesses made *during* the call count as ordered too -- that can only
 *   hide a report, never make one.)
 *   Each delayed access records the epoch at which it was delayed
 *   (kcsan_set_reorder).  A delayed access whose epoch is no longer the
 *   current one is over:
 *     - its thread drops it at its next re-check (kcsan_reorder_expired,
 *       from core.c and weakmem.c), with no last check;
 *     - a report that rests on it is not made when the epoch moved before
 *       its re-check was over: the thread that re-checked reads the epoch
 *       again after its watchpoint was consumed, or after it consumed
 *       another thread's (core.c).  The consumer's or the watcher's CAS on
 *       the watchpoint is acquire, and the other thread set it up or
 *       consumed it after its own bump (program order), so that second
 *       read sees the bump whenever the racing access came after it.
 *   No thread ever writes another thread's state: the epoch is one
 *   atomic counter, each thread compares it with its own delayed access,
 *   and the reporting thread decides from what the two accesses recorded.
 *   No lock is taken, so nothing can deadlock.
 *
 * Commands that are barriers: GLOBAL (= SHARED), GLOBAL_EXPEDITED,
 * PRIVATE_EXPEDITED, PRIVATE_EXPEDITED_SYNC_CORE.  Not QUERY, the REGISTER
 * commands, nor PRIVATE_EXPEDITED_RSEQ (it restarts rseq critical sections,
 * and with MEMBARRIER_CMD_FLAG_CPU targets one CPU).  GLOBAL_EXPEDITED only
 * interrupts registered processes; taking it as a barrier for all of ours
 * anyway can only hide reports.
 *
 * Interposed: syscall() with __NR_membarrier (what liburcu and most code
 * call: glibc has no membarrier wrapper) and membarrier() itself, weak, so
 * that a program that defines its own (over syscall, caught above) keeps
 * it; when called, it forwards to a libc's membarrier if there is one,
 * else to the system call.  Other system calls go straight to libc's
 * syscall(), errno untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kcsan_rt.h"

#define ABI __attribute__((visibility("default")))

/* The membarrier commands (linux/membarrier.h, not needed to build). */
#define MB_CMD_GLOBAL			(1 << 0)
#define MB_CMD_GLOBAL_EXPEDITED		(1 << 1)
#define MB_CMD_PRIVATE_EXPEDITED	(1 << 3)
#define MB_CMD_PRIVATE_EXPEDITED_SYNC_CORE (1 << 5)

unsigned long kcsan_mb_epoch;

typedef long (*syscall_fn)(long, ...);
typedef int (*membarrier_fn)(int, unsigned int, int);

static syscall_fn real_syscall;

static syscall_fn get_real_syscall(void)
{
	syscall_fn f = __atomic_load_n(&real_syscall, __ATOMIC_RELAXED);

	if (!f) {
		f = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
		if (!f) {
			static const char msg[] = "kcsan: cannot find the real function syscall\n";

			if (write(2, msg, sizeof(msg) - 1) < 0) {
				/* stderr gone too */
			}
			abort();
		}
		__atomic_store_n(&real_syscall, f, __ATOMIC_RELAXED);
	}
	return f;
}

/* From kcsan_interpose_init (interpose.c), early and single-threaded. */
void kcsan_membarrier_init(void)
{
	get_real_syscall();
}

static int is_barrier_cmd(long cmd)
{
	return cmd == MB_CMD_GLOBAL || cmd == MB_CMD_GLOBAL_EXPEDITED ||
	       cmd == MB_CMD_PRIVATE_EXPEDITED || cmd == MB_CMD_PRIVATE_EXPEDITED_SYNC_CORE;
}

/* Before the call: the caller's own barrier. */
static void before(long cmd)
{
	if (is_barrier_cmd(cmd))
		kcsan_sync_memorder(__ATOMIC_SEQ_CST);
}

/* After a successful call: every thread has executed its barrier. */
static void after(long cmd, long ret)
{
	if (ret == 0 && is_barrier_cmd(cmd))
		__atomic_fetch_add(&kcsan_mb_epoch, 1, __ATOMIC_SEQ_CST);
}

/*
 * syscall(number, ...): glibc reads six arguments whatever the number, and
 * so do we (on x86-64 the sixth is read from the caller's frame, as glibc's
 * own syscall() does).
 */
ABI long syscall(long number, ...)
{
	long a[6], r;
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number != SYS_membarrier)
		return get_real_syscall()(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	before(a[0]);
	r = get_real_syscall()(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	after(a[0], r);
	return r;
}

ABI __attribute__((weak)) int membarrier(int cmd, unsigned int flags, int cpu_id)
{
	static membarrier_fn real;	/* libc's, or NULL: the system call */
	static int looked;
	membarrier_fn f;
	int r;

	if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&real, (membarrier_fn)dlsym(RTLD_NEXT, "membarrier"),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
	}
	f = __atomic_load_n(&real, __ATOMIC_RELAXED);
	before(cmd);
	if (f)
		r = f(cmd, flags, cpu_id);
	else
		r = (int)get_real_syscall()(SYS_membarrier, (long)cmd, (long)flags, (long)cpu_id);
	after(cmd, r);
	return r;
}
