/*
 * fastpath.h — the part of the runtime inlined into every __tsan_* entry
 * point: the test that lets an access that has nothing to do return after
 * a handful of instructions, and function entry/exit.
 *
 * Nearly every access of a program has nothing to do: no watchpoint is set
 * up anywhere (KCSAN watches one access in ~skip_watch), the access is not
 * the one sampled, and no watched re-check of a delayed access is due.  The
 * test for that reads one global word and the thread's context, and must
 * be cheap enough that the runtime costs a fraction of ThreadSanitizer (its
 * acceptance: one third of TSan's slowdown), so it is inlined into the entry
 * points (no second call, no saved registers) and the runtime is built with
 * hidden visibility (no GOT indirection).  Everything else is the slow path,
 * kcsan_check_access() in core.c, which takes the same decisions again in
 * full: the fast path may always send an access there, never the reverse.
 *
 * The global word, kcsan_gate, is 0 when the runtime is initialised and
 * enabled, focus is off and no watchpoint exists.  Its low bits count the
 * watchpoints being set up (core.c), so that an access racing with a new
 * watchpoint sees the count as soon as the watchpoint can be seen.  When it
 * says focus alone, a bit of focus's map of the code (focus.h) keeps the
 * plain accesses outside focused code here, without a call; a marked
 * access needs no map unless its thread has a delayed access.  While
 * watchpoints exist, a word beside it with a bit per watchpoint slot keeps
 * here the accesses whose slots hold none.  Otherwise kcsan_check_gated
 * (core.c) looks at what closed it -- the watchpoints near the access,
 * focus's map -- and keeps on the fast path the accesses that have nothing
 * to do with either.
 */
#ifndef KCSAN_FASTPATH_H
#define KCSAN_FASTPATH_H

#include "focus.h"
#include "kcsan_rt.h"

#define KCSAN_GATE_CLOSED	(1u << 30)	/* not initialised, or enabled=0 */
#define KCSAN_GATE_FOCUS	(1u << 29)	/* focus active: the code address decides */
#define KCSAN_GATE_WATCHES	(KCSAN_GATE_FOCUS - 1)	/* watchpoints set up */

/* Number of watchpoint slots (core.c): few are in use at any time (one
 * per thread in its delay window at most); a small table keeps the fast
 * path in cache.  A slot is chosen by page, and an access also checks the
 * two neighbouring slots, so that accesses spanning a page boundary still
 * find watchpoints that overlap them (the kernel's KCSAN_CHECK_ADJACENT). */
#define KCSAN_NUM_WATCHPOINTS	64
#define KCSAN_SLOT_PAGE_SHIFT	12

/* A cache line of its own: it is read by every access of every thread
 * and written at every watchpoint set up and removed, and the program's
 * own globals that the linker put beside it were written too.  slots has
 * bit i set while slot i holds a watchpoint (core.c sets it once the slot
 * is claimed, clears it before giving the slot back): one word in the
 * line the gate's load brought tells an access whether any of its three
 * slots is in use. */
struct kcsan_gate {
	unsigned int word;
	uint64_t slots;
} __attribute__((aligned(64)));
extern struct kcsan_gate kcsan_gate;

_Static_assert(KCSAN_NUM_WATCHPOINTS == 64, "kcsan_gate.slots has one bit per slot");

/* 1 when slots (kcsan_gate.slots) shows a watchpoint in one of the three
 * slots an access at addr looks at: those of its page and of the two
 * beside it, bits s-1, s, s+1 (mod 64). */
static inline __attribute__((always_inline)) int kcsan_watch_near(uint64_t slots, uintptr_t addr)
{
	const unsigned int s = (unsigned int)(((addr >> KCSAN_SLOT_PAGE_SHIFT) + KCSAN_NUM_WATCHPOINTS - 1) %
					      KCSAN_NUM_WATCHPOINTS);

	return (((slots >> s) | (slots << ((64 - s) % 64))) & 7) != 0;
}

/* core.c: kcsan_check's path when the gate is not 0 and not focus alone
 * over unfocused code -- the watchpoints', then focus's filter, then the
 * same test as kcsan_check, then the slow path if need be.  Counts its
 * calls per thread (ctx->gated; verbose=1 prints the exiting thread's). */
void kcsan_check_gated(const volatile void *ptr, size_t size, int type, uintptr_t ip);

/*
 * Whether the access (type: KCSAN_ACCESS_*) has nothing to do as far as
 * this thread is concerned; if so it is counted and 1 returned.  The
 * decisions are those of the slow path's sampling (core.c should_watch and
 * the re-check of the delayed access): a plain access counts down the
 * thread's skip counter, and so does the re-check of the delayed access
 * that every access makes; the counter running out, or a watched re-check
 * or a publication to note, is for the slow path.
 */
static inline __attribute__((always_inline)) int
kcsan_skip_fast(struct kcsan_ctx *ctx, int type)
{
	const int marked = (type & (KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_ASSERT)) ==
			   KCSAN_ACCESS_ATOMIC;
	long dec = !marked;

	if (__builtin_expect(ctx->reorder.size != 0, 0)) {
		/* A watched re-check is due (weakmem.c), or a marked write
		 * is to be noted as the first possible publication of the
		 * delayed access (kcsan_reorder_note_access). */
		if (ctx->reorder.publish == KCSAN_PUBLISH_PENDING ||
		    (marked && (type & KCSAN_ACCESS_WRITE) &&
		     ctx->reorder.publish == KCSAN_PUBLISH_NONE))
			return 0;
		/* The re-check of the delayed access is sampled too (not from
		 * a signal handler: it does not re-check). */
		dec += !ctx->nested;
	}
	/* A context not yet set up has skip 0: its first plain access goes
	 * to the slow path, which sets it up (kcsan_get_ctx). */
	if (__builtin_expect(ctx->skip >= dec, 1)) {
		ctx->skip -= dec;
		return 1;
	}
	return 0;
}

/* The check of one access (ip: the return address of the entry point, i.e.
 * the code that made the access). */
static inline __attribute__((always_inline)) void
kcsan_check(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	struct kcsan_ctx *ctx = &kcsan_tls;
	unsigned int gate = __atomic_load_n(&kcsan_gate.word, __ATOMIC_RELAXED);
	const long dec = (type & (KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_ASSERT)) != KCSAN_ACCESS_ATOMIC;

	/*
	 * The common case first, in one straight line: no watchpoint, no
	 * delayed access, the skip counter not run out, and with focus
	 * active, a marked access or code of no focused site of this kind.
	 * It is a case of the test below (kcsan_skip_fast, kcsan_focus_idle:
	 * focus_state is only ever set with a delayed access in flight, or
	 * within the slow path), written apart because the compiler laid
	 * that one out with two taken jumps on this path, focus or not
	 * (tests/e2e/data/focus/gate.c's loop of plain accesses, --no-focus:
	 * 68 -> 55 ms).
	 */
	if (__builtin_expect((gate & ~KCSAN_GATE_FOCUS) == 0 && !ctx->reorder.size &&
			     ctx->skip >= dec, 1)) {
		/* A marked access (or an assertion) is of no candidate's
		 * kind, and the marked access a candidate pairs with only
		 * matters with a delayed access in flight (focus.h
		 * kcsan_focus_wants): without one, focus has nothing to do
		 * with it, and its map of the code is not read (type is a
		 * constant of the entry point: no test is left). */
		if (!gate || (type & (KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_ASSERT))) {
			ctx->skip -= dec;
			return;
		}
		if (__builtin_expect(!kcsan_focus_code_at(ip, type), 1)) {
			ctx->skip -= dec;
			return;
		}
	}
	/*
	 * A watchpoint somewhere: an access none of whose slots (nor those
	 * of the delayed access it also re-checks) holds one has nothing to
	 * do with it, and goes on as if there were none.  Sending every
	 * access of every thread out of line while any watchpoint existed
	 * made a read-heavy program pay a call on most reads while a writer
	 * watched (liburcu's test_urcu with focus, whose windows fall in the
	 * writers: 5 % of the readers' accesses out of line, 1-1.5 % with
	 * --no-focus, whose windows fall in the readers themselves).
	 */
	if (__builtin_expect((gate & KCSAN_GATE_WATCHES) && !(gate & KCSAN_GATE_CLOSED), 0)) {
		const uint64_t slots = __atomic_load_n(&kcsan_gate.slots, __ATOMIC_RELAXED);

		if (!kcsan_watch_near(slots, (uintptr_t)ptr) &&
		    !(ctx->reorder.size && kcsan_watch_near(slots, (uintptr_t)ctx->reorder.ptr)))
			gate &= ~KCSAN_GATE_WATCHES;
	}
	/*
	 * A watchpoint near the access, the runtime off or starting: out of
	 * line.  Focus alone decides here, by a bit of its map of the code:
	 * it is active for a whole run, and sending every access of the
	 * program out of line for it cost a call per access (liburcu's
	 * test_urcu: 20 % of the run in kcsan_check_gated, focus 1.3-1.65x
	 * slower than --no-focus).
	 */
	if (gate == 0 || (gate == KCSAN_GATE_FOCUS && kcsan_focus_idle(ctx, ip, type))) {
		if (!kcsan_skip_fast(ctx, type))
			kcsan_check_access(ptr, size, type, ip);
	} else {
		kcsan_check_gated(ptr, size, type, ip);
	}
}

/* __tsan_func_entry: the shadow call stack for reports and the depth that
 * scopes the delayed access (weakmem.c).  Nothing else, so inline. */
static inline __attribute__((always_inline)) void kcsan_func_entry_fast(uintptr_t call_pc)
{
	struct kcsan_ctx *ctx = &kcsan_tls;
	const int d = ctx->depth;

	if ((unsigned int)d < KCSAN_STACK_MAX)
		ctx->stack[d] = call_pc;
	ctx->depth = d + 1;
}

/* __tsan_func_exit: with a delayed access in flight the exit may end its
 * scope (weakmem.c kcsan_func_exit); otherwise only the depth changes. */
static inline __attribute__((always_inline)) void kcsan_func_exit_fast(uintptr_t ip)
{
	struct kcsan_ctx *ctx = &kcsan_tls;

	if (__builtin_expect(ctx->reorder.size != 0, 0))
		kcsan_func_exit(ctx, ip);
	else
		ctx->depth--;
}

#endif /* KCSAN_FASTPATH_H */
