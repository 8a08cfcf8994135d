/*
 * focus.h — internal interface of the runtime's "focus" on the static
 * candidates (focus.c, focus_db.c, focus_map.c).
 *
 * At start-up the candidates that `kcsan-scan scan` stored in $KCSAN_DB are
 * read as source sites (file, line, what kind of access), then mapped to the
 * executable's code addresses through its DWARF line table.  The result is
 * an immutable table consulted by the __tsan_* hooks: a focused plain access
 * is watched at its first executions (then about once per focus_pace)
 * instead of every ~skip_watch-th, and barriers that only the static pass sees (inline
 * assembly behind a macro) end the thread's delayed access.
 */
#ifndef KCSAN_FOCUS_H
#define KCSAN_FOCUS_H

#include <stddef.h>
#include <stdint.h>

#include "kcsan_rt.h"

/* What a source site (and the code generated for it) is. */
#define KCSAN_FOCUS_READ	0x1	/* plain read of a candidate */
#define KCSAN_FOCUS_WRITE	0x2	/* plain write of a candidate */
#define KCSAN_FOCUS_MARKED	0x4	/* the marked access a candidate pairs with */
#define KCSAN_FOCUS_BARRIER	0x8	/* a barrier site (kind in .barrier) */

/* One source site from the database.  file is owned by the site list. */
struct kcsan_focus_site {
	const char *file;
	int line;
	unsigned int flags;
	enum kcsan_barrier barrier;	/* when flags has KCSAN_FOCUS_BARRIER */
	int matched;			/* set by the mapping: code was found */
};

struct kcsan_focus_sites {
	struct kcsan_focus_site *v;
	size_t n;
	char *strings;			/* the file names, one block */
};

/* A run of code addresses [lo, hi) generated for focused sites.  Only
 * the pacing fields (relaxed atomics) change after start-up. */
struct kcsan_focus_range {
	uintptr_t lo, hi;
	unsigned int flags;
	unsigned long hits;	/* executions, counted up to focus_burst */
	uint64_t next_ns;	/* not watched again before this time */
	uint64_t seen_ns;	/* last executed at (the coarse clock's tick) */
	int aside;		/* its bits cleared until due (focus.c) */
};

/* A static barrier at code address at, inside the function [func_lo,
 * func_hi) (0, 0 when the function's extent is unknown). */
struct kcsan_focus_barrier {
	uintptr_t at, func_lo, func_hi;
	enum kcsan_barrier kind;
};

struct kcsan_focus_table {
	struct kcsan_focus_range *ranges;
	size_t nranges;
	struct kcsan_focus_barrier *barriers;
	size_t nbarriers;
	size_t units_read, units_skipped;	/* by the mapping (verbose=1) */
};

/* focus_db.c: reads the candidate and barrier sites of the database at
 * path, from the run's list at list (may be NULL: see focus_db.c) when it
 * can (*from_list set), else from the database.  0 on success (possibly
 * with no site); -1 with *why filled. */
int kcsan_focus_read_db(const char *path, const char *list, struct kcsan_focus_sites *out,
			int *from_list, char *why, size_t whylen);
void kcsan_focus_free_sites(struct kcsan_focus_sites *s);

/* focus_map.c: maps the sites to the running executable's code through its
 * DWARF line table; 0 on success, -1 with *why filled. */
int kcsan_focus_map(struct kcsan_focus_sites *sites, struct kcsan_focus_table *t,
		    char *why, size_t whylen);
/* 1 if source paths a and b name the same file (absolute paths must be
 * equal; a relative path matches an absolute one ending with it). */
int kcsan_focus_path_match(const char *a, const char *b);

/* focus.c: hooks called by core.c / weakmem.c (only when
 * kcsan_focus_active). */
extern int kcsan_focus_active;
void kcsan_focus_init(void);
void kcsan_focus_summary(void);		/* verbose=1, at exit */

/*
 * The fast path's filter (fastpath.h), when focus is active: which code
 * addresses focus may have business with.  [base, base+span) is cut into
 * KCSAN_FOCUS_CHUNK-byte chunks; bit k of bits[m] says whether chunk k
 * holds focused code of map m (the inline test, fastpath.h), and chunk[k]
 * which range: 0 (none), the index+1 of the one range in it, or
 * KCSAN_FOCUS_SEVERAL (kcsan_focus_wants, out of line).
 *
 * One bitmap per kind of access, the entry point's type choosing (a
 * constant in each): plain reads, plain writes, marked accesses.  A line
 * with a focused read mostly holds other accesses too (x = data: the
 * write of x), and with one map they all left the fast path to be told
 * they were not of the candidate's kind.  A bit of the plain maps is also
 * cleared while its hot site is not due (focus.c, "set aside").
 *
 * Every instrumented access of the program reads base, span and bits, so
 * they have a cache line of their own: the counters that focus writes at
 * each watch (focus.c) were linked into the same line, and each such
 * write would cost every other thread a miss on its next access (how much
 * that weighed was not measured apart from the rest).  A bitmap is 32 times
 * smaller than chunk[] (one bit per chunk, not four bytes), so that the
 * part of it a program's hot loops touch stays in the first-level cache.
 */
/* Small enough that two sites rarely share a chunk: a call instruction
 * is 5 bytes, and a line's code usually several calls. */
#define KCSAN_FOCUS_CHUNK	4
#define KCSAN_FOCUS_SEVERAL	UINT32_MAX
enum { KCSAN_FOCUS_MAP_READ, KCSAN_FOCUS_MAP_WRITE, KCSAN_FOCUS_MAP_MARKED, KCSAN_FOCUS_MAPS };
struct kcsan_focus_code {
	uintptr_t base, span;
	const uint64_t *bits[KCSAN_FOCUS_MAPS];
	uint32_t *chunk;
} __attribute__((aligned(64)));
extern struct kcsan_focus_code kcsan_focus_code;

/* Which map an access of this type (KCSAN_ACCESS_*) is looked up in. */
static inline __attribute__((always_inline)) int kcsan_focus_map_of(int type)
{
	if (type & (KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_ASSERT))
		return KCSAN_FOCUS_MAP_MARKED;
	return (type & KCSAN_ACCESS_WRITE) ? KCSAN_FOCUS_MAP_WRITE : KCSAN_FOCUS_MAP_READ;
}

/* 1 when the code at return address ip lies in a chunk with focused code
 * for an access of this type.  (Relaxed loads: focus.c sets and clears
 * bits while the program runs.) */
static inline __attribute__((always_inline)) int kcsan_focus_code_at(uintptr_t ip, int type)
{
	const uintptr_t off = ip - 1 - kcsan_focus_code.base;
	const uintptr_t k = off / KCSAN_FOCUS_CHUNK;

	return off < kcsan_focus_code.span &&
	       ((__atomic_load_n(&kcsan_focus_code.bits[kcsan_focus_map_of(type)][k / 64],
				 __ATOMIC_RELAXED) >> (k % 64)) & 1);
}

/* focus.c: kcsan_focus_wants for code in the map (e: its chunk's entry). */
int kcsan_focus_wants_range(struct kcsan_ctx *ctx, uintptr_t pc, uint32_t e, int type);

/*
 * 1 when an access at return address ip needs the slow path for focus: a
 * watched re-check is armed; static barriers may end the delayed access;
 * it is the marked access a candidate pairs with, with a delayed access in
 * flight (kcsan_focus_after may arm a re-check); or it is a candidate's
 * access that may be due (focus.c focus_due decides).
 */
static inline int kcsan_focus_wants(struct kcsan_ctx *ctx, uintptr_t ip, int type)
{
	const uintptr_t pc = ip - 1, off = pc - kcsan_focus_code.base;
	uint32_t e;

	if (ctx->focus_state || (ctx->reorder.size && ctx->reorder.static_barriers))
		return 1;
	if (!kcsan_focus_code_at(ip, type) || !(e = kcsan_focus_code.chunk[off / KCSAN_FOCUS_CHUNK]))
		return 0;
	return kcsan_focus_wants_range(ctx, pc, e, type);
}

/* The first half of kcsan_focus_wants, calling nothing (inlined into
 * every entry point, fastpath.h): 1 when focus has certainly nothing to do
 * with an access at return address ip. */
static inline __attribute__((always_inline)) int
kcsan_focus_idle(const struct kcsan_ctx *ctx, uintptr_t ip, int type)
{
	return !ctx->focus_state && !(ctx->reorder.size && ctx->reorder.static_barriers) &&
	       !kcsan_focus_code_at(ip, type);
}

unsigned int kcsan_focus_before(struct kcsan_ctx *ctx, int type, uintptr_t ip);
void kcsan_focus_after(struct kcsan_ctx *ctx, unsigned int flags, int type);
int kcsan_focus_take(struct kcsan_ctx *ctx, int is_reorder);
void kcsan_focus_barriers(struct kcsan_ctx *ctx, uintptr_t ip);
/* 1 when the function of the access at return address ip may hold a static
 * barrier: a delayed access made elsewhere never meets one, and the
 * accesses after it stay on the fast path. */
int kcsan_focus_has_barrier(uintptr_t ip);

#endif /* KCSAN_FOCUS_H */
