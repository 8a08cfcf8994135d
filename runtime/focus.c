/*
 * focus.c — watching the static candidates far more often than the rest
 * (SPEC §1: the runtime "focuses its watching on the candidates that the
 * static pass found"), and applying the barriers only the static pass sees.
 *
 * kcsan_focus_init() (from kcsan_init, before the runtime enables itself)
 * reads the sites from $KCSAN_DB (focus_db.c) and maps them to code
 * addresses (focus_map.c).  Any failure, or no candidate, leaves
 * kcsan_focus_active at 0: the runtime then only samples, as with focus=0;
 * verbose=1 says why.  The table is immutable afterwards (no lock; a
 * fork()ed child inherits it; a signal handler may read it).
 *
 * Per access, with focus active (kcsan_check_access in core.c):
 *   before the check  static barriers between the thread's delayed access
 *                     and this one end it (kcsan_focus_barriers); the
 *                     access's own return address is looked up;
 *   the check         a focused plain access (a candidate's code, of the
 *                     candidate's kind) takes a watchpoint at each of the
 *                     site's first focus_burst executions, then at every
 *                     focus_skip+1-th (focus_due); the ordinary skip counter
 *                     of the rest is left alone (kcsan_focus_take, from
 *                     core.c's should_watch);
 *   after the check   at the marked access a writer-side candidate pairs
 *                     with, with a focused delayed access in flight, the
 *                     next check of that delayed access (at the next
 *                     access or at the function's exit, i.e. right after
 *                     the marked store has happened: the hooks run before
 *                     their access) takes a watchpoint.  That is the moment
 *                     the racing reader, having seen the flag, reads the
 *                     data: KCSAN's "reordered" report.
 *
 * Static barriers by address: a hook only knows its own code address, and
 * an inline-asm barrier has none that reaches the runtime.  A barrier that
 * lies, in the code, between the delayed access and the current one of the
 * same function invocation (same depth; from a callee, the call site in
 * that function stands for "now") ran in between: inside a basic block,
 * code order is program order, and an asm volatile with a "memory" clobber
 * is never moved across the hook calls.  When control went backwards (a
 * loop), a barrier of the same function after the delayed access or
 * before the current one is taken as run: ending a delayed access too
 * early can only hide a report, never make a false one.
 */
#include <stdio.h>
#include <stdlib.h>

#include "focus.h"

/* ctx->focus_state bits. */
#define FOCUS_NOW	0x1	/* the access being checked is a focused one */
#define FOCUS_RECHECK	0x2	/* watch the delayed access at its next check */

int kcsan_focus_active;
static struct kcsan_focus_table table;
static uintptr_t range_min, range_max;

static struct kcsan_focus_range *lookup_range(uintptr_t pc)
{
	size_t lo = 0, hi = table.nranges;

	if (pc < range_min || pc >= range_max)
		return NULL;
	/* The last range starting at or below pc. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (table.ranges[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && pc < table.ranges[lo - 1].hi)
		return &table.ranges[lo - 1];
	return NULL;
}

static unsigned int lookup(uintptr_t pc)
{
	const struct kcsan_focus_range *r = lookup_range(pc);

	return r ? r->flags : 0;
}

static void say_off(const char *why)
{
	if (kcsan_opts.verbose)
		dprintf(kcsan_opts.log_fd, "kcsan: focus: off (%s): sampling only\n", why);
}

void kcsan_focus_init(void)
{
	const char *db = getenv("KCSAN_DB");
	struct kcsan_focus_sites sites;
	char why[600];
	size_t i, cands = 0, marked = 0;

	if (!kcsan_opts.focus)
		return say_off("focus=0");
	if (!db || !*db)
		return say_off("no KCSAN_DB");
	if (kcsan_focus_read_db(db, &sites, why, sizeof(why)))
		return say_off(why);
	if (!sites.n) {
		kcsan_focus_free_sites(&sites);
		return say_off("no candidates in the database");
	}
	if (kcsan_focus_map(&sites, &table, why, sizeof(why))) {
		kcsan_focus_free_sites(&sites);
		return say_off(why);
	}
	for (i = 0; i < sites.n; i++) {
		if (!sites.v[i].matched)
			continue;
		if (sites.v[i].flags & (KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE))
			cands++;
		else if (sites.v[i].flags & KCSAN_FOCUS_MARKED)
			marked++;
	}
	kcsan_focus_free_sites(&sites);
	if (table.nranges) {
		range_min = table.ranges[0].lo;
		range_max = table.ranges[table.nranges - 1].hi;
	}
	if (kcsan_opts.verbose)
		dprintf(kcsan_opts.log_fd,
			"kcsan: focus: %zu candidates, %zu addresses, %zu marked sites, "
			"%zu static barriers\n",
			cands, table.nranges, marked, table.nbarriers);
	if (!table.nranges && !table.nbarriers)
		return say_off("no candidate in this executable");
	kcsan_focus_active = 1;
}

/* Apply one static barrier; 1 when the delayed access is gone. */
static int apply(struct kcsan_ctx *ctx, const struct kcsan_focus_barrier *b)
{
	kcsan_barrier(ctx, b->kind);
	return !ctx->reorder.size;
}

/* The first barrier at an address above pc. */
static size_t first_above(uintptr_t pc)
{
	size_t lo = 0, hi = table.nbarriers;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (table.barriers[mid].at <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How far from the two accesses a barrier of the same function is looked
 * for when control went backwards (bounds the work; functions are small). */
#define FOCUS_BACK_WINDOW	65536

void kcsan_focus_barriers(struct kcsan_ctx *ctx, uintptr_t ip)
{
	const struct kcsan_reorder *ra = &ctx->reorder;
	uintptr_t a, b;
	size_t i;

	if (!ra->size || !table.nbarriers || ctx->nested || ctx->depth < ra->depth)
		return;
	if (ctx->depth == ra->depth)
		b = ip - 1;
	else if (ra->depth >= 0 && ra->depth < KCSAN_STACK_MAX && ctx->stack[ra->depth])
		b = ctx->stack[ra->depth] - 1;	/* the call that led here */
	else
		return;
	a = ra->ip - 1;
	if (a < b) {
		for (i = first_above(a); i < table.nbarriers && table.barriers[i].at < b; i++)
			if (apply(ctx, &table.barriers[i]))
				return;
		return;
	}
	for (i = first_above(b > FOCUS_BACK_WINDOW ? b - FOCUS_BACK_WINDOW : 0);
	     i < table.nbarriers && table.barriers[i].at < a + FOCUS_BACK_WINDOW; i++) {
		const struct kcsan_focus_barrier *x = &table.barriers[i];

		if (x->func_lo <= b && a < x->func_hi && (x->at > a || x->at < b) &&
		    apply(ctx, x))
			return;
	}
}

/*
 * Whether this execution of a focused site takes a watchpoint: each of the
 * first focus_burst ones, then every (focus_skip+1)-th.  Watching a hot
 * site every time would not find more: each watch sleeps in its delay, and
 * a few threads watching the same page fill its three watchpoint slots
 * (core.c), so that the accesses that matter find no free slot.  The count
 * is per site, not per thread: a rare site is watched at its first
 * executions whichever thread makes them.
 */
static int focus_due(struct kcsan_focus_range *r)
{
	unsigned long n = __atomic_fetch_add(&r->hits, 1, __ATOMIC_RELAXED);

	if (n < (unsigned long)kcsan_opts.focus_burst)
		return 1;
	return (n - (unsigned long)kcsan_opts.focus_burst) %
	       ((unsigned long)kcsan_opts.focus_skip + 1) == 0;
}

unsigned int kcsan_focus_before(struct kcsan_ctx *ctx, int type, uintptr_t ip)
{
	struct kcsan_focus_range *r;
	unsigned int f;

	kcsan_focus_barriers(ctx, ip);
	r = lookup_range(ip - 1);
	if (!r)
		return 0;
	f = r->flags;
	if ((f & (KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE)) &&
	    !(type & (KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_ASSERT)) &&
	    (f & ((type & KCSAN_ACCESS_WRITE) ? KCSAN_FOCUS_WRITE : KCSAN_FOCUS_READ)) &&
	    focus_due(r))
		ctx->focus_state |= FOCUS_NOW;
	return f;
}

void kcsan_focus_after(struct kcsan_ctx *ctx, unsigned int flags, int type)
{
	/* A re-check armed earlier had its chance with this access. */
	ctx->focus_state = 0;
	/* Whatever watch made it the delayed access (focused or sampled):
	 * re-checking it after every paired marked access is what finds the
	 * writer-side race, and costs one delay per publication. */
	if ((flags & KCSAN_FOCUS_MARKED) && (type & KCSAN_ACCESS_ATOMIC) &&
	    ctx->reorder.size && !ctx->nested &&
	    (lookup(ctx->reorder.ip - 1) & (KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE)))
		ctx->focus_state = FOCUS_RECHECK;
}

int kcsan_focus_take(struct kcsan_ctx *ctx, int is_reorder)
{
	if (is_reorder) {
		if (!(ctx->focus_state & FOCUS_RECHECK))
			return 0;
		ctx->focus_state &= ~FOCUS_RECHECK;
		return 1;
	}
	if (!(ctx->focus_state & FOCUS_NOW))
		return 0;
	ctx->focus_state &= ~FOCUS_NOW;
	return 1;
}
