/*
 * hooks.c — the runtime's definitions of the weak hooks declared by
 * <kcsan/lkmm.h> (included with KCSAN_LKMM_ABI_ONLY so that the
 * declarations, and therefore these definitions, are not weak).
 *
 *   __kcsan_disable_current / __kcsan_enable_current
 *       bracket data_race(expr): accesses in between are ignored (no check,
 *       no watchpoint, no re-check of the delayed access).  Nestable.
 *   __kcsan_assert_exclusive(ptr, size, kind)
 *       ASSERT_EXCLUSIVE_WRITER: checked like a read (only writers
 *       conflict); ASSERT_EXCLUSIVE_ACCESS: like a write (everyone
 *       conflicts).  Marked KCSAN_ACCESS_ASSERT: always eligible for a
 *       watchpoint (subject to sampling) and never delayed (weakmem.c).
 */
#define KCSAN_LKMM_ABI_ONLY
#include "../include/kcsan/lkmm.h"
#include "kcsan_rt.h"

#define ABI __attribute__((visibility("default")))

ABI void __kcsan_disable_current(void)
{
	kcsan_get_ctx()->disable++;
}

ABI void __kcsan_enable_current(void)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();

	/* Unbalanced enable: ignore rather than going negative, which
	 * would silently keep the runtime enabled inside the next data_race. */
	if (ctx->disable > 0)
		ctx->disable--;
}

ABI void __kcsan_assert_exclusive(const volatile void *ptr, unsigned long size, int kind)
{
	int type = KCSAN_ACCESS_ASSERT;

	if (kind == KCSAN_ASSERT_EXCLUSIVE_KIND_ACCESS)
		type |= KCSAN_ACCESS_WRITE;
	kcsan_check_access(ptr, size, type, (uintptr_t)__builtin_return_address(0));
}
