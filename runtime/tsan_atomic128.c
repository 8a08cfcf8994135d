/*
 * tsan_atomic128.c — __tsan_atomic128_* (gcc emits them for __int128
 * atomics).  A separate object because the 16-byte __atomic builtins become
 * calls into libatomic (link with -latomic): a program without 128-bit
 * atomics does not pull this object out of the archive and needs no
 * libatomic.
 */
#include "tsan_atomic_impl.h"

/* clang warns that 16-byte atomics are not lock-free here: known, that is
 * what libatomic is for. */
#ifdef __clang__
# pragma clang diagnostic ignored "-Watomic-alignment"
#endif

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 kcsan_u128;
DEFINE_TSAN_ATOMICS(128, kcsan_u128)
#endif
