/*
 * core.c — KCSAN's soft watchpoints: the check done on every instrumented
 * access, setting up a watchpoint on a sampled plain access, and consuming
 * another thread's watchpoint on a conflicting access.
 *
 * A race is detected when thread A, having set up a watchpoint on its access
 * and waiting in the delay window, sees thread B hit that watchpoint with a
 * conflicting access (same memory, at least one write): B consumes the
 * watchpoint (CAS to KCSAN_WP_CONSUMED) and leaves a description of its
 * access in other_info[slot]; A, on removing its watchpoint, finds it
 * consumed and prints one report naming both accesses.  Independently, A
 * re-reads the watched value after the delay: a change without a consumer is
 * a race with an access the runtime did not see ("unknown origin").
 *
 * Only plain accesses are watched (marked ones, i.e. atomics and, with
 * tsan-distinguish-volatile, volatile accesses, only check for watchpoints),
 * so two marked accesses never race, and a marked access racing with a
 * watched plain access is reported.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "encoding.h"
#include "fastpath.h"
#include "focus.h"
#include "kcsan_rt.h"

/* KCSAN_NUM_WATCHPOINTS slots, chosen by page (fastpath.h). */
static uint64_t watchpoints[KCSAN_NUM_WATCHPOINTS];

/* fastpath.h: closed until kcsan_init() opens it; counts the watchpoints
 * being set up in its low bits. */
struct kcsan_gate kcsan_gate = { KCSAN_GATE_CLOSED, 0 };

/* Filled by the thread that consumed the watchpoint of the same slot; the
 * slot stays KCSAN_WP_CONSUMED (nobody else can claim or consume it) until
 * the watcher has copied this out, so one record per slot suffices. */
static struct {
	struct kcsan_access_info info;
	/* Release-stored by the consumer once info is complete: the value of
	 * the watchpoint it consumed, so that the watcher waits for the
	 * description of its own watchpoint.  (A flag, cleared by the
	 * watcher after its insert, was lost when a consumer came in
	 * between: the watcher then waited for nothing, seconds long.) */
	uint64_t ready;
} other_info[KCSAN_NUM_WATCHPOINTS];

#define compiler_barrier() __asm__ __volatile__("" ::: "memory")

/*
 * After fork() only the forking thread exists in the child: the watchpoints
 * the other threads had set up would stay in the table for ever (nobody is
 * left to remove them), taking the slots of the pages they watched -- the
 * child could then never watch those pages again.  It starts empty.
 */
static void child_after_fork(void)
{
	int i;

	for (i = 0; i < KCSAN_NUM_WATCHPOINTS; i++) {
		__atomic_store_n(&watchpoints[i], KCSAN_WP_INVALID, __ATOMIC_RELAXED);
		__atomic_store_n(&other_info[i].ready, 0, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&kcsan_gate.slots, 0, __ATOMIC_RELAXED);
	__atomic_and_fetch(&kcsan_gate.word, ~KCSAN_GATE_WATCHES, __ATOMIC_RELAXED);
}

__attribute__((constructor)) static void core_register_fork(void)
{
	pthread_atfork(NULL, NULL, child_after_fork);
}

static inline unsigned int slot_of(uintptr_t addr, int i)
{
	/* i in {-1, 0, 1}: the slot of the page and its neighbours. */
	return (unsigned int)(((addr >> KCSAN_SLOT_PAGE_SHIFT) + (uintptr_t)(i +
			       KCSAN_NUM_WATCHPOINTS)) % KCSAN_NUM_WATCHPOINTS);
}

/*
 * A watchpoint that conflicts with the access [addr, addr+size): it overlaps
 * and, if the access is a read, the watched access is a write (two reads
 * never race).  Returns the slot or -1; *enc receives the value seen, which
 * the consumer's CAS must still find.
 */
static int find_watchpoint(uintptr_t addr, size_t size, int only_writes, uint64_t *enc)
{
	int i;

	for (i = -1; i <= 1; i++) {
		unsigned int slot = slot_of(addr, i);
		uint64_t wp = __atomic_load_n(&watchpoints[slot], __ATOMIC_RELAXED);
		uintptr_t waddr;
		size_t wsize;
		int wwrite;

		if (!kcsan_wp_decode(wp, &waddr, &wsize, &wwrite))
			continue;	/* free or consumed */
		if (only_writes && !wwrite)
			continue;
		if (kcsan_ranges_overlap(addr, size, waddr, wsize)) {
			*enc = wp;
			return (int)slot;
		}
	}
	return -1;
}

/* Is any of the slots an access at addr looks at in use?  (Most often
 * none is: the one watchpoint of the moment is on another page.) */
static inline int any_watchpoint_near(uintptr_t addr)
{
	return (__atomic_load_n(&watchpoints[slot_of(addr, -1)], __ATOMIC_RELAXED) |
		__atomic_load_n(&watchpoints[slot_of(addr, 0)], __ATOMIC_RELAXED) |
		__atomic_load_n(&watchpoints[slot_of(addr, 1)], __ATOMIC_RELAXED)) != 0;
}

/* Claim a free slot near the access's own one; -1 when all three are busy
 * (the access is then simply not watched this time). */
static int insert_watchpoint(uintptr_t addr, size_t size, int is_write, uint64_t *enc)
{
	static const int order[3] = { 0, 1, -1 };
	uint64_t wp = kcsan_wp_encode(addr, size, is_write);
	int i;

	/* Counted first: an access that sees the count 0 skips the table. */
	__atomic_fetch_add(&kcsan_gate.word, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 3; i++) {
		unsigned int slot = slot_of(addr, order[i]);
		uint64_t expected = KCSAN_WP_INVALID;

		/* seq_cst: the watchpoint must be visible before we read the
		 * old value, or a writer could slip in between unseen. */
		if (__atomic_compare_exchange_n(&watchpoints[slot], &expected, wp, 0,
						__ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
			/* Before the old value is read: an access that
			 * does not see the bit comes before the watch. */
			__atomic_fetch_or(&kcsan_gate.slots, (uint64_t)1 << slot, __ATOMIC_SEQ_CST);
			*enc = wp;
			return (int)slot;
		}
	}
	__atomic_fetch_sub(&kcsan_gate.word, 1, __ATOMIC_RELAXED);
	return -1;
}

/*
 * Read up to 8 bytes of the watched memory for value-change detection.
 * Aligned power-of-two sizes are read as one relaxed atomic load (no tearing
 * against a concurrent writer); anything else is copied bytewise and only
 * the first 8 bytes are compared.
 */
static uint64_t read_value(const volatile void *ptr, size_t size)
{
	uintptr_t a = (uintptr_t)ptr;
	uint64_t v = 0;

	switch (size) {
	case 1:
		return __atomic_load_n((const volatile uint8_t *)ptr, __ATOMIC_RELAXED);
	case 2:
		if (!(a & 1))
			return __atomic_load_n((const volatile uint16_t *)ptr, __ATOMIC_RELAXED);
		break;
	case 4:
		if (!(a & 3))
			return __atomic_load_n((const volatile uint32_t *)ptr, __ATOMIC_RELAXED);
		break;
	case 8:
		if (!(a & 7))
			return __atomic_load_n((const volatile uint64_t *)ptr, __ATOMIC_RELAXED);
		break;
	default:
		break;
	}
	memcpy(&v, (const void *)a, size < sizeof(v) ? size : sizeof(v));
	return v;
}

/* Plain accesses (and assertions) are sampled; marked ones never watched.
 * 2: a focused access (focus.c), watched outside the ordinary sampling. */
static inline int should_watch(struct kcsan_ctx *ctx, int type, int is_reorder)
{
	if ((type & KCSAN_ACCESS_ATOMIC) && !(type & KCSAN_ACCESS_ASSERT))
		return 0;
	if (__builtin_expect(ctx->focus_state != 0, 0) && kcsan_focus_take(ctx, is_reorder))
		return 2;
	return --ctx->skip < 0;
}

/* This thread's access hit another thread's watchpoint. */
static void found_watchpoint(struct kcsan_ctx *ctx, int slot, uint64_t enc,
			     const volatile void *ptr, size_t size, int type,
			     uintptr_t ip, int is_reorder, uintptr_t to_ip)
{
	uint64_t expected = enc;

	/* Only one thread may consume a watchpoint; if the CAS fails the
	 * watcher removed it or someone else consumed it first. */
	if (!__atomic_compare_exchange_n(&watchpoints[slot], &expected, KCSAN_WP_CONSUMED,
					 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	other_info[slot].info = (struct kcsan_access_info){
		.ptr = ptr, .size = size, .type = type & ~KCSAN_ACCESS_SCOPED,
		.tid = ctx->tid, .ip = ip, .reordered = is_reorder, .to_ip = to_ip,
			.published = is_reorder && ctx->reorder.publish != KCSAN_PUBLISH_NONE,
		/* Read after the CAS (membarrier.c): a watchpoint set up
		 * after a membarrier() shows its epoch. */
		.expired = is_reorder && ctx->reorder.epoch !=
			   __atomic_load_n(&kcsan_mb_epoch, __ATOMIC_ACQUIRE),
	};
	/* The delayed access was made at the depth of its own function. */
	kcsan_capture_stack(ctx, is_reorder ? ctx->reorder.depth : ctx->depth,
			    &other_info[slot].info);
	__atomic_store_n(&other_info[slot].ready, enc, __ATOMIC_RELEASE);
}

/* Wait (bounded: 100000 polls, a few seconds at most) for the consumer of
 * watchpoint enc to publish its description.  It writes it right after its
 * CAS, so this only waits if it was preempted. */
static int wait_other_info(int slot, uint64_t enc)
{
	int i;

	for (i = 0; i < 100000; i++) {
		if (__atomic_load_n(&other_info[slot].ready, __ATOMIC_ACQUIRE) == enc)
			return 1;
		if (i < 100)
			continue;
		if (i < 1000) {
			sched_yield();
		} else {
			struct timespec ts = { 0, 1000 };

			nanosleep(&ts, NULL);
		}
	}
	return 0;
}

static void setup_watchpoint(struct kcsan_ctx *ctx, const volatile void *ptr,
			     size_t size, int type, uintptr_t ip, int is_reorder,
			     uintptr_t to_ip, enum kcsan_window kind, int focused)
{
	const int is_write = (type & KCSAN_ACCESS_WRITE) != 0;
	const int is_assert = (type & KCSAN_ACCESS_ASSERT) != 0;
	uint64_t enc, expected, old, new_;
	unsigned int handlers;
	unsigned long ignored_mark;
	int slot;

	/* A focused watchpoint leaves the sampling of the rest alone. */
	if (!focused)
		kcsan_reset_skip(ctx);

	slot = insert_watchpoint((uintptr_t)ptr, size, is_write, &enc);
	if (slot < 0)
		goto out;

	/*
	 * A reordered access is never used for value-change detection: it is
	 * simulated as happening later than it did, its memory may be gone
	 * by now (freed, out of scope), and reading it could fault.
	 */
	handlers = ctx->handlers;
	ignored_mark = kcsan_ignore_writes_mark();
	old = is_reorder ? 0 : read_value(ptr, size);
	kcsan_delay_window(ctx, kind);
	new_ = is_reorder ? 0 : read_value(ptr, size);
	/* A signal handler of this thread ran during the window: it may have
	 * changed the value itself (its accesses are not checked while we are
	 * in the runtime), and a thread does not race with itself. */
	compiler_barrier();
	if (ctx->handlers != handlers)
		new_ = old;

	/* The watch is over: its bit goes before the slot is given back
	 * (below), so that it never clears the bit of the slot's next
	 * owner.  An access that no longer sees it comes after the watch. */
	__atomic_fetch_and(&kcsan_gate.slots, ~((uint64_t)1 << slot), __ATOMIC_SEQ_CST);
	expected = enc;
	if (!__atomic_compare_exchange_n(&watchpoints[slot], &expected, KCSAN_WP_INVALID,
					 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) &&
	    expected == KCSAN_WP_FREED) {
		/* The memory was freed during the window (heap.c): the
		 * allocator's own writes to it are no race, and whoever gets
		 * it next owns it.  Nothing to report. */
		__atomic_store_n(&watchpoints[slot], KCSAN_WP_INVALID, __ATOMIC_RELEASE);
		__atomic_fetch_sub(&kcsan_gate.word, 1, __ATOMIC_RELAXED);
	} else if (expected == enc) {
		__atomic_fetch_sub(&kcsan_gate.word, 1, __ATOMIC_RELAXED);
		/* Not consumed.  A changed value means a writer the runtime
		 * does not see (uninstrumented code, another process), unless
		 * it may be a write a thread ignores (annotate.c). */
		if (old != new_ && kcsan_opts.report_unknown_origin && !kcsan_unseen_writer_ignored(ignored_mark)) {
			struct kcsan_access_info me = {
				.ptr = ptr, .size = size, .type = type, .tid = ctx->tid,
				.ip = ip, .reordered = is_reorder, .to_ip = to_ip,
			.published = is_reorder && ctx->reorder.publish != KCSAN_PUBLISH_NONE,
			};

			kcsan_capture_stack(ctx, is_reorder ? ctx->reorder.depth : ctx->depth, &me);
			kcsan_report_race(&me, NULL, 1, old, new_);
		}
	} else {
		/* Consumed: the slot is ours until we free it below. */
		struct kcsan_access_info me = {
			.ptr = ptr, .size = size, .type = type & ~KCSAN_ACCESS_SCOPED,
			.tid = ctx->tid, .ip = ip, .reordered = is_reorder, .to_ip = to_ip,
			.published = is_reorder && ctx->reorder.publish != KCSAN_PUBLISH_NONE,
		};
		struct kcsan_access_info other;
		int have_other = wait_other_info(slot, enc);

		/* Read after the CAS that found it consumed (membarrier.c). */
		me.expired = is_reorder && ctx->reorder.epoch !=
			     __atomic_load_n(&kcsan_mb_epoch, __ATOMIC_ACQUIRE);
		kcsan_capture_stack(ctx, is_reorder ? ctx->reorder.depth : ctx->depth, &me);
		if (have_other) {
			other = other_info[slot].info;
			__atomic_store_n(&other_info[slot].ready, 0, __ATOMIC_RELAXED);
		}
		__atomic_store_n(&watchpoints[slot], KCSAN_WP_INVALID, __ATOMIC_RELEASE);
		__atomic_fetch_sub(&kcsan_gate.word, 1, __ATOMIC_RELAXED);
		/* Two assertions are not accesses: no race between them.  An
		 * access the other thread ignores (annotate.c) is no race
		 * either: it consumed the watchpoint only to say so. */
		if (!(have_other && is_assert && (other.type & KCSAN_ACCESS_ASSERT)) &&
		    !(have_other && (other.type & KCSAN_ACCESS_IGNORED)) &&
		    /* A delayed access that a membarrier() ordered before the
		     * re-check was over races with nothing (membarrier.c). */
		    !me.expired && !(have_other && other.expired))
			kcsan_report_race(&me, have_other ? &other : NULL,
					  old != new_, old, new_);
	}
out:
	/*
	 * The watched access becomes the thread's delayed access, unless it
	 * already is (a re-check must not move its scope to a deeper callee),
	 * it is an assertion (not a real access), or we are in a signal
	 * handler (which must not replace the interrupted code's access).
	 */
	if (!is_reorder && !is_assert && kcsan_opts.weak_memory && !ctx->nested)
		kcsan_set_reorder(ctx, ptr, size, type, ip);
}

/*
 * The memory [addr, addr+size) is being freed (heap.c, before the real
 * free/realloc/munmap): the watchpoints on it become KCSAN_WP_FREED, so
 * that an access of the memory's next owner cannot hit them.  Only the
 * slots a watchpoint overlapping the range can be in are looked at: those
 * of the pages from the lowest start address such a watchpoint can have
 * (its size is at most KCSAN_WP_SIZE_MAX) to the range's last page, and
 * their neighbours (insert_watchpoint may use them).  A watchpoint set up
 * after this look is an access racing with the free itself.
 */
void kcsan_forget_watchpoints(uintptr_t addr, size_t size)
{
	uintptr_t lo, first, last, page;

	if (!(__atomic_load_n(&kcsan_gate.word, __ATOMIC_RELAXED) & KCSAN_GATE_WATCHES) || !size)
		return;
	lo = addr > KCSAN_WP_SIZE_MAX ? addr - KCSAN_WP_SIZE_MAX : 0;
	first = lo >> KCSAN_SLOT_PAGE_SHIFT;
	if (first)
		first--;
	last = ((addr + size - 1) >> KCSAN_SLOT_PAGE_SHIFT) + 1;
	if (last - first >= KCSAN_NUM_WATCHPOINTS)
		last = first + KCSAN_NUM_WATCHPOINTS - 1;	/* every slot once */
	for (page = first; page <= last; page++) {
		unsigned int slot = (unsigned int)(page % KCSAN_NUM_WATCHPOINTS);
		uint64_t wp = __atomic_load_n(&watchpoints[slot], __ATOMIC_ACQUIRE);
		uintptr_t waddr;
		size_t wsize;
		int wwrite;

		/* A failed CAS means the watcher removed it, or a conflicting
		 * access consumed it first: that report stands. */
		if (kcsan_wp_decode(wp, &waddr, &wsize, &wwrite) &&
		    kcsan_ranges_overlap(addr, size, waddr, wsize))
			__atomic_compare_exchange_n(&watchpoints[slot], &wp, KCSAN_WP_FREED, 0,
						    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
	}
}

/*
 * The check.  ip is the access's code location; for the re-check of the
 * delayed access (is_reorder), to_ip is the later access it is checked at:
 * "where it was reordered to".
 */
void __kcsan_check_access_ctx(struct kcsan_ctx *ctx, const volatile void *ptr,
			      size_t size, int type, uintptr_t ip,
			      int is_reorder, uintptr_t to_ip)
{
	const uintptr_t cur_ip = ip;
	const int cur_type = type;
	const int own = !is_reorder;	/* called for this access itself */
	uint64_t enc;
	int slot, watch;

	/* A delayed access ordered by a membarrier() since (membarrier.c). */
	if (is_reorder && kcsan_reorder_expired(ctx))
		goto out;
again:
	slot = find_watchpoint((uintptr_t)ptr, size, !(type & KCSAN_ACCESS_WRITE), &enc);
	if (slot >= 0) {
		found_watchpoint(ctx, slot, enc, ptr, size, type, ip, is_reorder, to_ip);
		goto out;
	}
	/* The re-check of a delayed access right after a publication is
	 * watched whatever the sampling says (weakmem.c). */
	if ((watch = should_watch(ctx, type, is_reorder)) ||
	    (is_reorder && kcsan_reorder_force_watch(ctx) && (watch = 3))) {
		/* 1: sampled, 2: focused (the access, or the delayed one
		 * after its paired marked access), 3: the forced re-check
		 * after a publication.  Each window is within the budget
		 * (delay.c), which ranks the re-checks first. */
		const enum kcsan_window kind = watch == 1 ? KCSAN_WINDOW_SAMPLED :
			is_reorder ? KCSAN_WINDOW_RECHECK : KCSAN_WINDOW_FOCUSED;

		if (kcsan_delay_allowed(ctx, kind)) {
			setup_watchpoint(ctx, ptr, size, type, ip, is_reorder, to_ip,
					 kind, watch == 2);
			goto out;
		}
		/* Over budget: sampled again later; a focused site waits for
		 * its next pace, a re-check is not forced again. */
		if (kind == KCSAN_WINDOW_SAMPLED)
			kcsan_reset_skip(ctx);
	}
	/*
	 * Simulated reordering: the delayed access is checked again along
	 * with every later access, as if it happened now; not from a signal
	 * handler (nested context: the thread would race with its own
	 * interrupted code, which cannot observe its own reordering).  Read
	 * size last:
	 * kcsan_func_exit / a barrier invalidate by clearing it.
	 */
	if (!is_reorder && kcsan_opts.weak_memory && !ctx->nested && ctx->reorder.size &&
	    !kcsan_reorder_expired(ctx)) {
		ptr = ctx->reorder.ptr;
		type = ctx->reorder.type;
		ip = ctx->reorder.ip;
		compiler_barrier();
		size = ctx->reorder.size;
		to_ip = cur_ip;
		is_reorder = 1;
		if (size)
			goto again;
	}
out:
	/* After the re-check: a marked write is a possible publication of
	 * the delayed access, whose *next* re-check is then watched. */
	if (own)
		kcsan_reorder_note_access(ctx, cur_type, cur_ip);
}

/*
 * The gate is not 0, and the inline test (fastpath.h) could not keep the
 * access: a watchpoint exists, the runtime is off or starting, or focus
 * may have business with the access.  While a watchpoint exists anywhere,
 * every access of every thread would otherwise take the slow path; most
 * have nothing to do with it, which three loads tell (the access, and the
 * delayed access it also re-checks).  A watchpoint set up after this look
 * is missed, as in the kernel: the same happens to an access made just
 * before it.
 */
void kcsan_check_gated(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	struct kcsan_ctx *ctx = &kcsan_tls;
	const unsigned int gate = __atomic_load_n(&kcsan_gate.word, __ATOMIC_RELAXED);
	uint64_t enc;

	ctx->gated++;
	if (gate & KCSAN_GATE_CLOSED)
		goto slow;
	if (gate & KCSAN_GATE_WATCHES) {
		if (any_watchpoint_near((uintptr_t)ptr) &&
		    find_watchpoint((uintptr_t)ptr, size, !(type & KCSAN_ACCESS_WRITE), &enc) >= 0)
			goto slow;
		if (ctx->reorder.size && !ctx->nested &&
		    any_watchpoint_near((uintptr_t)ctx->reorder.ptr) &&
		    find_watchpoint((uintptr_t)ctx->reorder.ptr, ctx->reorder.size,
				    !(ctx->reorder.type & KCSAN_ACCESS_WRITE), &enc) >= 0)
			goto slow;
	}
	if ((gate & KCSAN_GATE_FOCUS) && kcsan_focus_wants(ctx, ip, type))
		goto slow;
	if (kcsan_skip_fast(ctx, type))
		return;
slow:
	kcsan_check_access(ptr, size, type, ip);
}

/*
 * An access the thread ignores (AnnotateIgnoreReads/WritesBegin, a custom
 * mutex's own code: annotate.c) is neither watched nor re-checks the
 * delayed access; but if it hits another thread's watchpoint, it consumes
 * it, marked KCSAN_ACCESS_IGNORED, so that the watcher stays silent rather
 * than report the value it changed as a race of unknown origin.
 */
static __attribute__((noinline)) void
ignored_access(struct kcsan_ctx *ctx, const volatile void *ptr, size_t size,
	       int type, uintptr_t ip)
{
	uint64_t enc;
	int slot;

	if (!(__atomic_load_n(&kcsan_gate.word, __ATOMIC_RELAXED) & KCSAN_GATE_WATCHES))
		return;
	slot = find_watchpoint((uintptr_t)ptr, size, !(type & KCSAN_ACCESS_WRITE), &enc);
	if (slot >= 0)
		found_watchpoint(ctx, slot, enc, ptr, size, type | KCSAN_ACCESS_IGNORED,
				 ip, 0, 0);
}

/* The slow path of kcsan_check (fastpath.h), which sends here every access
 * that may have something to do; hooks.c calls it directly. */
void kcsan_check_access(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	struct kcsan_ctx *ctx;

	if (__builtin_expect(size == 0, 0))
		return;
	ctx = kcsan_get_ctx();
	/* in_rt: re-entry from a wrapper or a signal handler; disable:
	 * inside data_race(); not initialised or enabled=0: nothing. */
	if (ctx->in_rt || ctx->disable ||
	    __atomic_load_n(&kcsan_initialized, __ATOMIC_ACQUIRE) != 2 ||
	    !kcsan_opts.enabled)
		return;
	ctx->in_rt = 1;
	compiler_barrier();	/* a signal handler must see in_rt set first */
	if (__builtin_expect(ctx->ignore_reads | ctx->ignore_writes, 0) &&
	    kcsan_access_ignored(ctx, type)) {
		ignored_access(ctx, ptr, size, type, ip);
	} else if (kcsan_focus_active) {
		unsigned int f = kcsan_focus_before(ctx, type, ip);

		__kcsan_check_access_ctx(ctx, ptr, size, type, ip, 0, 0);
		kcsan_focus_after(ctx, f, type);
	} else {
		__kcsan_check_access_ctx(ctx, ptr, size, type, ip, 0, 0);
	}
	compiler_barrier();
	ctx->in_rt = 0;
}
