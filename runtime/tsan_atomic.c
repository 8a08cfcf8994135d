/*
 * tsan_atomic.c — __tsan_atomic{8,16,32,64}_* (generated, see
 * tsan_atomic_impl.h) and the two fences.
 *
 * __tsan_atomic_thread_fence: a C11 fence; release, acq_rel and seq_cst end
 * the delayed access, and the real fence is executed.
 * __tsan_atomic_signal_fence: only a compiler barrier in reality (already
 * done by the compiler at the call site); its order is the <kcsan/lkmm.h>
 * barrier label (weakmem.c: kcsan_signal_fence).
 */
#include <stdint.h>

#include "tsan_atomic_impl.h"

DEFINE_TSAN_ATOMICS(8, uint8_t)
DEFINE_TSAN_ATOMICS(16, uint16_t)
DEFINE_TSAN_ATOMICS(32, uint32_t)
DEFINE_TSAN_ATOMICS(64, uint64_t)

ABI void __tsan_atomic_thread_fence(int mo);
ABI void __tsan_atomic_thread_fence(int mo)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();

	if (!ctx->in_rt)
		kcsan_barrier_memorder(ctx, mo);
	switch (mo & 0xffff) {
	case __ATOMIC_RELAXED:
		break;
	case __ATOMIC_CONSUME:
	case __ATOMIC_ACQUIRE:
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		break;
	case __ATOMIC_RELEASE:
		__atomic_thread_fence(__ATOMIC_RELEASE);
		break;
	case __ATOMIC_ACQ_REL:
		__atomic_thread_fence(__ATOMIC_ACQ_REL);
		break;
	default:
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		break;
	}
}

ABI void __tsan_atomic_signal_fence(int mo);
ABI void __tsan_atomic_signal_fence(int mo)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();

	if (!ctx->in_rt)
		kcsan_signal_fence(ctx, mo);
}
