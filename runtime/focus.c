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
 *                     site's first focus_burst executions, then at about
 *                     one in focus_skip+1, within the delay budget
 *                     (site_due); the ordinary skip counter of the rest is
 *                     left alone (kcsan_focus_take, from core.c's
 *                     should_watch);
 *   after the check   at the marked access a writer-side candidate pairs
 *                     with, with a focused delayed access in flight, the
 *                     next check of that delayed access (at the next
 *                     access or at the function's exit, i.e. right after
 *                     the marked store has happened: the hooks run before
 *                     their access) takes a watchpoint -- again at the
 *                     marked site's first focus_burst times, then at about
 *                     one in focus_skip+1.  That is the moment the racing
 *                     reader, having seen the flag, reads the data:
 *                     KCSAN's "reordered" report.
 *
 * Every access goes through these hooks unless kcsan_focus_idle (focus.h)
 * shows that they have nothing to do: the code map (which code holds
 * sites) and the hot set (the addresses of accesses in sites past their
 * burst) let the accesses outside the sites, and most of those in hot
 * sites, keep core.c's fast path.  Without them every access paid for the
 * hooks and the full check, which made the loops of bench/runtime/ up to
 * twice as slow as without focus, on top of the delays.
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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "focus.h"

/* ctx->focus_state bits. */
#define FOCUS_NOW	0x1	/* the access being checked is a focused one */
#define FOCUS_RECHECK	0x2	/* watch the delayed access at its next check */
#define FOCUS_NOW_PACED	0x4	/* ... past the site's burst: within the budget */
#define FOCUS_RECHECK_PACED 0x8	/* (the same for the re-check) */
#define FOCUS_DUE	0x10	/* between the hooks: this access's site is due */
#define FOCUS_DUE_PACED	0x20	/* ... past its burst */

int kcsan_focus_active;
uint16_t kcsan_focus_code_map[KCSAN_FOCUS_MAP_SIZE];
uintptr_t kcsan_focus_hot[KCSAN_FOCUS_HOT_SIZE];
int kcsan_focus_any_barrier;
static struct kcsan_focus_table table;
static uintptr_t range_min, range_max;

/* The range holding pc by binary search (ranges sorted, disjoint). */
static struct kcsan_focus_range *search_range(uintptr_t pc)
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

/* How many ranges from the code map's entry on are tried before the binary
 * search: a 16-byte chunk rarely holds more than two rows of a line table. */
#define FOCUS_MAP_SCAN	4

/* The range holding code address pc, or NULL: through the code map. */
static struct kcsan_focus_range *lookup_range(uintptr_t pc)
{
	const unsigned int e = kcsan_focus_code_map[(pc >> KCSAN_FOCUS_MAP_SHIFT) &
						    (KCSAN_FOCUS_MAP_SIZE - 1)];
	size_t i;

	if (!e)
		return NULL;
	if (e == KCSAN_FOCUS_MAP_ALIAS)
		return search_range(pc);
	/* The chunk's first range and the next ones, in address order (an
	 * entry set for another chunk 1 MiB away ends in the search). */
	for (i = e - 1; i < table.nranges && i < e - 1 + FOCUS_MAP_SCAN; i++) {
		if (table.ranges[i].lo > pc)
			return NULL;
		if (pc < table.ranges[i].hi)
			return &table.ranges[i];
	}
	return i < table.nranges ? search_range(pc) : NULL;
}

/* Enter pc in the hot set (focus.h); site: it is a site's code. */
static void remember(uintptr_t pc, int site)
{
	uintptr_t *slot = kcsan_focus_hot_slot(pc);
	const uintptr_t v = pc << 1 | (uintptr_t)site;

	if (__atomic_load_n(slot, __ATOMIC_RELAXED) != v)
		__atomic_store_n(slot, v, __ATOMIC_RELAXED);
}

static unsigned int lookup(uintptr_t pc)
{
	const struct kcsan_focus_range *r = lookup_range(pc);

	return r ? r->flags : 0;
}

/*
 * Fill the code map (focus.h).  The ranges come in address order, so that
 * the first one to touch a chunk is the chunk's first.  owner[e] is 1 + the
 * chunk that set entry e; another chunk with the same entry makes it
 * ambiguous.  Out of memory, or a range of 1 MiB or more: every entry
 * ambiguous (each access then goes through the binary search).
 */
static void fill_code_map(void)
{
	uintptr_t *owner = calloc(KCSAN_FOCUS_MAP_SIZE, sizeof(*owner));
	size_t i, e;

	for (i = 0; owner && i < table.nranges; i++) {
		uintptr_t lo = table.ranges[i].lo >> KCSAN_FOCUS_MAP_SHIFT;
		uintptr_t hi = (table.ranges[i].hi - 1) >> KCSAN_FOCUS_MAP_SHIFT;
		uintptr_t c;

		if (table.ranges[i].hi <= table.ranges[i].lo)
			continue;
		if (hi - lo >= KCSAN_FOCUS_MAP_SIZE)
			break;
		for (c = lo; c <= hi; c++) {
			e = c & (KCSAN_FOCUS_MAP_SIZE - 1);
			if (!owner[e]) {
				owner[e] = c + 1;
				kcsan_focus_code_map[e] = i + 1 < KCSAN_FOCUS_MAP_ALIAS ?
					(uint16_t)(i + 1) : KCSAN_FOCUS_MAP_ALIAS;
			} else if (owner[e] != c + 1) {
				kcsan_focus_code_map[e] = KCSAN_FOCUS_MAP_ALIAS;
			}
		}
	}
	if (!owner || i < table.nranges)
		for (e = 0; e < KCSAN_FOCUS_MAP_SIZE; e++)
			kcsan_focus_code_map[e] = KCSAN_FOCUS_MAP_ALIAS;
	free(owner);
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
	fill_code_map();
	kcsan_focus_any_barrier = table.nbarriers != 0;
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
 * Which executions of a site (its code: a focused access, or the marked
 * access that arms the re-check) are due for a watchpoint, and of which
 * kind:
 *
 * burst  each of the first focus_burst accesses made by the site's code.
 *     The count is per site, not per thread: a rare site is watched at its
 *     first executions whichever thread makes them; these watchpoints are
 *     never held back (code that runs a few times per round, once per
 *     thread, is where focus finds what sampling cannot).
 * paced  past the burst, about one in focus_skip+1 of the thread's accesses
 *     in such code (a randomised per-thread countdown: a fixed period would
 *     pick the same site of a loop every time; it runs in kcsan_focus_idle,
 *     and expires here), and only within the thread's delay budget (core.c,
 *     max_delay_pct), like ordinary sampling.  A site past its burst is hot:
 *     watching it every time would not find more (each watch sleeps in its
 *     delay, and threads watching the same page fill its three watchpoint
 *     slots, core.c), and in a tight loop it made the program hundreds of
 *     times slower than without focus.  The countdown restarts whether or
 *     not the access at its end can use it, so that its cost stays bounded.
 *
 * The site's count is read before it is incremented: past the burst it is
 * no longer written, so that threads running a hot site do not bounce its
 * cache line between CPUs at every access.
 */
static inline unsigned int site_due(struct kcsan_ctx *ctx, struct kcsan_focus_range *r)
{
	const unsigned long burst = (unsigned long)kcsan_opts.focus_burst;
	const unsigned long skip = (unsigned long)kcsan_opts.focus_skip;
	unsigned long n;

	if (__atomic_load_n(&r->hits, __ATOMIC_RELAXED) < burst &&
	    __atomic_fetch_add(&r->hits, 1, __ATOMIC_RELAXED) < burst)
		return FOCUS_DUE;
	if (ctx->focus_skip > 0) {
		ctx->focus_skip--;
		return 0;
	}
	/* Uniform in [skip/2, skip/2 + skip]: on average skip (times the
	 * backoff). */
	n = skip / 2 + kcsan_rand(ctx) % (skip + 1);
	ctx->focus_skip = n > (unsigned long)LONG_MAX >> ctx->focus_backoff ? LONG_MAX :
			  (long)(n << ctx->focus_backoff);
	return FOCUS_DUE | FOCUS_DUE_PACED;
}

/*
 * A paced watchpoint held back by the delay budget means that the thread
 * spends its budget already (hot code): trying again at the same pace would
 * only cost a look at the clock each time, so the countdown doubles, up to
 * 2^FOCUS_BACKOFF_MAX times focus_skip (about skip_watch), until a paced
 * watchpoint is set up again.
 */
#define FOCUS_BACKOFF_MAX	6

void kcsan_focus_paced(struct kcsan_ctx *ctx, int watched)
{
	if (watched) {
		ctx->focus_backoff = 0;
	} else if (ctx->focus_backoff < FOCUS_BACKOFF_MAX) {
		ctx->focus_backoff++;
		/* (restarted at the old pace before the budget said no) */
		if (ctx->focus_skip <= LONG_MAX / 2)
			ctx->focus_skip *= 2;
	}
}

/* The ctx->focus_state bits that arm `bit` (paced: `paced`) for a due site. */
static inline unsigned int arm(unsigned int due, unsigned int bit, unsigned int paced)
{
	if (!(due & FOCUS_DUE))
		return 0;
	return (due & FOCUS_DUE_PACED) ? bit | paced : bit;
}

struct kcsan_focus_range *kcsan_focus_before(struct kcsan_ctx *ctx, int type, uintptr_t ip)
{
	struct kcsan_focus_range *r;
	unsigned int f, due;

	if (kcsan_focus_any_barrier)
		kcsan_focus_barriers(ctx, ip);
	r = lookup_range(ip - 1);
	if (!r) {
		remember(ip - 1, 0);
		return NULL;
	}
	f = r->flags;
	due = site_due(ctx, r);
	if (!(due & FOCUS_DUE) || (due & FOCUS_DUE_PACED))
		remember(ip - 1, 1);	/* past the burst */
	ctx->focus_state |= due;	/* (for kcsan_focus_after) */
	if ((f & (KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE)) &&
	    !(type & (KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_ASSERT)) &&
	    (f & ((type & KCSAN_ACCESS_WRITE) ? KCSAN_FOCUS_WRITE : KCSAN_FOCUS_READ)))
		ctx->focus_state |= arm(due, FOCUS_NOW, FOCUS_NOW_PACED);
	return r;
}

void kcsan_focus_after(struct kcsan_ctx *ctx, struct kcsan_focus_range *r, int type)
{
	const unsigned int due = ctx->focus_state & (FOCUS_DUE | FOCUS_DUE_PACED);

	/* A re-check armed earlier had its chance with this access. */
	ctx->focus_state = 0;
	/* Whatever watch made it the delayed access (focused or sampled):
	 * re-checking it after the paired marked access is what finds the
	 * writer-side race.  Each costs a delay: paced past the marked
	 * site's burst, like the focused accesses. */
	if (r && (r->flags & KCSAN_FOCUS_MARKED) && (type & KCSAN_ACCESS_ATOMIC) &&
	    ctx->reorder.size && !ctx->nested &&
	    (lookup(ctx->reorder.ip - 1) & (KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE)))
		ctx->focus_state = arm(due, FOCUS_RECHECK, FOCUS_RECHECK_PACED);
}

int kcsan_focus_take(struct kcsan_ctx *ctx, int is_reorder)
{
	const unsigned int bit = is_reorder ? FOCUS_RECHECK : FOCUS_NOW;
	const unsigned int paced = is_reorder ? FOCUS_RECHECK_PACED : FOCUS_NOW_PACED;
	const unsigned int st = ctx->focus_state;

	if (!(st & bit))
		return 0;
	ctx->focus_state = st & ~(bit | paced);
	return (st & paced) ? KCSAN_FOCUS_PACED : KCSAN_FOCUS_BURST;
}
