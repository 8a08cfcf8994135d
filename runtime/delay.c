/*
 * delay.c — the watchpoints' delay windows and their budget
 * (max_delay_pct).
 *
 * A watchpoint costs its thread a delay window (udelay).  The kernel
 * busy-waits; in user space a sleep is better: the racing thread may need
 * this CPU to run at all (fewer CPUs than threads, a loaded CI machine),
 * and a sleep gives it the CPU.  A thread in a tight loop reaches a
 * sampled watchpoint every few microseconds of work, and an 80 µs window
 * each time made it run tens of times slower (in a critical section, every
 * thread waiting for the lock too).  So the windows are capped at a share of the thread's running time,
 * and all threads' windows together at the same share of the process's:
 * threads that take turns in one critical section each stay under their
 * own share while the others wait for them (per thread only, four of them
 * spent 40 % of the time in delays).
 *
 * Every window counts and every window is capped, whatever chose the
 * access: ordinary sampling, focus (a candidate's burst or its pace,
 * focus.c), or the watched re-check of a delayed access after a
 * publication (weakmem.c).  Focus's windows and the forced re-checks were
 * once left out of both, as "paced on their own": but pacing is per site,
 * and a read-heavy program runs dozens of focused sites at once -- liburcu's
 * test_urcu spent 80 % of its time in windows against a 10 % budget, and a
 * program with 32 hot candidates 170 %.
 *
 * The kinds are ranked: without focus, ordinary sampling may only spend
 * the budget down to its last half, and the re-checks all of it; with
 * focus, sampling stops at its first quarter and focus takes the rest of
 * the same half.  A re-check after a publication is what finds a "reordered" race,
 * and it only follows a watch of the same access: with one budget for all,
 * a tight loop's sampling spent it all and the re-check it had made due was
 * refused (the seeds' buggy twins went unreported).  For the same reason
 * a re-check is held to the process's budget only: a thread that has just
 * started has spent its own share in its first window (the article's T1,
 * a thread per round, made its store and its flag and was gone), and the
 * re-checks of a thread are never more than its other windows.  Focus in turn comes
 * before the sampling of the rest.  A sparse program (a test that touches
 * shared data now and then) stays under all three and is watched as before.
 *
 * Focus and sampling share one half, rather than focus having three
 * quarters: focus moves the windows to the candidates, it does not add
 * to them.  With three quarters, every program hot enough to spend the
 * budget slept half as long again with focus as without -- a CK
 * validation program of 0.1 s, 27.5 ms of windows against 15.9 ms
 * with --no-focus, a tenth of its run -- and focus may not cost more
 * than --no-focus (issue 13: 10 %).
 *
 * Focus's quarter is kept for it only while focus uses it: while focus
 * has asked for no window (focused burst or pace, taken or refused) in
 * the last second -- its candidates' code not running, or never -- sampling
 * may spend the half, as with --no-focus.  Reserved for nothing, the
 * quarter halved sampling's windows: liburcu's test_urcu_gc (3 candidates,
 * none executed: 0 focused windows) slept 31 ms a second with focus
 * against 60 ms with --no-focus, and as its writers slept less their
 * grace periods took the CPUs from the readers (2 readers, 2 writers on
 * 2 CPUs): 19 M reads against 26 M, read as a focus cost of up to 1.11
 * by the benchmark (8 interleaved triples; focus with max_delay_pct=20,
 * sampling's quarter then as long as --no-focus's half: 29 M).  The
 * first request after such a pause may reach three quarters, so that a
 * focused site run now and then is not refused because sampling, alone
 * until then, has spent the half: the total passes the half by at most
 * one window a second.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <time.h>

#include "focus.h"
#include "kcsan_rt.h"

/*
 * Every thread, and the process, may spend this much in windows beyond
 * the budget's share of its time (the kinds' quarters of it, as for the
 * share): a short test -- a few milliseconds, the bundled examples -- is
 * all burst, and a share of its length allowed one window before the
 * program was over (examples/atomic-lock: 1 of 64 watched).  A long
 * program does not notice 20 ms.
 */
#define KCSAN_DELAY_ALLOWANCE_NS	((uint64_t)20000000)

static uint64_t process_born_ns, process_delayed_ns;
/* When focus last asked for a window (0: never); see the comment at the top. */
static uint64_t focus_wanted_ns;
#define KCSAN_FOCUS_IDLE_NS	((uint64_t)1000000000)
static uint64_t longest_window_ns;
/* verbose=1: windows taken and refused (over budget), by kind. */
static unsigned long windows[KCSAN_WINDOW_KINDS], refused[KCSAN_WINDOW_KINDS];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Is DELAYED, spent in windows over ELAPSED, beyond QUARTERS / 4 of the
 * budget PCT (with the allowance's share)? */
static int beyond_share(uint64_t delayed, uint64_t elapsed, uint64_t pct, uint64_t quarters)
{
	return delayed * 400 > pct * quarters * elapsed + KCSAN_DELAY_ALLOWANCE_NS * 100 * quarters;
}

/* Has the process, or (if per_thread) the thread, spent its share
 * (quarters / 4 of max_delay_pct) of the time since it was first seen in
 * windows? */
static int over(struct kcsan_ctx *ctx, uint64_t quarters, int per_thread, uint64_t now)
{
	const uint64_t pct = (uint64_t)kcsan_opts.max_delay_pct;
	uint64_t born, expected = 0;

	if (!pct || !kcsan_opts.udelay)
		return 0;
	if (!ctx->born_ns)
		ctx->born_ns = now;
	if (!__atomic_compare_exchange_n(&process_born_ns, &expected, now, 0,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		born = expected;
	else
		born = now;
	return (per_thread && beyond_share(ctx->delayed_ns, now - ctx->born_ns, pct, quarters)) ||
	       beyond_share(__atomic_load_n(&process_delayed_ns, __ATOMIC_RELAXED), now - born, pct, quarters);
}

int kcsan_delay_allowed(struct kcsan_ctx *ctx, enum kcsan_window kind)
{
	/* [focus active][kind]: the share of the budget the kind may reach. */
	static const uint64_t quarters[2][KCSAN_WINDOW_KINDS] = {
		{ [KCSAN_WINDOW_SAMPLED] = 2, [KCSAN_WINDOW_FOCUSED] = 2,
		  [KCSAN_WINDOW_RECHECK] = 4 },
		{ [KCSAN_WINDOW_SAMPLED] = 1, [KCSAN_WINDOW_FOCUSED] = 2,
		  [KCSAN_WINDOW_RECHECK] = 4 },
	};

	const uint64_t now = now_ns();
	uint64_t q = quarters[kcsan_focus_active != 0][kind];

	if (kcsan_focus_active && kind != KCSAN_WINDOW_RECHECK) {
		const uint64_t last = __atomic_load_n(&focus_wanted_ns, __ATOMIC_RELAXED);
		const int idle = !last || now - last > KCSAN_FOCUS_IDLE_NS;

		if (kind == KCSAN_WINDOW_FOCUSED) {
			__atomic_store_n(&focus_wanted_ns, now, __ATOMIC_RELAXED);
			if (idle)
				q = 3;
		} else if (idle) {
			q = 2;
		}
	}
	if (!over(ctx, q, kind != KCSAN_WINDOW_RECHECK, now))
		return 1;
	if (kcsan_opts.verbose)
		__atomic_fetch_add(&refused[kind], 1, __ATOMIC_RELAXED);
	return 0;
}

void kcsan_delay_window(struct kcsan_ctx *ctx, enum kcsan_window kind)
{
	unsigned long us = kcsan_opts.udelay;
	struct timespec ts;
	uint64_t t0, spent;

	if (kcsan_opts.verbose)
		__atomic_fetch_add(&windows[kind], 1, __ATOMIC_RELAXED);
	if (kcsan_opts.udelay_rand && us > 1)
		us -= kcsan_rand(ctx) % (us / 2);
	if (!us) {
		sched_yield();
		return;
	}
	ts.tv_sec = (time_t)(us / 1000000);
	ts.tv_nsec = (long)(us % 1000000) * 1000;
	/* The time actually spent: a loaded machine oversleeps, and what
	 * the program loses is what the budget is about. */
	t0 = now_ns();
	nanosleep(&ts, NULL);
	spent = now_ns() - t0;
	ctx->delayed_ns += spent;
	__atomic_fetch_add(&process_delayed_ns, spent, __ATOMIC_RELAXED);
	for (uint64_t l = __atomic_load_n(&longest_window_ns, __ATOMIC_RELAXED); spent > l;)
		if (__atomic_compare_exchange_n(&longest_window_ns, &l, spent, 1,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
}

/*
 * verbose=1, at exit: all delay windows against the budget, the longest
 * window, and how many windows of each kind were taken and refused.  A
 * window is allowed when the budget is not yet spent, so the total can
 * pass it by at most one window per thread: tests check that bound (a
 * loaded machine oversleeps, and the longest window says by how much).
 */
void kcsan_delay_summary(void)
{
	const uint64_t born = __atomic_load_n(&process_born_ns, __ATOMIC_RELAXED);

	if (!kcsan_opts.verbose || !born)
		return;
	dprintf(kcsan_opts.log_fd,
		"kcsan: delays: %llu us in %llu us, budget %d%%, longest window %llu us\n",
		(unsigned long long)(__atomic_load_n(&process_delayed_ns, __ATOMIC_RELAXED) / 1000),
		(unsigned long long)((now_ns() - born) / 1000), kcsan_opts.max_delay_pct,
		(unsigned long long)(__atomic_load_n(&longest_window_ns, __ATOMIC_RELAXED) / 1000 + 1));
	dprintf(kcsan_opts.log_fd,
		"kcsan: windows: %lu sampled, %lu focused, %lu re-checks; "
		"over budget: %lu, %lu, %lu\n",
		__atomic_load_n(&windows[KCSAN_WINDOW_SAMPLED], __ATOMIC_RELAXED),
		__atomic_load_n(&windows[KCSAN_WINDOW_FOCUSED], __ATOMIC_RELAXED),
		__atomic_load_n(&windows[KCSAN_WINDOW_RECHECK], __ATOMIC_RELAXED),
		__atomic_load_n(&refused[KCSAN_WINDOW_SAMPLED], __ATOMIC_RELAXED),
		__atomic_load_n(&refused[KCSAN_WINDOW_FOCUSED], __ATOMIC_RELAXED),
		__atomic_load_n(&refused[KCSAN_WINDOW_RECHECK], __ATOMIC_RELAXED));
}
