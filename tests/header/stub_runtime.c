/*
 * tests/header/stub_runtime.c — see stub_runtime.h.  Compiled without
 * -fsanitize=thread.  Includes kcsan/lkmm.h in its ABI-only mode, as the
 * real runtime does: the barrier encodings and strong hook prototypes.
 */
#define KCSAN_LKMM_ABI_ONLY
#include <kcsan/lkmm.h>

#include <stdio.h>
#include <string.h>

#include "stub_runtime.h"

static char log_buf[1024];
static const volatile void *watched;
static const volatile void *last_assert_ptr;

static void log_word(const char *w)
{
	size_t len = strlen(log_buf);

	if (len + strlen(w) + 2 >= sizeof log_buf)
		return;
	if (len)
		log_buf[len++] = ' ';
	strcpy(log_buf + len, w);
}

void stub_reset(const volatile void *addr)
{
	log_buf[0] = '\0';
	watched = addr;
	last_assert_ptr = NULL;
}

const char *stub_log(void)
{
	return log_buf;
}

const volatile void *stub_last_assert_ptr(void)
{
	return last_assert_ptr;
}

/* ---- kcsan hooks (strong definitions) ---- */

void __kcsan_assert_exclusive(const volatile void *ptr, unsigned long size, int kind)
{
	char w[32];

	snprintf(w, sizeof w, "assert%s%lu",
		 kind == KCSAN_ASSERT_EXCLUSIVE_KIND_WRITER ? "W" :
		 kind == KCSAN_ASSERT_EXCLUSIVE_KIND_ACCESS ? "A" : "?", size);
	log_word(w);
	last_assert_ptr = ptr;
}

void __kcsan_disable_current(void)
{
	log_word("dis");
}

void __kcsan_enable_current(void)
{
	log_word("en");
}

/* ---- ThreadSanitizer ABI ---- */

void __tsan_init(void);
void __tsan_init(void) { }
void __tsan_func_entry(void *pc);
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void);
void __tsan_func_exit(void) { }

void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo)
{
	char w[32];

	switch (mo) {
	case KCSAN_BARRIER_SIGNAL_FENCE_MB:
		log_word("mb");
		break;
	case KCSAN_BARRIER_SIGNAL_FENCE_WMB:
		log_word("wmb");
		break;
	case KCSAN_BARRIER_SIGNAL_FENCE_RMB:
		log_word("rmb");
		break;
	case KCSAN_BARRIER_SIGNAL_FENCE_RELEASE:
		log_word("rel");
		break;
	default:
		snprintf(w, sizeof w, "fence%d", mo);
		log_word(w);
		break;
	}
}

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#define PLAIN(kind, word, size)							\
	void __tsan_##kind##size(void *addr);					\
	void __tsan_##kind##size(void *addr)					\
	{									\
		if (watched && addr == (const void *)watched)			\
			log_word(word);						\
	}
#define PLAIN_ALL(size)								\
	PLAIN(read, "rd", size) PLAIN(write, "wr", size)			\
	PLAIN(unaligned_read, "rd", size) PLAIN(unaligned_write, "wr", size)	\
	PLAIN(volatile_read, "vrd", size) PLAIN(volatile_write, "vwr", size)	\
	PLAIN(unaligned_volatile_read, "vrd", size)				\
	PLAIN(unaligned_volatile_write, "vwr", size)
PLAIN_ALL(1)
PLAIN_ALL(2)
PLAIN_ALL(4)
PLAIN_ALL(8)
PLAIN_ALL(16)

void __tsan_read_range(void *addr, unsigned long size);
void __tsan_read_range(void *addr, unsigned long size) { (void)addr; (void)size; }
void __tsan_write_range(void *addr, unsigned long size);
void __tsan_write_range(void *addr, unsigned long size) { (void)addr; (void)size; }

void *__tsan_memcpy(void *d, const void *s, unsigned long n);
void *__tsan_memcpy(void *d, const void *s, unsigned long n) { return memcpy(d, s, n); }
void *__tsan_memmove(void *d, const void *s, unsigned long n);
void *__tsan_memmove(void *d, const void *s, unsigned long n) { return memmove(d, s, n); }
void *__tsan_memset(void *d, int c, unsigned long n);
void *__tsan_memset(void *d, int c, unsigned long n) { return memset(d, c, n); }

/* The atomics really operate (sequentially consistent: the stub only has to
 * compute the right values). */
#define ATOMIC_RMW(bits, T, op, builtin)					\
	T __tsan_atomic##bits##_##op(volatile T *a, T v, int mo);		\
	T __tsan_atomic##bits##_##op(volatile T *a, T v, int mo)		\
	{									\
		(void)mo;							\
		return builtin(a, v, __ATOMIC_SEQ_CST);				\
	}
#define ATOMIC_ALL(bits, T)							\
	T __tsan_atomic##bits##_load(const volatile T *a, int mo);		\
	T __tsan_atomic##bits##_load(const volatile T *a, int mo)		\
	{									\
		(void)mo;							\
		return __atomic_load_n(a, __ATOMIC_SEQ_CST);			\
	}									\
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo);		\
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)		\
	{									\
		(void)mo;							\
		__atomic_store_n(a, v, __ATOMIC_SEQ_CST);			\
	}									\
	ATOMIC_RMW(bits, T, exchange, __atomic_exchange_n)			\
	ATOMIC_RMW(bits, T, fetch_add, __atomic_fetch_add)			\
	ATOMIC_RMW(bits, T, fetch_sub, __atomic_fetch_sub)			\
	ATOMIC_RMW(bits, T, fetch_and, __atomic_fetch_and)			\
	ATOMIC_RMW(bits, T, fetch_or, __atomic_fetch_or)			\
	ATOMIC_RMW(bits, T, fetch_xor, __atomic_fetch_xor)			\
	ATOMIC_RMW(bits, T, fetch_nand, __atomic_fetch_nand)			\
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c,	\
							  T v, int mo, int fmo); \
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c,	\
							  T v, int mo, int fmo) \
	{									\
		(void)mo;							\
		(void)fmo;							\
		return __atomic_compare_exchange_n(a, c, v, 0,			\
				__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);		\
	}									\
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c,	\
							T v, int mo, int fmo);	\
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c,	\
							T v, int mo, int fmo)	\
	{									\
		return __tsan_atomic##bits##_compare_exchange_strong(a, c, v,	\
								     mo, fmo); \
	}									\
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v,	\
						     int mo, int fmo);		\
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v,	\
						     int mo, int fmo)		\
	{									\
		__tsan_atomic##bits##_compare_exchange_strong(a, &c, v, mo, fmo); \
		return c;							\
	}
ATOMIC_ALL(8, unsigned char)
ATOMIC_ALL(16, unsigned short)
ATOMIC_ALL(32, unsigned int)
ATOMIC_ALL(64, unsigned long long)
