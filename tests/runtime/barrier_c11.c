/*
 * barrier_c11.c — which C11 <stdatomic.h> operations and GNU __atomic
 * builtins end a delayed access (docs/design.md §5: release, acq_rel and seq_cst end
 * all; relaxed, consume and acquire end none), for every access size, with
 * constant orders (the compiler passes a literal) and run-time orders (the
 * runtime must dispatch to the real order), plus atomic_signal_fence as the
 * lkmm.h barrier label (SEQ_CST=mb, ACQ_REL=wmb, ACQUIRE=rmb, RELEASE).
 * Also checks that each operation really happened (value results).
 * Built with -fsanitize=thread, linked with the kcsan-scan runtime.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "../../runtime/kcsan_rt.h"

static int passed, failed;
static struct kcsan_ctx *ctx;
static long dummy_target;

/* Always inlined: the delayed access must belong to the caller's scope
 * (a separate function would end it at its own exit). */
static inline __attribute__((always_inline)) void arm(int type)
{
	ctx->reorder.ptr = &dummy_target;
	ctx->reorder.type = type | KCSAN_ACCESS_SCOPED;
	ctx->reorder.ip = 0;
	ctx->reorder.depth = ctx->depth;
	ctx->reorder.size = sizeof(dummy_target);
}

static void check(int ok, const char *what, int line)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL (line %d): %s\n", line, what);
	}
}

static const char *const mo_name[] = {
	"relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"
};

static int ends_all(int mo)
{
	return mo == __ATOMIC_RELEASE || mo == __ATOMIC_ACQ_REL || mo == __ATOMIC_SEQ_CST;
}

/* Run stmt with a delayed access of each type; it must end iff want. */
#define EXPECT_ENDS(stmt, want, desc)						\
	do {									\
		static const int types[3] = { 0, KCSAN_ACCESS_WRITE,		\
			KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND };		\
		for (int ti = 0; ti < 3; ti++) {				\
			char msg[160];						\
			arm(types[ti]);						\
			stmt;							\
			snprintf(msg, sizeof(msg), "%s type=%d: %s", desc,	\
				 types[ti], ctx->reorder.size ? "still delayed"	\
				 : "ended");					\
			check((ctx->reorder.size == 0) == (want), msg, __LINE__);\
		}								\
	} while (0)

/* Run-time orders, all sizes. */
#define TEST_TYPE(T)								\
	do {									\
		static _Atomic T a;						\
		static T plain;							\
		for (int mo = 0; mo <= 5; mo++) {				\
			char d[96];						\
			T e;							\
			int isload = mo != __ATOMIC_RELEASE && mo != __ATOMIC_ACQ_REL;\
			int isstore = mo == __ATOMIC_RELAXED ||			\
				mo == __ATOMIC_RELEASE || mo == __ATOMIC_SEQ_CST;\
			snprintf(d, sizeof(d), #T " %s", mo_name[mo]);		\
			if (isload)						\
				EXPECT_ENDS((void)atomic_load_explicit(&a, mo), \
					    ends_all(mo), d);			\
			if (isstore) {						\
				EXPECT_ENDS(atomic_store_explicit(&a, 5, mo),	\
					    ends_all(mo), d);			\
				check(atomic_load(&a) == 5, "store value", __LINE__);\
			}							\
			EXPECT_ENDS((void)atomic_exchange_explicit(&a, 7, mo), ends_all(mo), d);\
			check(atomic_load(&a) == 7, "xchg value", __LINE__);	\
			EXPECT_ENDS((void)atomic_fetch_add_explicit(&a, 1, mo), ends_all(mo), d);\
			EXPECT_ENDS((void)atomic_fetch_sub_explicit(&a, 1, mo), ends_all(mo), d);\
			EXPECT_ENDS((void)atomic_fetch_or_explicit(&a, 8, mo), ends_all(mo), d);\
			EXPECT_ENDS((void)atomic_fetch_and_explicit(&a, 9, mo), ends_all(mo), d);\
			EXPECT_ENDS((void)atomic_fetch_xor_explicit(&a, 1, mo), ends_all(mo), d);\
			check(atomic_load(&a) == ((((7 | 8) & 9) ^ 1)), "rmw value", __LINE__);\
			EXPECT_ENDS((void)__atomic_fetch_nand(&plain, 1, mo), ends_all(mo), d);\
			e = ((((7 | 8) & 9) ^ 1));				\
			EXPECT_ENDS((void)atomic_compare_exchange_strong_explicit(&a, &e, 3, mo,\
					mo == __ATOMIC_SEQ_CST ? mo : __ATOMIC_RELAXED),\
				    ends_all(mo), d);				\
			check(atomic_load(&a) == 3, "cas value", __LINE__);	\
			e = 3;							\
			EXPECT_ENDS((void)atomic_compare_exchange_weak_explicit(&a, &e, 3, mo,\
					__ATOMIC_RELAXED), ends_all(mo), d);	\
			EXPECT_ENDS(atomic_thread_fence(mo), ends_all(mo), d);	\
		}								\
	} while (0)

/* Constant orders through the GNU builtins (one literal per call site). */
#define TEST_CONST(mo)								\
	do {									\
		static long b;							\
		long e = 0;							\
		EXPECT_ENDS((void)__atomic_exchange_n(&b, 1, mo), ends_all(mo), "xchg " #mo);\
		EXPECT_ENDS((void)__atomic_fetch_add(&b, 1, mo), ends_all(mo), "fetch_add " #mo);\
		EXPECT_ENDS((void)__atomic_compare_exchange_n(&b, &e, 0, 0, mo, __ATOMIC_RELAXED),\
			    ends_all(mo), "cas " #mo);				\
		EXPECT_ENDS(__atomic_thread_fence(mo), ends_all(mo), "fence " #mo);\
	} while (0)

int main(void)
{
	ctx = kcsan_get_ctx();

	TEST_TYPE(uint8_t);
	TEST_TYPE(uint16_t);
	TEST_TYPE(uint32_t);
	TEST_TYPE(uint64_t);

	TEST_CONST(__ATOMIC_RELAXED);
	TEST_CONST(__ATOMIC_ACQUIRE);
	TEST_CONST(__ATOMIC_RELEASE);
	TEST_CONST(__ATOMIC_ACQ_REL);
	TEST_CONST(__ATOMIC_SEQ_CST);
	{
		static long b;
		EXPECT_ENDS((void)__atomic_load_n(&b, __ATOMIC_RELAXED), 0, "load relaxed");
		EXPECT_ENDS((void)__atomic_load_n(&b, __ATOMIC_ACQUIRE), 0, "load acquire");
		EXPECT_ENDS((void)__atomic_load_n(&b, __ATOMIC_SEQ_CST), 1, "load seq_cst");
		EXPECT_ENDS(__atomic_store_n(&b, 1, __ATOMIC_RELAXED), 0, "store relaxed");
		EXPECT_ENDS(__atomic_store_n(&b, 1, __ATOMIC_RELEASE), 1, "store release");
		EXPECT_ENDS(__atomic_store_n(&b, 1, __ATOMIC_SEQ_CST), 1, "store seq_cst");
	}

	/* Signal fences are lkmm.h barrier labels, one access type at a time.
	 * Each sits between compiler barriers, as in lkmm.h: LLVM may move
	 * plain stores across a bare signal fence (it only orders atomics
	 * against a signal handler) and fold adjacent ones. */
#define SIGNAL_FENCE(mo)							\
	do {									\
		__asm__ __volatile__("" ::: "memory");				\
		atomic_signal_fence(mo);					\
		__asm__ __volatile__("" ::: "memory");				\
	} while (0)
	arm(0); SIGNAL_FENCE(memory_order_acq_rel);
	check(ctx->reorder.size != 0, "wmb label keeps a read", __LINE__);
	arm(KCSAN_ACCESS_WRITE); SIGNAL_FENCE(memory_order_acq_rel);
	check(ctx->reorder.size == 0, "wmb label ends a write", __LINE__);
	arm(KCSAN_ACCESS_WRITE); SIGNAL_FENCE(memory_order_acquire);
	check(ctx->reorder.size != 0, "rmb label keeps a write", __LINE__);
	arm(0); SIGNAL_FENCE(memory_order_acquire);
	check(ctx->reorder.size == 0, "rmb label ends a read", __LINE__);
	arm(KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND); SIGNAL_FENCE(memory_order_acquire);
	check(ctx->reorder.size == 0, "rmb label ends an RMW", __LINE__);
	arm(0); SIGNAL_FENCE(memory_order_seq_cst);
	check(ctx->reorder.size == 0, "mb label ends a read", __LINE__);
	arm(0); SIGNAL_FENCE(memory_order_release);
	check(ctx->reorder.size == 0, "release label ends a read", __LINE__);
	arm(KCSAN_ACCESS_WRITE); SIGNAL_FENCE(memory_order_relaxed);
	check(ctx->reorder.size != 0, "relaxed signal fence is no label", __LINE__);

	printf("barrier_c11: %d checks passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
