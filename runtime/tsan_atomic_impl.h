/*
 * tsan_atomic_impl.h — generator for the __tsan_atomicN_* entry points,
 * shared by tsan_atomic.c (8..64 bits) and tsan_atomic128.c.
 *
 * The ABI (libtsan's tsan_interface_atomic.h, which clang and gcc call):
 *   aN   __tsan_atomicN_load(const volatile aN *a, int mo)
 *   void __tsan_atomicN_store(volatile aN *a, aN v, int mo)
 *   aN   __tsan_atomicN_{exchange,fetch_add,fetch_sub,fetch_and,fetch_or,
 *                        fetch_xor,fetch_nand}(volatile aN *a, aN v, int mo)
 *   int  __tsan_atomicN_compare_exchange_{strong,weak}(volatile aN *a, aN *c,
 *                        aN v, int mo, int fail_mo)
 *   aN   __tsan_atomicN_compare_exchange_val(volatile aN *a, aN c, aN v,
 *                        int mo, int fail_mo)
 * with mo the __ATOMIC_* value (0 relaxed .. 5 seq_cst).
 *
 * Each one (1) applies the barrier its order implies to the delayed access
 * (release/acq_rel/seq_cst end it, weakmem.c) *before* the access, as a
 * release orders what came before it; (2) checks the access as marked
 * (never watched, but it may hit a plain access's watchpoint); (3) performs
 * the operation itself with the real memory order.  The order arrives as a
 * run-time value, and the __atomic builtins treat a non-constant order as
 * seq_cst, so it is dispatched through a switch to constant orders.  Orders
 * invalid for the operation (a release load, an acquire store, a failure
 * order stronger than the success order) are mapped to the nearest valid
 * one, as the compilers do for constants.
 */
#ifndef KCSAN_TSAN_ATOMIC_IMPL_H
#define KCSAN_TSAN_ATOMIC_IMPL_H

#include "fastpath.h"
#include "kcsan_rt.h"

#define RET_IP ((uintptr_t)__builtin_return_address(0))
#define ABI __attribute__((visibility("default")))

static inline __attribute__((always_inline)) void
atomic_enter(const volatile void *ptr, size_t size, int type, int mo, uintptr_t ip)
{
	struct kcsan_ctx *ctx = &kcsan_tls;

	/* No delayed access (the common case): no barrier can end one. */
	if (ctx->reorder.size && !ctx->in_rt)
		kcsan_barrier_memorder(ctx, mo);
	kcsan_check(ptr, size, type | KCSAN_ACCESS_ATOMIC, ip);
}

/* Dispatch on the order; OP(order) is a statement using the locals of the
 * entry point (a, v, r, c...). */
#define MO_LOAD_SWITCH(mo, OP)							\
	switch ((mo) & 0xffff) {						\
	case __ATOMIC_RELAXED: case __ATOMIC_RELEASE:				\
		OP(__ATOMIC_RELAXED); break;					\
	case __ATOMIC_CONSUME: case __ATOMIC_ACQUIRE: case __ATOMIC_ACQ_REL:	\
		OP(__ATOMIC_ACQUIRE); break;					\
	default:								\
		OP(__ATOMIC_SEQ_CST); break;					\
	}

#define MO_STORE_SWITCH(mo, OP)							\
	switch ((mo) & 0xffff) {						\
	case __ATOMIC_RELAXED: case __ATOMIC_CONSUME: case __ATOMIC_ACQUIRE:	\
		OP(__ATOMIC_RELAXED); break;					\
	case __ATOMIC_RELEASE: case __ATOMIC_ACQ_REL:				\
		OP(__ATOMIC_RELEASE); break;					\
	default:								\
		OP(__ATOMIC_SEQ_CST); break;					\
	}

#define MO_RMW_SWITCH(mo, OP)							\
	switch ((mo) & 0xffff) {						\
	case __ATOMIC_RELAXED: OP(__ATOMIC_RELAXED); break;			\
	case __ATOMIC_CONSUME:							\
	case __ATOMIC_ACQUIRE: OP(__ATOMIC_ACQUIRE); break;			\
	case __ATOMIC_RELEASE: OP(__ATOMIC_RELEASE); break;			\
	case __ATOMIC_ACQ_REL: OP(__ATOMIC_ACQ_REL); break;			\
	default:               OP(__ATOMIC_SEQ_CST); break;			\
	}

/*
 * Compare-exchange: the failure order is a load order (relaxed, acquire or
 * seq_cst) no stronger than the success order allows (relaxed/release:
 * relaxed; acquire/acq_rel: acquire; seq_cst: anything).
 */
static inline int cas_fail_order(int mo, int fmo)
{
	int f, max;

	switch (fmo & 0xffff) {
	case __ATOMIC_RELAXED: case __ATOMIC_RELEASE: f = __ATOMIC_RELAXED; break;
	case __ATOMIC_SEQ_CST: f = __ATOMIC_SEQ_CST; break;
	default: f = __ATOMIC_ACQUIRE; break;
	}
	switch (mo & 0xffff) {
	case __ATOMIC_RELAXED: case __ATOMIC_RELEASE: max = __ATOMIC_RELAXED; break;
	case __ATOMIC_CONSUME: case __ATOMIC_ACQUIRE: case __ATOMIC_ACQ_REL:
		max = __ATOMIC_ACQUIRE; break;
	default: max = __ATOMIC_SEQ_CST; break;
	}
	return f < max ? f : max;
}

#define MO_CAS_SWITCH(mo, fmo, OP)						\
	switch (((mo) & 0xffff) * 8 + cas_fail_order(mo, fmo)) {		\
	case __ATOMIC_RELAXED * 8 + __ATOMIC_RELAXED:				\
		OP(__ATOMIC_RELAXED, __ATOMIC_RELAXED); break;			\
	case __ATOMIC_CONSUME * 8 + __ATOMIC_RELAXED:				\
	case __ATOMIC_ACQUIRE * 8 + __ATOMIC_RELAXED:				\
		OP(__ATOMIC_ACQUIRE, __ATOMIC_RELAXED); break;			\
	case __ATOMIC_CONSUME * 8 + __ATOMIC_ACQUIRE:				\
	case __ATOMIC_ACQUIRE * 8 + __ATOMIC_ACQUIRE:				\
		OP(__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE); break;			\
	case __ATOMIC_RELEASE * 8 + __ATOMIC_RELAXED:				\
		OP(__ATOMIC_RELEASE, __ATOMIC_RELAXED); break;			\
	case __ATOMIC_ACQ_REL * 8 + __ATOMIC_RELAXED:				\
		OP(__ATOMIC_ACQ_REL, __ATOMIC_RELAXED); break;			\
	case __ATOMIC_ACQ_REL * 8 + __ATOMIC_ACQUIRE:				\
		OP(__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); break;			\
	case __ATOMIC_SEQ_CST * 8 + __ATOMIC_RELAXED:				\
		OP(__ATOMIC_SEQ_CST, __ATOMIC_RELAXED); break;			\
	case __ATOMIC_SEQ_CST * 8 + __ATOMIC_ACQUIRE:				\
		OP(__ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE); break;			\
	default:								\
		OP(__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); break;			\
	}

#define OP_LOAD(m)		r = __atomic_load_n(a, m)
#define OP_STORE(m)		__atomic_store_n(a, v, m)
#define OP_XCHG(m)		r = __atomic_exchange_n(a, v, m)
#define OP_FETCH_ADD(m)		r = __atomic_fetch_add(a, v, m)
#define OP_FETCH_SUB(m)		r = __atomic_fetch_sub(a, v, m)
#define OP_FETCH_AND(m)		r = __atomic_fetch_and(a, v, m)
#define OP_FETCH_OR(m)		r = __atomic_fetch_or(a, v, m)
#define OP_FETCH_XOR(m)		r = __atomic_fetch_xor(a, v, m)
#define OP_FETCH_NAND(m)	r = __atomic_fetch_nand(a, v, m)
#define OP_CAS_STRONG(m, f)	r = __atomic_compare_exchange_n(a, c, v, 0, m, f)
#define OP_CAS_WEAK(m, f)	r = __atomic_compare_exchange_n(a, c, v, 1, m, f)
#define OP_CAS_VAL(m, f)	(void)__atomic_compare_exchange_n(a, &c, v, 0, m, f)

#define RMW_TYPE (KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND)

#define DEFINE_TSAN_RMW(bits, T, name, OP)					\
	ABI T __tsan_atomic##bits##_##name(volatile T *a, T v, int mo);		\
	ABI T __tsan_atomic##bits##_##name(volatile T *a, T v, int mo)		\
	{									\
		T r;								\
		atomic_enter(a, sizeof(T), RMW_TYPE, mo, RET_IP);		\
		MO_RMW_SWITCH(mo, OP)						\
		return r;							\
	}

#define DEFINE_TSAN_CAS(bits, T, name, OP)					\
	ABI int __tsan_atomic##bits##_compare_exchange_##name(volatile T *a,	\
			T *c, T v, int mo, int fmo);				\
	ABI int __tsan_atomic##bits##_compare_exchange_##name(volatile T *a,	\
			T *c, T v, int mo, int fmo)				\
	{									\
		int r;								\
		atomic_enter(a, sizeof(T), RMW_TYPE, mo, RET_IP);		\
		MO_CAS_SWITCH(mo, fmo, OP)					\
		return r;							\
	}

#define DEFINE_TSAN_ATOMICS(bits, T)						\
	ABI T __tsan_atomic##bits##_load(const volatile T *a, int mo);		\
	ABI T __tsan_atomic##bits##_load(const volatile T *a, int mo)		\
	{									\
		T r;								\
		atomic_enter(a, sizeof(T), 0, mo, RET_IP);			\
		MO_LOAD_SWITCH(mo, OP_LOAD)					\
		return r;							\
	}									\
	ABI void __tsan_atomic##bits##_store(volatile T *a, T v, int mo);	\
	ABI void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)	\
	{									\
		atomic_enter(a, sizeof(T), KCSAN_ACCESS_WRITE, mo, RET_IP);	\
		MO_STORE_SWITCH(mo, OP_STORE)					\
	}									\
	DEFINE_TSAN_RMW(bits, T, exchange, OP_XCHG)				\
	DEFINE_TSAN_RMW(bits, T, fetch_add, OP_FETCH_ADD)			\
	DEFINE_TSAN_RMW(bits, T, fetch_sub, OP_FETCH_SUB)			\
	DEFINE_TSAN_RMW(bits, T, fetch_and, OP_FETCH_AND)			\
	DEFINE_TSAN_RMW(bits, T, fetch_or, OP_FETCH_OR)				\
	DEFINE_TSAN_RMW(bits, T, fetch_xor, OP_FETCH_XOR)			\
	DEFINE_TSAN_RMW(bits, T, fetch_nand, OP_FETCH_NAND)			\
	DEFINE_TSAN_CAS(bits, T, strong, OP_CAS_STRONG)				\
	DEFINE_TSAN_CAS(bits, T, weak, OP_CAS_WEAK)				\
	ABI T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c,	\
			T v, int mo, int fmo);					\
	ABI T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c,	\
			T v, int mo, int fmo)					\
	{									\
		atomic_enter(a, sizeof(T), RMW_TYPE, mo, RET_IP);		\
		/* c receives the value found, which is the result either	\
		 * way (on success it already equals it). */			\
		MO_CAS_SWITCH(mo, fmo, OP_CAS_VAL)				\
		return c;							\
	}

#endif /* KCSAN_TSAN_ATOMIC_IMPL_H */
