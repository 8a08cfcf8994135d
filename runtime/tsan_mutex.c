/*
 * tsan_mutex.c — ThreadSanitizer's custom-mutex annotations
 * (<sanitizer/tsan_interface.h>): a library whose lock is built from
 * atomics (Abseil, folly, a futex lock) announces its lock and unlock.
 *
 *   __tsan_mutex_pre_unlock    a release: ends the delayed access
 *                              (weakmem.c), as pthread_mutex_unlock's
 *                              wrapper does (interpose.c)
 *   __tsan_mutex_post_lock     an acquire, unless the flags say the try-lock
 *                              failed (__tsan_mutex_try_lock_failed): in
 *                              this model an acquire ends nothing anyway,
 *                              but the decision is kept where it belongs
 *   pre_lock .. post_lock, pre_unlock .. post_unlock,
 *   pre_signal .. post_signal  the lock's own code: its accesses are
 *                              ignored and its atomics order nothing
 *                              (ctx->ignore_*: annotate.c, core.c,
 *                              weakmem.c), as libtsan does -- the mutex
 *                              says what it orders, its internals would
 *                              only add noise (a plain read of the owner
 *                              field...)
 *   pre_divert .. post_divert  a region inside the above where the lock
 *                              calls unrelated code (a scheduler, a
 *                              profiler): watched again
 *   create, destroy            nothing to do (no per-mutex state)
 * The flag values are compiler-rt's.
 */
#include "kcsan_rt.h"

#define ABI __attribute__((visibility("default")))

#define TSAN_MUTEX_TRY_LOCK_FAILED	(1u << 5)

/* Entering / leaving the mutex's own code.  Counted (a lock may be taken
 * inside another's pre/post region, e.g. by a condition variable); an
 * unbalanced leave stops at 0. */
static void mutex_code_begin(void)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();

	ctx->ignore_reads++;
	kcsan_ignore_writes_begin(ctx);
	ctx->ignore_sync++;
}

static void mutex_code_end(void)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();

	if (ctx->ignore_reads > 0)
		ctx->ignore_reads--;
	kcsan_ignore_writes_end(ctx);
	if (ctx->ignore_sync > 0)
		ctx->ignore_sync--;
}

ABI void __tsan_mutex_create(void *addr, unsigned flags);
ABI void __tsan_mutex_create(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
}

ABI void __tsan_mutex_destroy(void *addr, unsigned flags);
ABI void __tsan_mutex_destroy(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
}

ABI void __tsan_mutex_pre_lock(void *addr, unsigned flags);
ABI void __tsan_mutex_pre_lock(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_code_begin();
}

ABI void __tsan_mutex_post_lock(void *addr, unsigned flags, int recursion);
ABI void __tsan_mutex_post_lock(void *addr, unsigned flags, int recursion)
{
	(void)addr, (void)recursion;
	mutex_code_end();
	if (!(flags & TSAN_MUTEX_TRY_LOCK_FAILED))
		kcsan_sync_memorder(__ATOMIC_ACQUIRE);
}

/* Returns the recursion levels released, which only libtsan's
 * recursive-mutex bookkeeping uses; 0 here. */
ABI int __tsan_mutex_pre_unlock(void *addr, unsigned flags);
ABI int __tsan_mutex_pre_unlock(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	kcsan_sync_memorder(__ATOMIC_RELEASE);
	mutex_code_begin();
	return 0;
}

ABI void __tsan_mutex_post_unlock(void *addr, unsigned flags);
ABI void __tsan_mutex_post_unlock(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_code_end();
}

ABI void __tsan_mutex_pre_signal(void *addr, unsigned flags);
ABI void __tsan_mutex_pre_signal(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_code_begin();
}

ABI void __tsan_mutex_post_signal(void *addr, unsigned flags);
ABI void __tsan_mutex_post_signal(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_code_end();
}

ABI void __tsan_mutex_pre_divert(void *addr, unsigned flags);
ABI void __tsan_mutex_pre_divert(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_code_end();
}

ABI void __tsan_mutex_post_divert(void *addr, unsigned flags);
ABI void __tsan_mutex_post_divert(void *addr, unsigned flags)
{
	(void)addr, (void)flags;
	mutex_code_begin();
}

/* libtsan reports a lock held here; this runtime keeps no lock sets. */
ABI void __tsan_check_no_mutexes_held(void);
ABI void __tsan_check_no_mutexes_held(void)
{
}
