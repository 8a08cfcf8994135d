/*
 * tests/header/markers.c — what each primitive of kcsan/lkmm.h tells the
 * runtime, checked against KCSAN's test_barrier_nothreads table: the barrier
 * marker (mb, wmb, rmb, rel = KCSAN_BARRIER_SIGNAL_FENCE_*) or none, the
 * data_race() and ASSERT_EXCLUSIVE_*() hooks, and where the marked/plain
 * accesses of the watched variable g fall relative to the markers.
 *
 * Built by run.sh with -fsanitize=thread (gcc and clang, -O0 and -O2) and
 * linked, without libtsan, against stub_runtime.c, which logs the calls.
 * Also built without -fsanitize=thread but with -DKCSAN_INSTRUMENTED=1:
 * then only the hook calls are real (signal fences and TSan access calls do
 * not exist), and the expectations are filtered down to the hook words.
 * -DDISTINGUISH_VOLATILE: built with tsan-distinguish-volatile, so that
 * READ_ONCE/WRITE_ONCE show up as volatile accesses (vrd/vwr).
 */
#include <stdio.h>
#include <string.h>

#include <kcsan/lkmm.h>

#include "stub_runtime.h"

#if defined(__SANITIZE_THREAD__)
# define TSAN 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define TSAN 1
# endif
#endif
#ifndef TSAN
# define TSAN 0
#endif

_Static_assert(KCSAN_INSTRUMENTED == 1, "markers.c needs instrumentation (TSan or -DKCSAN_INSTRUMENTED=1)");
_Static_assert(KCSAN_BARRIER_SIGNAL_FENCE_MB == 5 && KCSAN_BARRIER_SIGNAL_FENCE_WMB == 4 &&
	       KCSAN_BARRIER_SIGNAL_FENCE_RMB == 2 && KCSAN_BARRIER_SIGNAL_FENCE_RELEASE == 3,
	       "the barrier encoding is ABI");

#ifdef DISTINGUISH_VOLATILE
# define VRD "vrd"
# define VWR "vwr"
#else
# define VRD "rd"
# define VWR "wr"
#endif

int g, h, sink;
int *gp;
atomic_t A;
unsigned long bits[2];

#define CASES(X)								\
	/* plain accesses of the watched variable, for reference */		\
	X(plain_read, "rd", sink = g)						\
	X(plain_write, "wr", g = 1)						\
	/* barriers */								\
	X(barrier, "", barrier())						\
	X(smp_mb, "mb", smp_mb())						\
	X(mb, "mb", mb())							\
	X(smp_wmb, "wmb", smp_wmb())						\
	X(wmb, "wmb", wmb())							\
	X(dma_wmb, "wmb", dma_wmb())						\
	X(smp_rmb, "rmb", smp_rmb())						\
	X(rmb, "rmb", rmb())							\
	X(dma_rmb, "rmb", dma_rmb())						\
	X(smp_mb__before_atomic, "mb", smp_mb__before_atomic())			\
	X(smp_mb__after_atomic, "mb", smp_mb__after_atomic())			\
	X(smp_mb__after_spinlock, "mb", smp_mb__after_spinlock())		\
	X(cpu_relax, "", cpu_relax())						\
	/* adjacent markers are neither merged nor reordered */			\
	X(adjacent_wmb_rmb, "wmb rmb", smp_wmb(); smp_rmb())			\
	X(adjacent_rmb_wmb_mb, "rmb wmb mb", smp_rmb(); smp_wmb(); smp_mb())	\
	X(adjacent_mb_mb, "mb mb", smp_mb(); smp_mb())				\
	X(adjacent_release_mb, "rel mb", smp_store_release(&h, 1); smp_mb())	\
	X(plain_around_wmb, "wr wmb wr", g = 1; smp_wmb(); g = 2)		\
	X(plain_around_full_rmw, "wr mb wr", g = 1; sink = xchg(&h, 2); g = 3)	\
	/* marked and ignored accesses */					\
	X(READ_ONCE, VRD, sink = READ_ONCE(g))					\
	X(WRITE_ONCE, VWR, WRITE_ONCE(g, 1))					\
	X(data_race_read, "dis rd en", sink = data_race(g))			\
	/* gcc reports g++ as a read and a write, clang as a write */		\
	X(data_race_rmw, "dis rd wr en|dis wr en", sink = data_race(g++))	\
	/* acquire / release */							\
	X(smp_store_release, "rel", smp_store_release(&h, 1))			\
	X(smp_store_release_value_first, "rd rel", smp_store_release(&h, g))	\
	X(smp_load_acquire, "", sink = smp_load_acquire(&h))			\
	X(smp_store_mb, VWR " mb", smp_store_mb(g, 1))				\
	/* xchg, cmpxchg */							\
	X(xchg, "mb", sink = xchg(&h, 1))					\
	X(xchg_relaxed, "", sink = xchg_relaxed(&h, 1))				\
	X(xchg_acquire, "", sink = xchg_acquire(&h, 1))				\
	X(xchg_release, "rel", sink = xchg_release(&h, 1))			\
	X(xchg_pointer, "mb", gp = xchg(&gp, &h))				\
	X(cmpxchg, "mb", sink = cmpxchg(&h, 0, 1))				\
	X(cmpxchg_relaxed, "", sink = cmpxchg_relaxed(&h, 1, 0))		\
	X(cmpxchg_acquire, "", sink = cmpxchg_acquire(&h, 0, 1))		\
	X(cmpxchg_release, "rel", sink = cmpxchg_release(&h, 1, 0))		\
	/* atomic_t */								\
	X(atomic_read, "", sink = atomic_read(&A))				\
	X(atomic_set, "", atomic_set(&A, 1))					\
	X(atomic_read_acquire, "", sink = atomic_read_acquire(&A))		\
	X(atomic_set_release, "rel", atomic_set_release(&A, 2))			\
	X(atomic_add, "", atomic_add(1, &A))					\
	X(atomic_sub, "", atomic_sub(1, &A))					\
	X(atomic_inc, "", atomic_inc(&A))					\
	X(atomic_dec, "", atomic_dec(&A))					\
	X(atomic_add_return, "mb", sink = atomic_add_return(1, &A))		\
	X(atomic_add_return_relaxed, "", sink = atomic_add_return_relaxed(1, &A)) \
	X(atomic_add_return_acquire, "", sink = atomic_add_return_acquire(1, &A)) \
	X(atomic_add_return_release, "rel", sink = atomic_add_return_release(1, &A)) \
	X(atomic_sub_return, "mb", sink = atomic_sub_return(1, &A))		\
	X(atomic_sub_return_relaxed, "", sink = atomic_sub_return_relaxed(1, &A)) \
	X(atomic_sub_return_acquire, "", sink = atomic_sub_return_acquire(1, &A)) \
	X(atomic_sub_return_release, "rel", sink = atomic_sub_return_release(1, &A)) \
	X(atomic_inc_return, "mb", sink = atomic_inc_return(&A))		\
	X(atomic_inc_return_relaxed, "", sink = atomic_inc_return_relaxed(&A))	\
	X(atomic_inc_return_acquire, "", sink = atomic_inc_return_acquire(&A))	\
	X(atomic_inc_return_release, "rel", sink = atomic_inc_return_release(&A)) \
	X(atomic_dec_return, "mb", sink = atomic_dec_return(&A))		\
	X(atomic_dec_return_relaxed, "", sink = atomic_dec_return_relaxed(&A))	\
	X(atomic_dec_return_acquire, "", sink = atomic_dec_return_acquire(&A))	\
	X(atomic_dec_return_release, "rel", sink = atomic_dec_return_release(&A)) \
	X(atomic_fetch_add, "mb", sink = atomic_fetch_add(1, &A))		\
	X(atomic_fetch_add_relaxed, "", sink = atomic_fetch_add_relaxed(1, &A))	\
	X(atomic_fetch_add_acquire, "", sink = atomic_fetch_add_acquire(1, &A))	\
	X(atomic_fetch_add_release, "rel", sink = atomic_fetch_add_release(1, &A)) \
	X(atomic_fetch_sub, "mb", sink = atomic_fetch_sub(1, &A))		\
	X(atomic_fetch_sub_relaxed, "", sink = atomic_fetch_sub_relaxed(1, &A))	\
	X(atomic_fetch_sub_acquire, "", sink = atomic_fetch_sub_acquire(1, &A))	\
	X(atomic_fetch_sub_release, "rel", sink = atomic_fetch_sub_release(1, &A)) \
	X(atomic_fetch_and, "mb", sink = atomic_fetch_and(1, &A))		\
	X(atomic_fetch_and_relaxed, "", sink = atomic_fetch_and_relaxed(1, &A))	\
	X(atomic_fetch_and_acquire, "", sink = atomic_fetch_and_acquire(1, &A))	\
	X(atomic_fetch_and_release, "rel", sink = atomic_fetch_and_release(1, &A)) \
	X(atomic_fetch_or, "mb", sink = atomic_fetch_or(1, &A))			\
	X(atomic_fetch_or_relaxed, "", sink = atomic_fetch_or_relaxed(1, &A))	\
	X(atomic_fetch_or_acquire, "", sink = atomic_fetch_or_acquire(1, &A))	\
	X(atomic_fetch_or_release, "rel", sink = atomic_fetch_or_release(1, &A)) \
	X(atomic_fetch_xor, "mb", sink = atomic_fetch_xor(1, &A))		\
	X(atomic_fetch_xor_relaxed, "", sink = atomic_fetch_xor_relaxed(1, &A))	\
	X(atomic_fetch_xor_acquire, "", sink = atomic_fetch_xor_acquire(1, &A))	\
	X(atomic_fetch_xor_release, "rel", sink = atomic_fetch_xor_release(1, &A)) \
	X(atomic_xchg, "mb", sink = atomic_xchg(&A, 1))				\
	X(atomic_xchg_relaxed, "", sink = atomic_xchg_relaxed(&A, 1))		\
	X(atomic_xchg_acquire, "", sink = atomic_xchg_acquire(&A, 1))		\
	X(atomic_xchg_release, "rel", sink = atomic_xchg_release(&A, 1))	\
	X(atomic_cmpxchg, "mb", sink = atomic_cmpxchg(&A, 1, 2))		\
	X(atomic_cmpxchg_relaxed, "", sink = atomic_cmpxchg_relaxed(&A, 2, 1))	\
	X(atomic_cmpxchg_acquire, "", sink = atomic_cmpxchg_acquire(&A, 1, 2))	\
	X(atomic_cmpxchg_release, "rel", sink = atomic_cmpxchg_release(&A, 2, 1)) \
	/* bit operations */							\
	X(set_bit, "", set_bit(1, bits))					\
	X(clear_bit, "", clear_bit(1, bits))					\
	X(change_bit, "", change_bit(1, bits))					\
	X(test_and_set_bit, "mb", sink = test_and_set_bit(70, bits))		\
	X(test_and_clear_bit, "mb", sink = test_and_clear_bit(70, bits))	\
	X(test_and_change_bit, "mb", sink = test_and_change_bit(70, bits))	\
	X(test_and_set_bit_lock, "", sink = test_and_set_bit_lock(3, bits))	\
	X(clear_bit_unlock, "rel", clear_bit_unlock(3, bits))			\
	/* assertions: address and size of g, which is not read */		\
	X(ASSERT_EXCLUSIVE_WRITER, "assertW4", ASSERT_EXCLUSIVE_WRITER(g))	\
	X(ASSERT_EXCLUSIVE_ACCESS, "assertA4", ASSERT_EXCLUSIVE_ACCESS(g))

#define DEFINE_CASE(name, expected, ...)					\
	static __attribute__((noinline)) void case_##name(void) { __VA_ARGS__; }
CASES(DEFINE_CASE)

static const struct {
	const char *name;
	void (*fn)(void);
	const char *expected;
} cases[] = {
#define TABLE_ENTRY(name, expected, ...) { #name, case_##name, expected },
	CASES(TABLE_ENTRY)
};

/* Without TSan only the hook calls exist: keep the hook words. */
static void filter(const char *in, char *out, size_t outlen)
{
	static const char *const tsan_only[] = {
		"mb", "wmb", "rmb", "rel", "rd", "wr", "vrd", "vwr",
	};
	char buf[256], *w, *save = NULL;
	size_t i;

	out[0] = '\0';
	snprintf(buf, sizeof buf, "%s", in);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int keep = 1;

		for (i = 0; !TSAN && i < sizeof tsan_only / sizeof *tsan_only; i++)
			if (strcmp(w, tsan_only[i]) == 0)
				keep = 0;
		if (!keep)
			continue;
		if (out[0])
			strncat(out, " ", outlen - strlen(out) - 1);
		strncat(out, w, outlen - strlen(out) - 1);
	}
}

/* Does the log match EXPECTED, a list of alternatives separated by '|'? */
static int matches(const char *expected, char *shown, size_t shownlen)
{
	char alts[256], want[256], *alt, *save = NULL;
	int ok = 0;

	shown[0] = '\0';
	snprintf(alts, sizeof alts, "%s", expected);
	for (alt = strtok_r(alts, "|", &save); alt; alt = strtok_r(NULL, "|", &save)) {
		filter(alt, want, sizeof want);
		if (strcmp(stub_log(), want) == 0)
			ok = 1;
		if (shown[0])
			strncat(shown, "\" or \"", shownlen - strlen(shown) - 1);
		strncat(shown, want, shownlen - strlen(shown) - 1);
	}
	if (!expected[0])
		ok = stub_log()[0] == '\0';
	return ok;
}

int main(void)
{
	int passed = 0, failed = 0;
	char want[512];
	size_t i;

	printf("TSan instrumentation: %s\n", TSAN ? "yes" : "no (hooks only)");
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		stub_reset(&g);
		cases[i].fn();
		if (matches(cases[i].expected, want, sizeof want)) {
			passed++;
		} else {
			failed++;
			printf("FAIL %s: expected \"%s\", runtime saw \"%s\"\n",
			       cases[i].name, want, stub_log());
		}
	}

	/* The assertion hook gets the variable's address. */
	stub_reset(NULL);
	case_ASSERT_EXCLUSIVE_ACCESS();
	if (stub_last_assert_ptr() == &g) {
		passed++;
	} else {
		failed++;
		printf("FAIL ASSERT_EXCLUSIVE_ACCESS: hook got %p, not &g = %p\n",
		       (void *)stub_last_assert_ptr(), (void *)&g);
	}

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
