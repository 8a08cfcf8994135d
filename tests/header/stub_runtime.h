/*
 * tests/header/stub_runtime.h — a stand-in for the kcsan-scan runtime, for
 * the header tests only.  stub_runtime.c defines the kcsan hooks of
 * kcsan/lkmm.h and every __tsan_* entry point that -fsanitize=thread code
 * of these tests calls (so instrumented objects link without libtsan); the
 * atomics really operate, and what the header tells the runtime is written
 * into an event log as space-separated words:
 *
 *   mb wmb rmb rel      __tsan_atomic_signal_fence() with the
 *                       KCSAN_BARRIER_SIGNAL_FENCE_* value of that barrier
 *   fence<N>            a signal fence with any other order N
 *   dis en              __kcsan_disable_current() / __kcsan_enable_current()
 *   assertW<S> assertA<S>  __kcsan_assert_exclusive(ptr, S, WRITER/ACCESS)
 *   rd wr vrd vwr       plain / volatile read or write of the watched address
 */
#ifndef STUB_RUNTIME_H
#define STUB_RUNTIME_H

/* Clears the log and watches ADDR (NULL: nothing) for rd/wr/vrd/vwr. */
void stub_reset(const volatile void *addr);

/* The log since the last stub_reset(), words separated by single spaces. */
const char *stub_log(void);

/* The pointer passed to the last __kcsan_assert_exclusive() call. */
const volatile void *stub_last_assert_ptr(void);

#endif
