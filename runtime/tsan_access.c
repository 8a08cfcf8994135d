/*
 * tsan_access.c — the -fsanitize=thread entry points for plain and volatile
 * memory accesses, function entry/exit and module init.
 *
 * What the compilers emit (checked with -S on clang 14 and gcc 12):
 *   __tsan_init                     from each instrumented module's constructor
 *   __tsan_func_entry/exit          around every instrumented function
 *   __tsan_{read,write}{1,2,4,8,16} aligned plain accesses
 *   __tsan_unaligned_{read,write}N  packed / misaligned plain accesses
 *   __tsan_{read,write}_range       gcc: aggregate copies (struct assignment)
 *   __tsan_volatile_{read,write}N   volatile accesses, only with clang
 *                                   -mllvm -tsan-distinguish-volatile=1 or gcc
 *                                   --param=tsan-distinguish-volatile=1; they
 *                                   are READ_ONCE/WRITE_ONCE: marked accesses
 *   __tsan_unaligned_volatile_*     clang, misaligned volatile accesses
 *   __tsan_vptr_update/read         C++ (clang++ and g++): the object's
 *                                   vtable pointer stored by a constructor
 *                                   or destructor / read by a virtual call
 * Neither clang 14 nor gcc 12 emits __tsan_memcpy/memset/memmove (they call
 * the libc functions, which libtsan intercepts); newer clangs do, so they are
 * provided: they check the ranges and do the operation.
 *
 * Each entry point records its caller's address (__builtin_return_address)
 * as the code location of the access, and inlines the fast path
 * (fastpath.h).
 */
#include <string.h>

#include "fastpath.h"
#include "kcsan_rt.h"

#define RET_IP ((uintptr_t)__builtin_return_address(0))

/* Visible to the instrumented program; the runtime's own symbols are kept
 * out of its namespace by their kcsan_ / __kcsan_ prefixes. */
#define ABI __attribute__((visibility("default")))

/* interpose.c, heap.c: resolve the real pthread and free functions while
 * (normally) still single-threaded; overflow.c: the crash handler. */
void kcsan_interpose_init(void);
void kcsan_heap_init(void);

ABI void __tsan_init(void);
ABI void __tsan_init(void)
{
	kcsan_init();
	kcsan_interpose_init();
	kcsan_heap_init();
	kcsan_overflow_init();
}

/* Function scope for the weak-memory model (weakmem.c). */
ABI void __tsan_func_entry(void *call_pc);
ABI void __tsan_func_entry(void *call_pc)
{
	kcsan_func_entry_fast((uintptr_t)call_pc);
}

ABI void __tsan_func_exit(void);
ABI void __tsan_func_exit(void)
{
	kcsan_func_exit_fast(RET_IP);
}

#define DEFINE_ACCESS(name, size, type)						\
	ABI void __tsan_##name(void *ptr);					\
	ABI void __tsan_##name(void *ptr)					\
	{									\
		kcsan_check(ptr, size, type, RET_IP);			\
	}

#define DEFINE_ACCESSES(size)							\
	DEFINE_ACCESS(read##size, size, 0)					\
	DEFINE_ACCESS(write##size, size, KCSAN_ACCESS_WRITE)			\
	DEFINE_ACCESS(unaligned_read##size, size, 0)				\
	DEFINE_ACCESS(unaligned_write##size, size, KCSAN_ACCESS_WRITE)		\
	DEFINE_ACCESS(volatile_read##size, size, KCSAN_ACCESS_ATOMIC)		\
	DEFINE_ACCESS(volatile_write##size, size,				\
		      KCSAN_ACCESS_WRITE | KCSAN_ACCESS_ATOMIC)			\
	DEFINE_ACCESS(unaligned_volatile_read##size, size, KCSAN_ACCESS_ATOMIC)	\
	DEFINE_ACCESS(unaligned_volatile_write##size, size,			\
		      KCSAN_ACCESS_WRITE | KCSAN_ACCESS_ATOMIC)

/* 1-byte accesses are never unaligned, but defining the names is harmless. */
DEFINE_ACCESSES(1)
DEFINE_ACCESSES(2)
DEFINE_ACCESSES(4)
DEFINE_ACCESSES(8)
DEFINE_ACCESSES(16)

ABI void __tsan_read_range(void *ptr, unsigned long size);
ABI void __tsan_read_range(void *ptr, unsigned long size)
{
	kcsan_check(ptr, size, 0, RET_IP);
}

ABI void __tsan_write_range(void *ptr, unsigned long size);
ABI void __tsan_write_range(void *ptr, unsigned long size)
{
	kcsan_check(ptr, size, KCSAN_ACCESS_WRITE, RET_IP);
}

ABI void *__tsan_memcpy(void *dst, const void *src, size_t len);
ABI void *__tsan_memcpy(void *dst, const void *src, size_t len)
{
	kcsan_check(src, len, 0, RET_IP);
	kcsan_check(dst, len, KCSAN_ACCESS_WRITE, RET_IP);
	return memcpy(dst, src, len);
}

ABI void *__tsan_memmove(void *dst, const void *src, size_t len);
ABI void *__tsan_memmove(void *dst, const void *src, size_t len)
{
	kcsan_check(src, len, 0, RET_IP);
	kcsan_check(dst, len, KCSAN_ACCESS_WRITE, RET_IP);
	return memmove(dst, src, len);
}

ABI void *__tsan_memset(void *dst, int c, size_t len);
ABI void *__tsan_memset(void *dst, int c, size_t len)
{
	kcsan_check(dst, len, KCSAN_ACCESS_WRITE, RET_IP);
	return memset(dst, c, len);
}

/*
 * C++ vtable pointers.  A constructor chain stores the vptr once per base
 * class, a destructor chain again; storing the value already there changes
 * nothing another thread could see, so, as libtsan does, only a store of a
 * new value is an access (a plain write).  The read made by a virtual call
 * is a plain read: a virtual call on an object published without ordering
 * races with its constructor.  Reading *vptr_p here is the runtime's own,
 * uninstrumented read of memory the program is about to write.
 */
ABI void __tsan_vptr_update(void **vptr_p, void *new_val);
ABI void __tsan_vptr_update(void **vptr_p, void *new_val)
{
	if (*(void *volatile *)vptr_p != new_val)
		kcsan_check(vptr_p, sizeof(void *), KCSAN_ACCESS_WRITE, RET_IP);
}

ABI void __tsan_vptr_read(void **vptr_p);
ABI void __tsan_vptr_read(void **vptr_p)
{
	kcsan_check(vptr_p, sizeof(void *), 0, RET_IP);
}
