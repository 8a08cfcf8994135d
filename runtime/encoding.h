/*
 * encoding.h — a watchpoint packed into one 64-bit word, so that it can be
 * claimed, consumed and removed with a single compare-and-swap.
 *
 *   bit 63      1 = the watched access is a write
 *   bits 48-62  size in bytes (1 .. 32767; larger accesses are clamped,
 *               which only shortens the watched range)
 *   bits 0-47   address (user-space addresses fit in 48 bits on x86-64 and
 *               arm64 with 48-bit VAs; higher bits would alias, which at worst
 *               gives a false match on an address 2^48 apart)
 *
 * Three values are reserved and can never be a real watchpoint, because
 * every real one has a size of at least 1:
 *   KCSAN_WP_INVALID  (0) the slot is free
 *   KCSAN_WP_CONSUMED (1) another thread hit the watchpoint; the watcher
 *                     owns the slot until it has read the other thread's
 *                     access information and frees it.
 *   KCSAN_WP_FREED    (2) the watched memory was freed (heap.c: free,
 *                     realloc, munmap) during the delay window: nobody can
 *                     hit the watchpoint any more (the next owner of the
 *                     memory must not race with the access that was
 *                     watched before the free), and the watcher, who still
 *                     owns the slot, frees it without a report.
 */
#ifndef KCSAN_ENCODING_H
#define KCSAN_ENCODING_H

#include <stddef.h>
#include <stdint.h>

#define KCSAN_WP_INVALID	0ULL
#define KCSAN_WP_CONSUMED	1ULL
#define KCSAN_WP_FREED		2ULL

#define KCSAN_WP_WRITE_BIT	(1ULL << 63)
#define KCSAN_WP_SIZE_SHIFT	48
#define KCSAN_WP_SIZE_MAX	0x7fffULL
#define KCSAN_WP_ADDR_MASK	((1ULL << KCSAN_WP_SIZE_SHIFT) - 1)

static inline uint64_t kcsan_wp_encode(uintptr_t addr, size_t size, int is_write)
{
	uint64_t sz = size > KCSAN_WP_SIZE_MAX ? KCSAN_WP_SIZE_MAX : size;

	return (is_write ? KCSAN_WP_WRITE_BIT : 0) | (sz << KCSAN_WP_SIZE_SHIFT) |
	       ((uint64_t)addr & KCSAN_WP_ADDR_MASK);
}

/* Returns 0 for the reserved values (they decode to size 0). */
static inline int kcsan_wp_decode(uint64_t wp, uintptr_t *addr, size_t *size,
				  int *is_write)
{
	*size = (size_t)((wp >> KCSAN_WP_SIZE_SHIFT) & KCSAN_WP_SIZE_MAX);
	*addr = (uintptr_t)(wp & KCSAN_WP_ADDR_MASK);
	*is_write = (wp & KCSAN_WP_WRITE_BIT) != 0;
	return *size != 0;
}

/* [a, a+as) and [b, b+bs) overlap (addresses compared in the encoded 48-bit
 * space, so that a decoded watchpoint compares with a raw pointer). */
static inline int kcsan_ranges_overlap(uintptr_t a, size_t as, uintptr_t b, size_t bs)
{
	a &= KCSAN_WP_ADDR_MASK;
	b &= KCSAN_WP_ADDR_MASK;
	return a < b + bs && b < a + as;
}

#endif /* KCSAN_ENCODING_H */
