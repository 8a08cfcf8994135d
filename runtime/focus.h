/*
 * focus.h — internal interface of the runtime's "focus" on the static
 * candidates (focus.c, focus_db.c, focus_map.c).
 *
 * At start-up the candidates that `kcsan-scan scan` stored in $KCSAN_DB are
 * read as source sites (file, line, what kind of access), then mapped to the
 * executable's code addresses through its DWARF line table.  The result is
 * an immutable table consulted by the __tsan_* hooks: a focused plain access
 * is watched at its first executions (then every focus_skip+1-th) instead of every
 * ~skip_watch-th, and barriers that only the static pass sees (inline
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
 * hits changes after start-up. */
struct kcsan_focus_range {
	uintptr_t lo, hi;
	unsigned int flags;
	unsigned long hits;	/* executions so far (relaxed atomic) */
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
};

/* focus_db.c: reads the candidate and barrier sites of the database at
 * path.  0 on success (possibly with no site); -1 with *why filled. */
int kcsan_focus_read_db(const char *path, struct kcsan_focus_sites *out,
			char *why, size_t whylen);
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
/* Returns the focused range of the access's code (NULL: none), for
 * kcsan_focus_after. */
struct kcsan_focus_range *kcsan_focus_before(struct kcsan_ctx *ctx, int type, uintptr_t ip);
void kcsan_focus_after(struct kcsan_ctx *ctx, struct kcsan_focus_range *r, int type);
/* Whether the access being checked (is_reorder: the re-check of the delayed
 * one) takes a focused watchpoint, and which kind: */
#define KCSAN_FOCUS_BURST	1	/* among a site's first executions: always */
#define KCSAN_FOCUS_PACED	2	/* later: within the thread's delay budget */
int kcsan_focus_take(struct kcsan_ctx *ctx, int is_reorder);
/* A paced watchpoint was set up (watched 1) or held back by the delay
 * budget (0). */
void kcsan_focus_paced(struct kcsan_ctx *ctx, int watched);
void kcsan_focus_barriers(struct kcsan_ctx *ctx, uintptr_t ip);

/*
 * In front of all that, two filters that core.c's fast path reads inline.
 *
 * The code map: per 16-byte chunk of code (indexed by the address modulo
 * 1 MiB), 0 when no focused range touches the chunk, else 1 + the index of
 * the first range that does, or KCSAN_FOCUS_MAP_ALIAS when that is
 * ambiguous (two chunks 1 MiB apart both hold ranges).  A 0 proves that the
 * access is no focused or marked site; the index finds the site of the
 * others without a binary search (focus.c).  Filled at start-up.
 *
 * The hot set: the code addresses, seen by the full path, of accesses that
 * focus only counts (a site past its burst: value 2*pc+1) or ignores (code
 * in a mapped chunk but in no site: 2*pc), direct-mapped by a hash of pc.
 * An entry only ever names such an address (a site's count never goes
 * down), so that a match is proof; a miss (first time, or another address
 * took the slot) just means the full path once more.
 *
 * The few entries of either that a hot loop reads stay in cache.
 */
#define KCSAN_FOCUS_MAP_SHIFT	4
#define KCSAN_FOCUS_MAP_SIZE	(1u << 16)
#define KCSAN_FOCUS_MAP_ALIAS	0xffffu
#define KCSAN_FOCUS_HOT_SIZE	4096u
extern uint16_t kcsan_focus_code_map[KCSAN_FOCUS_MAP_SIZE];
extern uintptr_t kcsan_focus_hot[KCSAN_FOCUS_HOT_SIZE];
extern int kcsan_focus_any_barrier;

static inline uintptr_t *kcsan_focus_hot_slot(uintptr_t pc)
{
	return &kcsan_focus_hot[(pc ^ (pc >> 12)) & (KCSAN_FOCUS_HOT_SIZE - 1)];
}

/*
 * 1 when focus has nothing to do at this access (return address ip), so
 * that it may take core.c's fast path as without focus: nothing is armed
 * (a focused watchpoint for it, the delayed access's re-check), no static
 * barrier is to be looked for between the delayed access and this one, and
 * the access is no site's code -- or the code of a site past its burst,
 * while the thread's countdown to its next paced watchpoint is still
 * running (focus.c: the countdown is decremented here; at 0 the full path
 * takes over).
 */
static inline int kcsan_focus_idle(struct kcsan_ctx *ctx, uintptr_t ip)
{
	const uintptr_t pc = ip - 1;
	uintptr_t h;

	if (ctx->focus_state || (ctx->reorder.size && kcsan_focus_any_barrier))
		return 0;
	if (!kcsan_focus_code_map[(pc >> KCSAN_FOCUS_MAP_SHIFT) & (KCSAN_FOCUS_MAP_SIZE - 1)])
		return 1;
	h = __atomic_load_n(kcsan_focus_hot_slot(pc), __ATOMIC_RELAXED);
	if (h >> 1 != pc)
		return 0;
	if (!(h & 1))
		return 1;	/* no site: nothing to count */
	if (ctx->focus_skip <= 0)
		return 0;
	ctx->focus_skip--;
	return 1;
}

#endif /* KCSAN_FOCUS_H */
