/*
 * weakmem.c — KCSAN's model of a subset of weak memory (docs/design.md §5).
 *
 * Each plain access for which a watchpoint was set up is afterwards
 * simulated as delayed ("reordered"): it is checked again with every later
 * instrumented access of the same thread (core.c), as if it only became
 * visible then.  At most one access per thread is in flight (ctx->reorder);
 * a newer one replaces it.  It stops being delayed
 *   - when the function that made it returns (its scope: callees are inside
 *     the window), after one last check at that function's exit, or
 *   - when a barrier that orders it runs (kcsan_barrier).
 * Only delaying ("store/load buffering") is modelled: the runtime cannot
 * execute an access earlier than the program does, so acquire operations
 * (which forbid later accesses from moving up) end nothing.
 *
 * Publication.  A re-check is only a race check: it finds another thread's
 * watchpoint, and sets one up itself only when sampling selects it.  The
 * moment that matters is right after a marked write made while the access
 * is delayed (WRITE_ONCE(flag), a relaxed RMW, atomic_set...): the other
 * thread can now see the flag and touch the data.  The instrumentation runs
 * before each access, so the re-check *at* the marked write is too early
 * (the flag is not yet stored); the first re-check after it -- the next
 * access, the function's exit, or the barrier that ends the delay (the
 * barrier of smp_store_mb() comes after its store, an unlock after the
 * critical section's flag store) -- is always watched, once per delayed
 * access.  That costs at most one extra delay window per sampled access,
 * and cannot report a correct program: an access that a release or barrier
 * ordered before the marked write is no longer delayed by then.
 */
#include <limits.h>

#define KCSAN_LKMM_ABI_ONLY
#include "../include/kcsan/lkmm.h"
#include "encoding.h"
#include "focus.h"
#include "kcsan_rt.h"

void kcsan_set_reorder(struct kcsan_ctx *ctx, const volatile void *ptr,
		       size_t size, int type, uintptr_t ip)
{
	struct kcsan_reorder *ra = &ctx->reorder;

	ra->ptr = ptr;
	ra->type = type | KCSAN_ACCESS_SCOPED;
	ra->ip = ip;
	ra->depth = ctx->depth;
	ra->publish = KCSAN_PUBLISH_NONE;
	ra->focus_rechecked = 0;
	ra->static_barriers = kcsan_focus_active && kcsan_focus_has_barrier(ip);
	ra->epoch = __atomic_load_n(&kcsan_mb_epoch, __ATOMIC_ACQUIRE);
	/* size last: it is the "valid" flag, read last by the re-check. */
	__asm__ __volatile__("" ::: "memory");
	ra->size = size;
}

/*
 * Which barrier ends which delayed access (the seeds' test_barrier_nothreads
 * table):
 *   MB, RELEASE  every access: a full barrier or a release orders all earlier
 *                accesses before everything after it.
 *   WMB          writes and RMWs (an RMW contains a write), not reads.
 *   RMB          reads and RMWs (an RMW contains a read), not plain writes.
 */
int kcsan_reorder_force_watch(struct kcsan_ctx *ctx)
{
	if (ctx->reorder.publish != KCSAN_PUBLISH_PENDING)
		return 0;
	ctx->reorder.publish = KCSAN_PUBLISH_DONE;
	return 1;
}

void kcsan_reorder_note_access(struct kcsan_ctx *ctx, int type, uintptr_t ip)
{
	const int marked_write = KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_WRITE;

	if (ctx->reorder.size && ctx->reorder.publish == KCSAN_PUBLISH_NONE &&
	    (type & (marked_write | KCSAN_ACCESS_ASSERT)) == marked_write &&
	    !ctx->nested) {
		ctx->reorder.publish_ip = ip;
		ctx->reorder.publish = KCSAN_PUBLISH_PENDING;
	}
}

/* One last check of the delayed access before its scope or a barrier ends
 * it (to_ip: where it is checked); watched if a publication is pending. */
static void reorder_last_check(struct kcsan_ctx *ctx, uintptr_t to_ip)
{
	struct kcsan_reorder *ra = &ctx->reorder;

	if (ctx->in_rt || ctx->disable || !kcsan_opts.enabled ||
	    __atomic_load_n(&kcsan_initialized, __ATOMIC_ACQUIRE) != 2)
		return;
	ctx->in_rt = 1;
	__asm__ __volatile__("" ::: "memory");
	__kcsan_check_access_ctx(ctx, ra->ptr, ra->size, ra->type, ra->ip, 1, to_ip);
	__asm__ __volatile__("" ::: "memory");
	ctx->in_rt = 0;
}

void kcsan_barrier(struct kcsan_ctx *ctx, enum kcsan_barrier kind)
{
	struct kcsan_reorder *ra = &ctx->reorder;
	int ends = 0;

	/* A signal handler's barriers order the handler's accesses, not those
	 * of the code it interrupted (no scoped effects from nested contexts).
	 * Inside AnnotateIgnoreSyncBegin/End, or a custom mutex's own code
	 * (annotate.c), synchronisation is not seen: that mutex's release is
	 * its __tsan_mutex_pre_unlock, made before. */
	if (!ra->size || ctx->nested || ctx->ignore_sync)
		return;
	switch (kind) {
	case KCSAN_BARRIER_MB:
	case KCSAN_BARRIER_RELEASE:
		ends = 1;
		break;
	case KCSAN_BARRIER_WMB:
		ends = (ra->type & (KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND)) != 0;
		break;
	case KCSAN_BARRIER_RMB:
		ends = !(ra->type & KCSAN_ACCESS_WRITE) ||
		       (ra->type & KCSAN_ACCESS_COMPOUND);
		break;
	}
	if (ends) {
		/* Ordered from now on, but it was not while the publication
		 * since its delay began was already visible. */
		if (ra->publish == KCSAN_PUBLISH_PENDING)
			reorder_last_check(ctx, ra->publish_ip);
		ra->size = 0;
	}
}

/*
 * Memory being freed (heap.c): the allocator orders the free before the
 * malloc that hands the memory to its next owner (its lock is a release /
 * acquire pair, invisible to the instrumentation), so a delayed access to
 * that memory cannot be delayed past the free.  Only an access that
 * overlaps the freed range ends: a free orders nothing else (glibc's
 * thread cache takes no lock at all).  Ended from a signal handler too:
 * the memory is gone whoever freed it (ending early hides reports at
 * worst, never makes one); the last check, as at a barrier, only outside
 * one.
 */
void kcsan_release_range(struct kcsan_ctx *ctx, uintptr_t addr, size_t size)
{
	struct kcsan_reorder *ra = &ctx->reorder;

	if (!ra->size || !kcsan_ranges_overlap(addr, size, (uintptr_t)ra->ptr, ra->size))
		return;
	if (ra->publish == KCSAN_PUBLISH_PENDING && !ctx->nested)
		reorder_last_check(ctx, ra->publish_ip);
	ra->size = 0;
}

/*
 * C11/GNU atomics and fences: release, acq_rel and seq_cst end every delayed
 * access (as the kernel's kcsan_atomic_builtin_memorder).  A seq_cst *load*
 * is, strictly, only an acquire in C11; it is treated like the others
 * because a seq_cst operation is what programmers write to mean "fully
 * ordered", and ending a delayed access early can only hide reports, never
 * create false ones.  relaxed, consume and acquire end nothing.
 */
void kcsan_barrier_memorder(struct kcsan_ctx *ctx, int memorder)
{
	/* Clang may set high bits (HLE hints) in the order: mask them off. */
	switch (memorder & 0xffff) {
	case __ATOMIC_RELEASE:
	case __ATOMIC_ACQ_REL:
	case __ATOMIC_SEQ_CST:
		kcsan_barrier(ctx, KCSAN_BARRIER_RELEASE);
		break;
	default:
		break;
	}
}

/*
 * __atomic_signal_fence(ORDER) in instrumented code is how <kcsan/lkmm.h>
 * announces a barrier (see its "Runtime ABI"): the ORDER is a label, not a
 * C11 ordering.  MB=SEQ_CST, WMB=ACQ_REL, RMB=ACQUIRE, RELEASE=RELEASE.
 * relaxed/consume labels nothing.
 */
void kcsan_signal_fence(struct kcsan_ctx *ctx, int encoded)
{
	switch (encoded & 0xffff) {
	case KCSAN_BARRIER_SIGNAL_FENCE_MB:
		kcsan_barrier(ctx, KCSAN_BARRIER_MB);
		break;
	case KCSAN_BARRIER_SIGNAL_FENCE_WMB:
		kcsan_barrier(ctx, KCSAN_BARRIER_WMB);
		break;
	case KCSAN_BARRIER_SIGNAL_FENCE_RMB:
		kcsan_barrier(ctx, KCSAN_BARRIER_RMB);
		break;
	case KCSAN_BARRIER_SIGNAL_FENCE_RELEASE:
		kcsan_barrier(ctx, KCSAN_BARRIER_RELEASE);
		break;
	default:
		break;
	}
}

void kcsan_capture_stack(const struct kcsan_ctx *ctx, int depth,
			 struct kcsan_access_info *a)
{
	int d = depth < KCSAN_STACK_MAX ? depth : KCSAN_STACK_MAX;

	a->nframes = 0;
	while (--d >= 0 && a->nframes < KCSAN_REPORT_FRAMES - 1)
		a->frames[a->nframes++] = ctx->stack[d];
}

/*
 * Function exit ends the scope of a delayed access made at this depth (or
 * deeper: a longjmp out of callees skips their exits).  Before that, one last
 * check: the instrumentation runs *before* each access, so if the delayed
 * write was the function's last access before e.g. giving up a lock by
 * uninstrumented means, a conflicting access after that point is only seen
 * by this check.  ip is the exit's location ("reordered to").
 */
void kcsan_func_exit(struct kcsan_ctx *ctx, uintptr_t ip)
{
	struct kcsan_reorder *ra = &ctx->reorder;

	/* Static barriers (focus.c) before the exit end the delay first. */
	if (kcsan_focus_active && ra->size && !ctx->in_rt)
		kcsan_focus_barriers(ctx, ip);
	/* A signal handler's function exits run deeper than the interrupted
	 * code's scope, so they never end it; they do no check either. */
	if (ra->size && ctx->depth <= ra->depth && !ctx->nested) {
		reorder_last_check(ctx, ip);
		ra->size = 0;
		ra->depth = INT_MIN;
	}
	ctx->depth--;
}

/*
 * A synchronisation the instrumentation does not see, of C11 order
 * MEMORDER: the pthread wrappers before an unlock, post, create... (release
 * semantics end every delayed access), and ThreadSanitizer's annotations
 * (annotate.c: __tsan_release, AnnotateHappensBefore, a custom mutex's
 * unlock are releases; __tsan_acquire & co. acquires, which end nothing in
 * this model -- kcsan_barrier_memorder decides, as for an atomic of that
 * order).
 */
void kcsan_sync_memorder(int memorder)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();

	if (ctx->in_rt)
		return;
	kcsan_barrier_memorder(ctx, memorder);
}

void kcsan_sync_release(void)
{
	kcsan_sync_memorder(__ATOMIC_RELEASE);
}
