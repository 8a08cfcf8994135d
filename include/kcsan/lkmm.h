/*
 * kcsan/lkmm.h — Linux-kernel memory-model (LKMM) primitives for user-space C.
 *
 * What it is for
 * --------------
 * Lockless C written in the kernel's style (READ_ONCE, smp_store_release,
 * atomic_t, set_bit, ...) can be compiled, run and checked in user space with
 * this one header:
 *
 *   - Without instrumentation the primitives compile to the real thing: GCC/Clang
 *     __atomic builtins and fences with the orderings the LKMM promises, so the
 *     program is correct on weakly ordered CPUs (arm64, POWER), not only on x86.
 *   - Built with -fsanitize=thread (what `kcsan-scan cc` does), every primitive
 *     that orders memory also tells the kcsan-scan runtime which kind of barrier
 *     it is (see "Runtime ABI" below), so the runtime can simulate the weak
 *     memory model: plain accesses stay "reordered" until a barrier that orders
 *     them runs.
 *   - `kcsan-scan scan` recognises these names (macro expansions and calls)
 *     through its `lkmm` vocabulary; this header is always on its include path.
 *
 * GNU C11 only (gcc >= 12, clang >= 14; statement expressions, __typeof__,
 * __auto_type).  The header includes no other header.
 *
 * Orderings (LKMM, tools/memory-model and Documentation/atomic_t.txt)
 * --------------------------------------------------------------------
 *   READ_ONCE, WRITE_ONCE          volatile access, marked but unordered
 *   data_race(expr)                plain access the tools must ignore
 *   barrier()                      compiler barrier only
 *   smp_mb, mb                     full barrier
 *   smp_wmb, wmb, dma_wmb          orders earlier stores before later stores
 *   smp_rmb, rmb, dma_rmb          orders earlier loads before later loads
 *   smp_mb__{before,after}_atomic  full barrier (around a non-returning atomic)
 *   smp_mb__after_spinlock         full barrier
 *   smp_store_release              release store
 *   smp_load_acquire               acquire load
 *   smp_store_mb(var, v)           WRITE_ONCE(var, v) then smp_mb()
 *   xchg, cmpxchg                  fully ordered (as if smp_mb() before and after)
 *   ..._relaxed / _acquire / _release   unordered / acquire / release
 *   atomic_read, atomic_set        unordered
 *   atomic_read_acquire            acquire;  atomic_set_release: release
 *   atomic_{add,sub,inc,dec}       unordered (no return value => no ordering)
 *   atomic_*_return, atomic_fetch_*, atomic_xchg, atomic_cmpxchg
 *                                  fully ordered; _relaxed/_acquire/_release
 *   set_bit, clear_bit, change_bit unordered
 *   test_and_{set,clear,change}_bit fully ordered
 *   test_and_set_bit_lock          acquire;  clear_bit_unlock: release
 *   ASSERT_EXCLUSIVE_WRITER/ACCESS checks for the runtime; no code otherwise
 *
 * cmpxchg() returns the value it found (the kernel's convention), whether or
 * not it stored.  LKMM: a failed cmpxchg orders nothing; here the _relaxed,
 * _acquire and _release forms fail with relaxed order, and the fully ordered
 * one is ordered whether it succeeds or not.
 * Bit operations take (long nr, volatile unsigned long *addr) with nr >= 0,
 * bit nr living in word nr / BITS_PER_LONG, as in the kernel.
 * Not provided: atomic_long_t/atomic64_t, try_cmpxchg, the kernel's lock
 * types and RCU (user-space code uses pthread locks, whose ordering the
 * runtime models itself).
 *
 * Which names are macros and which are functions
 * ----------------------------------------------
 * Macros (type-generic, they work on any scalar through __typeof__):
 *   READ_ONCE WRITE_ONCE data_race barrier smp_mb smp_rmb smp_wmb mb rmb wmb
 *   dma_rmb dma_wmb smp_mb__before_atomic smp_mb__after_atomic
 *   smp_mb__after_spinlock cpu_relax smp_store_release smp_load_acquire
 *   smp_store_mb xchg* cmpxchg* ATOMIC_INIT ASSERT_EXCLUSIVE_WRITER
 *   ASSERT_EXCLUSIVE_ACCESS
 * Static always-inline functions (typed like the kernel's): every atomic_*
 *   operation on atomic_t and every bit operation.
 * Every macro evaluates each of its arguments exactly once (ASSERT_EXCLUSIVE_*
 * take the address and size of their lvalue argument and read nothing).
 *
 * <stdatomic.h>
 * -------------
 * Like the kernel's, atomic_fetch_add(), atomic_fetch_sub(), atomic_fetch_and(),
 * atomic_fetch_or() and atomic_fetch_xor() take (int i, atomic_t *v) here and
 * (A *obj, M arg) in C11 <stdatomic.h>.  A translation unit uses one or the
 * other, and either order of inclusion stops with one error that says so:
 *   - <stdatomic.h> first: an #error in this header (detected through the
 *     include guards of GCC's and Clang's <stdatomic.h>, _STDATOMIC_H and
 *     __CLANG_STDATOMIC_H, BSD's _STDATOMIC_H_, and kill_dependency, which
 *     every C11 <stdatomic.h> defines);
 *   - this header first: the same message from <stdatomic.h>'s first
 *     declaration (the enumerator memory_order_relaxed, a trap macro defined
 *     at the end of this file expands to a "GCC error" pragma, which GCC and
 *     Clang both honour, and to itself).
 * In both cases everything else stays defined, so the only further errors
 * are at the calls that really clash (atomic_fetch_add(1, &v) meaning the
 * C11 macro).  Checked with GCC 12 and Clang 14.
 *
 * Runtime ABI (used by the kcsan-scan runtime; stable, see KCSAN_LKMM_ABI)
 * -------------------------------------------------------------------------
 * Barriers.  With -fsanitize=thread, both GCC and Clang turn every
 * __atomic_signal_fence(ORDER) into a call __tsan_atomic_signal_fence(ORDER),
 * and without it the fence generates no instruction.  Following KCSAN, each
 * LKMM barrier kind is encoded as a signal fence with a distinct ORDER value
 * (the values are arbitrary labels, not C11 semantics):
 *
 *   KCSAN_BARRIER_SIGNAL_FENCE_MB      = __ATOMIC_SEQ_CST (5)  full barrier
 *   KCSAN_BARRIER_SIGNAL_FENCE_WMB     = __ATOMIC_ACQ_REL (4)  write barrier
 *   KCSAN_BARRIER_SIGNAL_FENCE_RMB     = __ATOMIC_ACQUIRE (2)  read barrier
 *   KCSAN_BARRIER_SIGNAL_FENCE_RELEASE = __ATOMIC_RELEASE (3)  release
 *
 * Emitted (only when KCSAN_INSTRUMENTED is 1) by, per KCSAN's
 * test_barrier_nothreads table:
 *   MB:      smp_mb mb smp_mb__before_atomic smp_mb__after_atomic
 *            smp_mb__after_spinlock smp_store_mb (after its store), xchg,
 *            cmpxchg, atomic_{add,sub,inc,dec}_return, atomic_fetch_*,
 *            atomic_xchg, atomic_cmpxchg, test_and_{set,clear,change}_bit
 *   WMB:     smp_wmb wmb dma_wmb
 *   RMB:     smp_rmb rmb dma_rmb
 *   RELEASE: smp_store_release, atomic_set_release, every *_release RMW,
 *            clear_bit_unlock (before the access)
 *   nothing: READ_ONCE WRITE_ONCE smp_load_acquire, acquire and relaxed
 *            operations, non-returning atomics, set/clear/change_bit,
 *            test_and_set_bit_lock, atomic_read(_acquire), atomic_set.
 * Each marker sits between two compiler barriers (asm volatile with a memory
 * clobber) so that the optimiser can neither merge adjacent markers (Clang
 * folds adjacent signal fences into the strongest one) nor move accesses
 * across them.  A program's own C11 atomic_signal_fence() would be decoded
 * the same way; they are rare and only make the runtime see more barriers.
 *
 * Under -fsanitize=thread the runtime also sees the real atomics of this
 * header as __tsan_atomic* calls.  To keep smp_wmb()/smp_rmb() exactly as
 * strong as the markers say, their hardware part on x86 is a compiler
 * barrier (invisible to TSan).  On other targets it is a release/acquire
 * thread fence, and a runtime that treats release fences as ending every
 * delayed access (docs/design.md §5) will see smp_wmb() also end delayed reads:
 * fewer reports there, never false ones.
 *
 * Marked accesses: READ_ONCE/WRITE_ONCE are volatile accesses.  For the
 * runtime to tell them from plain ones, build with
 * `-mllvm -tsan-distinguish-volatile=1` (Clang) or
 * `--param=tsan-distinguish-volatile=1` (GCC): volatile accesses then call
 * __tsan_volatile_{read,write}N.  `kcsan-scan cc` is expected to do so.
 *
 * Hooks.  Weak functions, called only when KCSAN_INSTRUMENTED is 1 and only if
 * a definition is linked in (the runtime's); without the runtime a program
 * links and runs normally and the hooks do nothing:
 *   void __kcsan_assert_exclusive(const volatile void *ptr, unsigned long size,
 *                                 int kind);
 *       kind is KCSAN_ASSERT_EXCLUSIVE_KIND_WRITER or ..._ACCESS.
 *   void __kcsan_disable_current(void);  void __kcsan_enable_current(void);
 *       bracket the evaluation of data_race(expr): accesses in between are to
 *       be ignored (nestable, like the kernel's kcsan_disable_current()).
 * The runtime defines these strongly.  A weak declaration in the same
 * translation unit would make its definitions weak as well, so the runtime
 * includes this header with KCSAN_LKMM_ABI_ONLY defined: that gives only the
 * constants and the (non-weak) prototypes, and no stdatomic check.
 *
 * Configuration
 * -------------
 * KCSAN_INSTRUMENTED  1 under -fsanitize=thread (GCC's __SANITIZE_THREAD__,
 *                     Clang's __has_feature(thread_sanitizer)), else 0.  May be
 *                     defined to 0 or 1 before inclusion to override.
 */
#ifndef KCSAN_LKMM_H
#define KCSAN_LKMM_H

#ifdef __cplusplus
#error "kcsan/lkmm.h is a C header (GNU C11): it uses __auto_type and statement expressions"
#endif

/* ======================================================================
 * Runtime ABI: barrier encodings, assertion kinds, hooks
 * ====================================================================== */

#define KCSAN_LKMM_ABI 1

#define KCSAN_BARRIER_SIGNAL_FENCE_MB		__ATOMIC_SEQ_CST	/* 5 */
#define KCSAN_BARRIER_SIGNAL_FENCE_WMB		__ATOMIC_ACQ_REL	/* 4 */
#define KCSAN_BARRIER_SIGNAL_FENCE_RMB		__ATOMIC_ACQUIRE	/* 2 */
#define KCSAN_BARRIER_SIGNAL_FENCE_RELEASE	__ATOMIC_RELEASE	/* 3 */

/* ASSERT_EXCLUSIVE_WRITER(var): no other thread may write var concurrently
 * (concurrent readers are fine).  ASSERT_EXCLUSIVE_ACCESS(var): no other
 * thread may read or write var concurrently. */
#define KCSAN_ASSERT_EXCLUSIVE_KIND_WRITER	1
#define KCSAN_ASSERT_EXCLUSIVE_KIND_ACCESS	2

#ifdef KCSAN_LKMM_ABI_ONLY
# define __KCSAN_HOOK
#else
# define __KCSAN_HOOK __attribute__((__weak__))
#endif
extern void __kcsan_assert_exclusive(const volatile void *ptr, unsigned long size,
				     int kind) __KCSAN_HOOK;
extern void __kcsan_disable_current(void) __KCSAN_HOOK;
extern void __kcsan_enable_current(void) __KCSAN_HOOK;
#undef __KCSAN_HOOK

#ifndef KCSAN_LKMM_ABI_ONLY

/* ======================================================================
 * One or the other: <stdatomic.h> (GCC: _STDATOMIC_H, Clang: __CLANG_STDATOMIC_H,
 * BSD: _STDATOMIC_H_, any C11 one: kill_dependency)
 * ====================================================================== */
#if defined(_STDATOMIC_H) || defined(__CLANG_STDATOMIC_H) || \
    defined(_STDATOMIC_H_) || defined(kill_dependency)
#error "kcsan/lkmm.h: cannot be combined with <stdatomic.h> in one translation unit: both define atomic_fetch_add() (and atomic_fetch_{sub,and,or,xor}) with different meanings; use one or the other"
/* The rest is still defined (with the clashing function names in
 * parentheses, which keeps <stdatomic.h>'s macros from expanding them), so
 * that the only further errors are at the calls that really clash. */
# define __KCSAN_STDATOMIC_SEEN 1
#endif

/* ======================================================================
 * Internal helpers (names starting with __kcsan / __KCSAN are not API)
 * ====================================================================== */

#ifndef KCSAN_INSTRUMENTED
# if defined(__SANITIZE_THREAD__)
#  define KCSAN_INSTRUMENTED 1
# elif defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#   define KCSAN_INSTRUMENTED 1
#  endif
# endif
#endif
#ifndef KCSAN_INSTRUMENTED
# define KCSAN_INSTRUMENTED 0
#endif

#define __kcsan_inline static __inline__ __attribute__((__always_inline__))

/* Compiler barrier: no memory access is moved across it by the compiler. */
#define __kcsan_compiler_barrier() __asm__ __volatile__("" : : : "memory")

/*
 * Hardware fence.  GCC >= 11 warns (-Wtsan) under -fsanitize=thread that its
 * own libtsan does not model standalone fences; the kcsan-scan runtime does,
 * and the fence is what the CPU needs, so the warning is silenced here.
 */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
# define __kcsan_thread_fence(mo)						\
	do {									\
		_Pragma("GCC diagnostic push")					\
		_Pragma("GCC diagnostic ignored \"-Wtsan\"")			\
		__atomic_thread_fence(mo);					\
		_Pragma("GCC diagnostic pop")					\
	} while (0)
#else
# define __kcsan_thread_fence(mo) __atomic_thread_fence(mo)
#endif

/* Unique local names, so that nested uses of the macros neither shadow
 * (-Wshadow) nor capture each other's locals. */
#define __KCSAN_PASTE_(a, b)	a##b
#define __KCSAN_PASTE(a, b)	__KCSAN_PASTE_(a, b)
#define __KCSAN_ID(name, n)	__KCSAN_PASTE(__kcsan_##name##_, n)

/* The type of x without qualifiers (a cast yields an unqualified rvalue), so
 * that locals of it are not volatile/const.  Scalars only, like the kernel. */
#define __kcsan_unqual_typeof(x) __typeof__((__typeof__(x))0)

/* The barrier markers for the runtime (see "Runtime ABI" above). */
#if KCSAN_INSTRUMENTED
# define __kcsan_barrier_marker(kind)						\
	do {									\
		__kcsan_compiler_barrier();					\
		__atomic_signal_fence(KCSAN_BARRIER_SIGNAL_FENCE_##kind);	\
		__kcsan_compiler_barrier();					\
	} while (0)
#else
# define __kcsan_barrier_marker(kind) do { } while (0)
#endif

/*
 * Fully ordered read-modify-writes.  The LKMM orders a value-returning RMW as
 * if smp_mb() ran before and after it, against plain accesses too.  A C11
 * seq_cst RMW alone does not give that on arm64 (a plain store before it and
 * a plain load after it may be reordered around the LL/SC pair), so in
 * general the RMW is relaxed and enclosed in two seq_cst thread fences (the
 * kernel's arm64 mapping: dmb ish around the RMW).  On x86 every atomic RMW is
 * a LOCK-prefixed instruction, which the CPU treats as a full barrier, so a
 * seq_cst RMW suffices: its release half keeps the compiler from sinking
 * earlier accesses below it and its acquire half from hoisting later ones
 * above it, and the LOCK prefix does the rest in hardware.
 */
#if defined(__x86_64__) || defined(__i386__)
# define __KCSAN_MO_FULL		__ATOMIC_SEQ_CST
# define __kcsan_full_fence_before_rmw() do { } while (0)
# define __kcsan_full_fence_after_rmw()	do { } while (0)
#else
# define __KCSAN_MO_FULL		__ATOMIC_RELAXED
# define __kcsan_full_fence_before_rmw() __kcsan_thread_fence(__ATOMIC_SEQ_CST)
# define __kcsan_full_fence_after_rmw()	__kcsan_thread_fence(__ATOMIC_SEQ_CST)
#endif

/*
 * The four orderings of an RMW family, as a table indexed by a token
 * (FULL, RELAXED, ACQUIRE, RELEASE): what runs before, the memory order of
 * the operation, the failure order of a compare-exchange, what runs after.
 * A failed cmpxchg_{relaxed,acquire,release} orders nothing (LKMM), hence a
 * relaxed failure order; a release operation cannot have a release failure
 * order anyway.
 */
#define __KCSAN_BEFORE_FULL()							\
	do {									\
		__kcsan_barrier_marker(MB);					\
		__kcsan_full_fence_before_rmw();				\
	} while (0)
#define __KCSAN_MO_FULL_OK		__KCSAN_MO_FULL
#define __KCSAN_MO_FULL_FAIL		__KCSAN_MO_FULL
#define __KCSAN_AFTER_FULL()		__kcsan_full_fence_after_rmw()

#define __KCSAN_BEFORE_RELAXED()	do { } while (0)
#define __KCSAN_MO_RELAXED_OK		__ATOMIC_RELAXED
#define __KCSAN_MO_RELAXED_FAIL		__ATOMIC_RELAXED
#define __KCSAN_AFTER_RELAXED()		do { } while (0)

#define __KCSAN_BEFORE_ACQUIRE()	do { } while (0)	/* acquire: no marker */
#define __KCSAN_MO_ACQUIRE_OK		__ATOMIC_ACQUIRE
#define __KCSAN_MO_ACQUIRE_FAIL		__ATOMIC_RELAXED
#define __KCSAN_AFTER_ACQUIRE()		do { } while (0)

#define __KCSAN_BEFORE_RELEASE()	__kcsan_barrier_marker(RELEASE)
#define __KCSAN_MO_RELEASE_OK		__ATOMIC_RELEASE
#define __KCSAN_MO_RELEASE_FAIL		__ATOMIC_RELAXED
#define __KCSAN_AFTER_RELEASE()		do { } while (0)

/* ======================================================================
 * Marked and ignored accesses
 * ====================================================================== */

/*
 * READ_ONCE(x) / WRITE_ONCE(x, val): one volatile access of x's own size
 * (any scalar; the compiler neither tears, fuses, repeats nor invents it).
 * They order nothing: pair them with barriers or use the acquire/release
 * forms.  READ_ONCE yields an rvalue of x's unqualified type.
 */
#define READ_ONCE(x)								\
	(__extension__ ({ *(const volatile __typeof__(x) *)&(x); }))

#define WRITE_ONCE(x, val)							\
	do {									\
		*(volatile __typeof__(x) *)&(x) = (val);			\
	} while (0)

/*
 * data_race(expr): evaluates expr (which must have a value) with plain
 * accesses, and tells the tools that the races of those accesses are
 * intended (statistics, heuristics).  Yields the value as an rvalue.
 */
__kcsan_inline void __kcsan_data_race_begin(void)
{
#if KCSAN_INSTRUMENTED
	if (__kcsan_disable_current)
		__kcsan_disable_current();
#endif
}

__kcsan_inline void __kcsan_data_race_end(void)
{
#if KCSAN_INSTRUMENTED
	if (__kcsan_enable_current)
		__kcsan_enable_current();
#endif
}

#define data_race(expr) __kcsan_data_race(expr, __COUNTER__)
#define __kcsan_data_race(expr, n) (__extension__ ({				\
	__auto_type __KCSAN_ID(dr, n) = (__kcsan_data_race_begin(), (expr));	\
	__kcsan_data_race_end();						\
	__KCSAN_ID(dr, n);							\
}))

/* ======================================================================
 * Barriers
 * ====================================================================== */

/* Compiler barrier only (no instruction, no ordering between CPUs). */
#define barrier() __kcsan_compiler_barrier()

/* Full barrier: orders every earlier access before every later one, and is
 * the only barrier that orders an earlier store before a later load. */
#define smp_mb()								\
	do {									\
		__kcsan_barrier_marker(MB);					\
		__kcsan_thread_fence(__ATOMIC_SEQ_CST);			\
	} while (0)

/*
 * Write and read barriers.  LKMM: smp_wmb() orders earlier stores before
 * later stores, smp_rmb() earlier loads before later loads; paired through a
 * flag (x = 1; smp_wmb(); WRITE_ONCE(f, 1) || r = READ_ONCE(f); smp_rmb(); x)
 * they give message passing.
 *
 * Portable choice: a release fence for smp_wmb() (it orders earlier loads
 * *and* stores before later stores, a superset of store->store) and an
 * acquire fence for smp_rmb() (earlier loads before later loads *and*
 * stores, a superset of load->load).  C11 fence-to-fence synchronisation
 * makes the pair above correct (the flag accesses being single, untorn
 * accesses, which GCC and Clang guarantee for aligned volatile scalars up
 * to the word size and the kernel relies on), and the hardware mapping is
 * at least as strong as the kernel's (arm64: dmb ish / dmb ishld, POWER:
 * lwsync).
 *
 * x86 (TSO) never reorders store->store or load->load, so there, as in the
 * kernel, both are compiler barriers.  That is also exactly the code the
 * fences generate on x86, and it keeps the runtime from seeing a release
 * fence where the program only has a write barrier.
 */
#if defined(__x86_64__) || defined(__i386__)
# define __kcsan_wmb_fence() __kcsan_compiler_barrier()
# define __kcsan_rmb_fence() __kcsan_compiler_barrier()
#else
# define __kcsan_wmb_fence() __kcsan_thread_fence(__ATOMIC_RELEASE)
# define __kcsan_rmb_fence() __kcsan_thread_fence(__ATOMIC_ACQUIRE)
#endif

#define smp_wmb()								\
	do {									\
		__kcsan_barrier_marker(WMB);					\
		__kcsan_wmb_fence();						\
	} while (0)

#define smp_rmb()								\
	do {									\
		__kcsan_barrier_marker(RMB);					\
		__kcsan_rmb_fence();						\
	} while (0)

/* Mandatory barriers.  In the kernel they also order MMIO and DMA; a user
 * process has neither, so they are the SMP barriers. */
#define mb()		smp_mb()
#define wmb()		smp_wmb()
#define rmb()		smp_rmb()
#define dma_wmb()	smp_wmb()
#define dma_rmb()	smp_rmb()

/*
 * smp_mb__before_atomic() / smp_mb__after_atomic(): make a non-returning
 * atomic (atomic_inc, set_bit, ...) fully ordered.  On x86 that atomic is a
 * LOCK-prefixed instruction, already a full barrier for the CPU, so only the
 * compiler must be stopped (the kernel's choice); elsewhere a full fence.
 */
#if defined(__x86_64__) || defined(__i386__)
# define __kcsan_mb_around_atomic() __kcsan_compiler_barrier()
#else
# define __kcsan_mb_around_atomic() __kcsan_thread_fence(__ATOMIC_SEQ_CST)
#endif
#define smp_mb__before_atomic()							\
	do {									\
		__kcsan_barrier_marker(MB);					\
		__kcsan_mb_around_atomic();					\
	} while (0)
#define smp_mb__after_atomic()							\
	do {									\
		__kcsan_barrier_marker(MB);					\
		__kcsan_mb_around_atomic();					\
	} while (0)

/* After taking a lock (in user space: a pthread lock, which only acquires),
 * upgrade to a full barrier: a real full fence everywhere. */
#define smp_mb__after_spinlock() smp_mb()

/* Busy-wait hint; also a compiler barrier, as in the kernel. */
#if defined(__x86_64__) || defined(__i386__)
# define cpu_relax()								\
	do {									\
		__builtin_ia32_pause();						\
		__kcsan_compiler_barrier();					\
	} while (0)
#else
# define cpu_relax() __kcsan_compiler_barrier()
#endif

/* ======================================================================
 * Acquire and release
 * ====================================================================== */

/*
 * smp_store_release(p, v): store v to *p; every earlier access is ordered
 * before it.  p and v are evaluated first, then the RELEASE marker, then the
 * store, so that a plain read inside v is not seen after the release.
 */
#define smp_store_release(p, v) __kcsan_store_release(p, v, __COUNTER__)
#define __kcsan_store_release(p, v, n)						\
	do {									\
		__typeof__(*(p)) *__KCSAN_ID(sp, n) = (p);			\
		__kcsan_unqual_typeof(*(p)) __KCSAN_ID(sv, n) = (v);		\
		__kcsan_barrier_marker(RELEASE);				\
		__atomic_store_n(__KCSAN_ID(sp, n), __KCSAN_ID(sv, n),		\
				 __ATOMIC_RELEASE);				\
	} while (0)

/* smp_load_acquire(p): load *p; it is ordered before every later access.
 * Acquire operations emit no marker (they end no delayed access). */
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* smp_store_mb(var, v): WRITE_ONCE(var, v) followed by smp_mb() (the MB
 * marker comes after the store, as the fence does). */
#define smp_store_mb(var, v)							\
	do {									\
		WRITE_ONCE(var, v);						\
		smp_mb();							\
	} while (0)

/* ======================================================================
 * xchg() and cmpxchg() on any scalar (1, 2, 4 or 8 bytes; integer, enum,
 * _Bool or pointer): both return the old value of *ptr.
 * ====================================================================== */

#define __kcsan_xchg(ptr, new, kind, n) (__extension__ ({			\
	__typeof__(*(ptr)) *__KCSAN_ID(p, n) = (ptr);				\
	__kcsan_unqual_typeof(*(ptr)) __KCSAN_ID(v, n) = (new);			\
	__kcsan_unqual_typeof(*(ptr)) __KCSAN_ID(o, n);				\
	__KCSAN_BEFORE_##kind();						\
	__KCSAN_ID(o, n) = __atomic_exchange_n(__KCSAN_ID(p, n),		\
			__KCSAN_ID(v, n), __KCSAN_MO_##kind##_OK);		\
	__KCSAN_AFTER_##kind();							\
	__KCSAN_ID(o, n);							\
}))

/* On failure __atomic_compare_exchange_n writes the value it found into the
 * expected-value local; on success that local already equals it: either way
 * the local ends up holding the old value, which is returned. */
#define __kcsan_cmpxchg(ptr, old, new, kind, n) (__extension__ ({		\
	__typeof__(*(ptr)) *__KCSAN_ID(p, n) = (ptr);				\
	__kcsan_unqual_typeof(*(ptr)) __KCSAN_ID(o, n) = (old);			\
	__kcsan_unqual_typeof(*(ptr)) __KCSAN_ID(v, n) = (new);			\
	__KCSAN_BEFORE_##kind();						\
	(void)__atomic_compare_exchange_n(__KCSAN_ID(p, n), &__KCSAN_ID(o, n),	\
			__KCSAN_ID(v, n), 0, __KCSAN_MO_##kind##_OK,		\
			__KCSAN_MO_##kind##_FAIL);				\
	__KCSAN_AFTER_##kind();							\
	__KCSAN_ID(o, n);							\
}))

#define xchg(ptr, new)			__kcsan_xchg(ptr, new, FULL, __COUNTER__)
#define xchg_relaxed(ptr, new)		__kcsan_xchg(ptr, new, RELAXED, __COUNTER__)
#define xchg_acquire(ptr, new)		__kcsan_xchg(ptr, new, ACQUIRE, __COUNTER__)
#define xchg_release(ptr, new)		__kcsan_xchg(ptr, new, RELEASE, __COUNTER__)

#define cmpxchg(ptr, old, new)		__kcsan_cmpxchg(ptr, old, new, FULL, __COUNTER__)
#define cmpxchg_relaxed(ptr, old, new)	__kcsan_cmpxchg(ptr, old, new, RELAXED, __COUNTER__)
#define cmpxchg_acquire(ptr, old, new)	__kcsan_cmpxchg(ptr, old, new, ACQUIRE, __COUNTER__)
#define cmpxchg_release(ptr, old, new)	__kcsan_cmpxchg(ptr, old, new, RELEASE, __COUNTER__)

/* ======================================================================
 * atomic_t
 * ====================================================================== */

typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i) { (i) }

/* Plain atomic load and store: relaxed, no marker. */
__kcsan_inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

__kcsan_inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

__kcsan_inline int atomic_read_acquire(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);
}

__kcsan_inline void atomic_set_release(atomic_t *v, int i)
{
	__kcsan_barrier_marker(RELEASE);
	__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE);
}

/* Non-returning RMWs are unordered (LKMM): relaxed, no marker.  Use
 * smp_mb__before_atomic()/smp_mb__after_atomic() to order them. */
__kcsan_inline void atomic_add(int i, atomic_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);
}

__kcsan_inline void atomic_sub(int i, atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);
}

__kcsan_inline void atomic_inc(atomic_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);
}

__kcsan_inline void atomic_dec(atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED);
}

/*
 * Value-returning RMWs, each in four orderings: NAME (fully ordered),
 * NAME_relaxed, NAME_acquire, NAME_release.  One generator per signature;
 * the names are spelt out at each use so that they can be found by grep.
 *   OP  builtin applied to (&v->counter, i, order), returning int
 */
#define __KCSAN_ATOMIC_OP1(name, kind, op)					\
	__kcsan_inline int (name)(int i, atomic_t *v)				\
	{									\
		int __r;							\
		__KCSAN_BEFORE_##kind();					\
		__r = op(&v->counter, i, __KCSAN_MO_##kind##_OK);		\
		__KCSAN_AFTER_##kind();						\
		return __r;							\
	}
#define __KCSAN_ATOMIC_OP(full, relaxed, acquire, release, op)			\
	__KCSAN_ATOMIC_OP1(full, FULL, op)					\
	__KCSAN_ATOMIC_OP1(relaxed, RELAXED, op)				\
	__KCSAN_ATOMIC_OP1(acquire, ACQUIRE, op)				\
	__KCSAN_ATOMIC_OP1(release, RELEASE, op)

/* atomic_{add,sub}_return*(i, v): return the new value. */
__KCSAN_ATOMIC_OP(atomic_add_return, atomic_add_return_relaxed,
		  atomic_add_return_acquire, atomic_add_return_release,
		  __atomic_add_fetch)
__KCSAN_ATOMIC_OP(atomic_sub_return, atomic_sub_return_relaxed,
		  atomic_sub_return_acquire, atomic_sub_return_release,
		  __atomic_sub_fetch)

/* atomic_fetch_{add,sub,and,or,xor}*(i, v): return the old value. */
__KCSAN_ATOMIC_OP(atomic_fetch_add, atomic_fetch_add_relaxed,
		  atomic_fetch_add_acquire, atomic_fetch_add_release,
		  __atomic_fetch_add)
__KCSAN_ATOMIC_OP(atomic_fetch_sub, atomic_fetch_sub_relaxed,
		  atomic_fetch_sub_acquire, atomic_fetch_sub_release,
		  __atomic_fetch_sub)
__KCSAN_ATOMIC_OP(atomic_fetch_and, atomic_fetch_and_relaxed,
		  atomic_fetch_and_acquire, atomic_fetch_and_release,
		  __atomic_fetch_and)
__KCSAN_ATOMIC_OP(atomic_fetch_or, atomic_fetch_or_relaxed,
		  atomic_fetch_or_acquire, atomic_fetch_or_release,
		  __atomic_fetch_or)
__KCSAN_ATOMIC_OP(atomic_fetch_xor, atomic_fetch_xor_relaxed,
		  atomic_fetch_xor_acquire, atomic_fetch_xor_release,
		  __atomic_fetch_xor)

/* atomic_{inc,dec}_return*(v): the new value; same orderings as above. */
#define __KCSAN_ATOMIC_INCDEC(name, op)						\
	__kcsan_inline int name(atomic_t *v) { return op(1, v); }
__KCSAN_ATOMIC_INCDEC(atomic_inc_return, atomic_add_return)
__KCSAN_ATOMIC_INCDEC(atomic_inc_return_relaxed, atomic_add_return_relaxed)
__KCSAN_ATOMIC_INCDEC(atomic_inc_return_acquire, atomic_add_return_acquire)
__KCSAN_ATOMIC_INCDEC(atomic_inc_return_release, atomic_add_return_release)
__KCSAN_ATOMIC_INCDEC(atomic_dec_return, atomic_sub_return)
__KCSAN_ATOMIC_INCDEC(atomic_dec_return_relaxed, atomic_sub_return_relaxed)
__KCSAN_ATOMIC_INCDEC(atomic_dec_return_acquire, atomic_sub_return_acquire)
__KCSAN_ATOMIC_INCDEC(atomic_dec_return_release, atomic_sub_return_release)

/* atomic_xchg*(v, new) and atomic_cmpxchg*(v, old, new): the old value. */
#define __KCSAN_ATOMIC_XCHG1(name, kind)					\
	__kcsan_inline int name(atomic_t *v, int i)				\
	{									\
		return __kcsan_xchg(&v->counter, i, kind, 0);			\
	}
#define __KCSAN_ATOMIC_CMPXCHG1(name, kind)					\
	__kcsan_inline int name(atomic_t *v, int old, int new)			\
	{									\
		return __kcsan_cmpxchg(&v->counter, old, new, kind, 0);		\
	}
__KCSAN_ATOMIC_XCHG1(atomic_xchg, FULL)
__KCSAN_ATOMIC_XCHG1(atomic_xchg_relaxed, RELAXED)
__KCSAN_ATOMIC_XCHG1(atomic_xchg_acquire, ACQUIRE)
__KCSAN_ATOMIC_XCHG1(atomic_xchg_release, RELEASE)
__KCSAN_ATOMIC_CMPXCHG1(atomic_cmpxchg, FULL)
__KCSAN_ATOMIC_CMPXCHG1(atomic_cmpxchg_relaxed, RELAXED)
__KCSAN_ATOMIC_CMPXCHG1(atomic_cmpxchg_acquire, ACQUIRE)
__KCSAN_ATOMIC_CMPXCHG1(atomic_cmpxchg_release, RELEASE)

/* ======================================================================
 * Atomic bit operations on arrays of unsigned long
 * ====================================================================== */

#define __KCSAN_BITS_PER_LONG	(8 * __SIZEOF_LONG__)
#define __kcsan_bit_word(nr)	((nr) / __KCSAN_BITS_PER_LONG)
#define __kcsan_bit_mask(nr)	(1UL << ((nr) % __KCSAN_BITS_PER_LONG))

/* Non-returning: unordered, no marker. */
__kcsan_inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr + __kcsan_bit_word(nr), __kcsan_bit_mask(nr),
			  __ATOMIC_RELAXED);
}

__kcsan_inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + __kcsan_bit_word(nr), ~__kcsan_bit_mask(nr),
			   __ATOMIC_RELAXED);
}

__kcsan_inline void change_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(addr + __kcsan_bit_word(nr), __kcsan_bit_mask(nr),
			   __ATOMIC_RELAXED);
}

/* test_and_*_bit(): fully ordered, return the old value of the bit. */
__kcsan_inline _Bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	unsigned long mask = __kcsan_bit_mask(nr), old;

	__KCSAN_BEFORE_FULL();
	old = __atomic_fetch_or(addr + __kcsan_bit_word(nr), mask, __KCSAN_MO_FULL_OK);
	__KCSAN_AFTER_FULL();
	return (old & mask) != 0;
}

__kcsan_inline _Bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	unsigned long mask = __kcsan_bit_mask(nr), old;

	__KCSAN_BEFORE_FULL();
	old = __atomic_fetch_and(addr + __kcsan_bit_word(nr), ~mask, __KCSAN_MO_FULL_OK);
	__KCSAN_AFTER_FULL();
	return (old & mask) != 0;
}

__kcsan_inline _Bool test_and_change_bit(long nr, volatile unsigned long *addr)
{
	unsigned long mask = __kcsan_bit_mask(nr), old;

	__KCSAN_BEFORE_FULL();
	old = __atomic_fetch_xor(addr + __kcsan_bit_word(nr), mask, __KCSAN_MO_FULL_OK);
	__KCSAN_AFTER_FULL();
	return (old & mask) != 0;
}

/* Bit locks: taking the lock is an acquire (no marker), releasing it a
 * release (RELEASE marker before the store). */
__kcsan_inline _Bool test_and_set_bit_lock(long nr, volatile unsigned long *addr)
{
	unsigned long mask = __kcsan_bit_mask(nr);

	return (__atomic_fetch_or(addr + __kcsan_bit_word(nr), mask,
				  __ATOMIC_ACQUIRE) & mask) != 0;
}

__kcsan_inline void clear_bit_unlock(long nr, volatile unsigned long *addr)
{
	__kcsan_barrier_marker(RELEASE);
	__atomic_fetch_and(addr + __kcsan_bit_word(nr), ~__kcsan_bit_mask(nr),
			   __ATOMIC_RELEASE);
}

/* ======================================================================
 * Assertions for the runtime
 * ====================================================================== */

__kcsan_inline void __kcsan_assert(const volatile void *ptr, unsigned long size, int kind)
{
#if KCSAN_INSTRUMENTED
	if (__kcsan_assert_exclusive)
		__kcsan_assert_exclusive(ptr, size, kind);
#else
	(void)ptr;
	(void)size;
	(void)kind;
#endif
}

/* ASSERT_EXCLUSIVE_WRITER(var): no concurrent writer of var may exist here;
 * ASSERT_EXCLUSIVE_ACCESS(var): no concurrent access at all.  var is an
 * lvalue; its address is taken (once) and it is not read. */
#define ASSERT_EXCLUSIVE_WRITER(var)						\
	__kcsan_assert(&(var), sizeof(var), KCSAN_ASSERT_EXCLUSIVE_KIND_WRITER)
#define ASSERT_EXCLUSIVE_ACCESS(var)						\
	__kcsan_assert(&(var), sizeof(var), KCSAN_ASSERT_EXCLUSIVE_KIND_ACCESS)

/* ======================================================================
 * <stdatomic.h> after this header: its first declaration names
 * memory_order_relaxed, which expands to this error (and to itself).
 * ====================================================================== */
#ifndef __KCSAN_STDATOMIC_SEEN
#define memory_order_relaxed							\
	_Pragma("GCC error \"kcsan/lkmm.h: cannot be combined with <stdatomic.h> in one translation unit: both define atomic_fetch_add() (and atomic_fetch_{sub,and,or,xor}) with different meanings; use one or the other\"") \
	memory_order_relaxed
#endif

#endif /* !KCSAN_LKMM_ABI_ONLY */
#endif /* KCSAN_LKMM_H */
