/*
 * focus.c — watching the static candidates far more often than the rest
 * (docs/design.md §1: the runtime watches the code of the scan's findings
 * far more often than the rest), and applying the barriers only the static
 * pass sees.
 *
 * The candidates are those of the scan's findings (focus_db.c says why
 * not the others).  kcsan_focus_init() (from kcsan_init, before the
 * runtime enables itself) reads the sites -- from the list `kcsan-scan run`
 * made of $KCSAN_DB's once for the run, else from $KCSAN_DB (focus_db.c)
 * -- and maps them to code addresses (focus_map.c).  Any failure, or no candidate, leaves
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
 *                     site's first focus_burst executions, then about once
 *                     per focus_pace (focus_due); the ordinary skip counter
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
 * The accesses focus has nothing to do with -- all of them outside focused
 * code, and a hot focused site's executions between two of its watches --
 * stay on the fast path (fastpath.h): a map of the code by 4-byte chunk
 * says where focused code is, and kcsan_focus_wants() (focus.h) tells a site's
 * execution that is not due from one that may be, without the slow path.
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
#include <time.h>

#include "focus.h"

/* ctx->focus_state bits. */
#define FOCUS_NOW	0x1	/* the access being checked is a focused one */
#define FOCUS_RECHECK	0x2	/* watch the delayed access at its next check */

int kcsan_focus_active;
struct kcsan_focus_code kcsan_focus_code;
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

/* Focused code spanning more than this is not mapped (the map takes as
 * many bytes as the span, and only its pages with focused code are ever
 * touched): focus is then off. */
#define FOCUS_MAP_MAX_SPAN	((uintptr_t)64 << 20)

/* The bitmaps of kcsan_focus_code, writable (set_aside clears bits). */
static uint64_t *bits_rw[KCSAN_FOCUS_MAPS];

/* kcsan_focus_code: each chunk of code that holds (part of) a range gets
 * that range's index + 1, or KCSAN_FOCUS_SEVERAL if it holds parts of two,
 * and its bit set in the map of each kind of access the range focuses on. */
static int build_code_map(void)
{
	struct kcsan_focus_code *c = &kcsan_focus_code;
	size_t i, m, nchunks;

	if (!table.nranges)
		return 0;
	if (range_max - range_min > FOCUS_MAP_MAX_SPAN)
		return -1;
	c->base = range_min & ~(uintptr_t)(KCSAN_FOCUS_CHUNK - 1);
	c->span = range_max - c->base;
	nchunks = c->span / KCSAN_FOCUS_CHUNK + 1;
	c->chunk = calloc(nchunks, sizeof(*c->chunk));
	for (m = 0; m < KCSAN_FOCUS_MAPS; m++)
		bits_rw[m] = calloc(nchunks / 64 + 1, sizeof(*bits_rw[m]));
	if (!c->chunk || !bits_rw[0] || !bits_rw[1] || !bits_rw[2]) {
		free(c->chunk);
		for (m = 0; m < KCSAN_FOCUS_MAPS; m++) {
			free(bits_rw[m]);
			bits_rw[m] = NULL;
		}
		c->chunk = NULL;
		c->span = 0;
		return -1;
	}
	for (i = 0; i < table.nranges; i++) {
		const unsigned int f = table.ranges[i].flags;
		uintptr_t k = (table.ranges[i].lo - c->base) / KCSAN_FOCUS_CHUNK;
		uintptr_t last = (table.ranges[i].hi - 1 - c->base) / KCSAN_FOCUS_CHUNK;

		for (; k <= last; k++) {
			const uint64_t bit = (uint64_t)1 << (k % 64);

			c->chunk[k] = c->chunk[k] ? KCSAN_FOCUS_SEVERAL : (uint32_t)(i + 1);
			if (f & KCSAN_FOCUS_READ)
				bits_rw[KCSAN_FOCUS_MAP_READ][k / 64] |= bit;
			if (f & KCSAN_FOCUS_WRITE)
				bits_rw[KCSAN_FOCUS_MAP_WRITE][k / 64] |= bit;
			if (f & KCSAN_FOCUS_MARKED)
				bits_rw[KCSAN_FOCUS_MAP_MARKED][k / 64] |= bit;
		}
	}
	for (m = 0; m < KCSAN_FOCUS_MAPS; m++)
		c->bits[m] = bits_rw[m];
	return 0;
}

/*
 * Pacing.  Past its burst, a site is watched about once per focus_pace, on
 * the cheapest clock there is (the coarse monotonic clock: a few ns, one
 * tick of 1-4 ms).  A watch costs
 * its thread a delay window (udelay), and the re-check after the paired
 * marked access another: at most (2 * udelay) / focus_pace of a thread per
 * hot site, however hot -- while a site that runs now and then is watched
 * at every execution, which is where focus finds what sampling cannot.
 * Per site only: a read-heavy program runs dozens of hot sites at once, so
 * every window also comes out of the delay budget (delay.c), and a watch
 * due when the budget is spent is not taken (its site waits for its next
 * pace).
 */
static clockid_t pace_clock = CLOCK_MONOTONIC;
static uint64_t pace_ns;	/* focus_pace, at least one tick of pace_clock */
static uint64_t focus_start_ns;	/* on pace_clock, for kcsan_focus_summary */

static void init_pace(void)
{
	struct timespec res;
	uint64_t tick = 1;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 && !res.tv_sec &&
	    res.tv_nsec <= 10000000) {
		pace_clock = CLOCK_MONOTONIC_COARSE;
		tick = (uint64_t)res.tv_nsec;
	}
	pace_ns = (uint64_t)kcsan_opts.focus_pace * 1000u;
	if (pace_ns < tick)
		pace_ns = tick;
}

static uint64_t pace_now(void)
{
	struct timespec ts;

	clock_gettime(pace_clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void kcsan_focus_init(void)
{
	const char *db = getenv(KCSAN_ENV_DB);
	struct kcsan_focus_sites sites;
	char why[600];
	size_t i, cands = 0, marked = 0;
	int from_list;
	struct timespec t0, t1, t2;

	if (!kcsan_opts.focus)
		return say_off("focus=0");
	if (!db || !*db)
		return say_off("no KCSAN_DB");
	/* Start-up is paid by every process of a run (a test suite's short
	 * programs: most of their run), so verbose=1 says what it cost. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (kcsan_focus_read_db(db, getenv(KCSAN_ENV_FOCUS_SITES), &sites, &from_list, why,
				sizeof(why)))
		return say_off(why);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!sites.n) {
		kcsan_focus_free_sites(&sites);
		return say_off("no candidates in the database");
	}
	if (kcsan_focus_map(&sites, &table, why, sizeof(why))) {
		kcsan_focus_free_sites(&sites);
		return say_off(why);
	}
	clock_gettime(CLOCK_MONOTONIC, &t2);
	if (kcsan_opts.verbose)
		dprintf(kcsan_opts.log_fd,
			"kcsan: focus: start-up %ld us: %zu sites read from %s in %ld us, "
			"mapped to code in %ld us (%zu units read, %zu of the runtime's skipped)\n",
			(long)((t2.tv_sec - t0.tv_sec) * 1000000 + (t2.tv_nsec - t0.tv_nsec) / 1000),
			sites.n, from_list ? "the run's list" : "the database",
			(long)((t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000),
			(long)((t2.tv_sec - t1.tv_sec) * 1000000 + (t2.tv_nsec - t1.tv_nsec) / 1000),
			table.units_read, table.units_skipped);
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
	if (build_code_map())
		return say_off("focused code spans too much of the executable to map");
	init_pace();
	focus_start_ns = pace_now();
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

/*
 * Every barrier kcsan_focus_barriers applies lies in the delayed access's
 * own function: between it and the current access of the same invocation
 * (or the call that led to it), or, when control went backwards, inside
 * that function's extent.  A delayed access made in a function without
 * one can never be ended by a static barrier, and the accesses that follow
 * it need not leave the fast path to look: in a read-heavy program (liburcu's
 * test_urcu, built as shared libraries: 4 static barriers and no
 * candidate in the executable) every access of a thread with a delayed
 * access in flight took the slow path, and focus ran 1.4x slower than
 * --no-focus.  A barrier whose function's extent is unknown may be anywhere.
 */
int kcsan_focus_has_barrier(uintptr_t ip)
{
	const uintptr_t pc = ip - 1;
	size_t i;

	for (i = 0; i < table.nbarriers; i++) {
		const struct kcsan_focus_barrier *x = &table.barriers[i];

		if ((!x->func_lo && !x->func_hi) || (x->func_lo <= pc && pc < x->func_hi))
			return 1;
	}
	return 0;
}

void kcsan_focus_barriers(struct kcsan_ctx *ctx, uintptr_t ip)
{
	const struct kcsan_reorder *ra = &ctx->reorder;
	uintptr_t a, b;
	size_t i;

	if (!ra->size || !ra->static_barriers || ctx->nested || ctx->depth < ra->depth)
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

/* A busy site's watch falls on one of about this many executions after
 * its pace, chosen at random: the first execution past a clock tick is
 * most often the same one of a loop (its first, after a thread start). */
#define FOCUS_SPREAD	16

/*
 * Whether this execution of a focused site takes a watchpoint: each of the
 * site's first focus_burst executions (whichever threads make them), then
 * one per focus_pace.  Watching a hot site every time would not find more:
 * each watch sleeps in its delay, and a few threads watching the same page
 * fill its three watchpoint slots (core.c), so that the accesses that
 * matter find no free slot.  The shared fields are only written at a
 * watch, while counting the burst, and once per clock tick (seen_ns): a hot
 * site's fields do not bounce between CPUs at every execution.
 */
static unsigned long taken_in_burst, taken_paced;	/* for verbose=1 */

/* Is r still in its burst (its first focus_burst executions)? */
static int in_burst(const struct kcsan_focus_range *r)
{
	return __atomic_load_n(&r->hits, __ATOMIC_RELAXED) < (unsigned long)kcsan_opts.focus_burst;
}

static int focus_due(struct kcsan_ctx *ctx, struct kcsan_focus_range *r)
{
	uint64_t now, next, seen;

	if (in_burst(r) &&
	    __atomic_fetch_add(&r->hits, 1, __ATOMIC_RELAXED) < (unsigned long)kcsan_opts.focus_burst) {
		__atomic_fetch_add(&taken_in_burst, 1, __ATOMIC_RELAXED);
		return 1;
	}
	now = pace_now();
	seen = __atomic_load_n(&r->seen_ns, __ATOMIC_RELAXED);
	if (seen != now)
		__atomic_store_n(&r->seen_ns, now, __ATOMIC_RELAXED);
	next = __atomic_load_n(&r->next_ns, __ATOMIC_RELAXED);
	if (now < next)
		return 0;
	/* A site also run within the last pace is busy: spread its watch. */
	if (seen + pace_ns >= now && kcsan_rand(ctx) % FOCUS_SPREAD)
		return 0;
	if (!__atomic_compare_exchange_n(&r->next_ns, &next, now + pace_ns, 0,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return 0;
	__atomic_fetch_add(&taken_paced, 1, __ATOMIC_RELAXED);
	return 1;
}

/*
 * Setting a hot site aside.  Past its burst a hot site is due once per
 * pace, and in between, its executions -- millions a second in a
 * program's inner loop -- only learn that they are not due.  Each learnt
 * it out of line: the call, the range, the clock (CK's ck_hp_fifo: 2.6
 * million such executions, a third of what focus added to its 0.1 s).
 * So a site found not due -- one executed again within a pace of its
 * last watch: busy -- has its bits cleared in the plain maps until its
 * pace is over, and its executions stay on the inline fast path like
 * code of no candidate.  The bits come back at the first slow path of any
 * thread past the site's next_ns (kcsan_focus_before; a running thread
 * takes the slow path at least once per skip_watch plain accesses, for
 * sampling), or at a focused access that looks at the clock anyway; a hot
 * site is then due, as before, and its watch spread over its next
 * executions.
 *
 * What it costs: a site that was busy and then runs once more, after its
 * pace, before any thread has taken the slow path since, is not watched
 * that time.  A site run now and then is never set aside (it is due at
 * each execution), nor a marked site (whether it is wanted depends on the
 * thread's delayed access, not on the time), nor a chunk shared with
 * another range (the other may be due).
 *
 * No lock (a fork() may stop a thread anywhere): a range's aside flag
 * says who clears its bits and who restores them, and a site set aside
 * while its bits were being restored puts them back itself.
 */
static struct {
	uint64_t until;		/* the earliest next_ns of a site set aside */
} aside __attribute__((aligned(64))) = { UINT64_MAX };
static unsigned long set_asides;	/* for verbose=1 */

/* Sets (on) or clears r's bits in its plain maps, in the chunks it has
 * to itself. */
static void range_bits(const struct kcsan_focus_range *r, int on)
{
	const struct kcsan_focus_code *c = &kcsan_focus_code;
	const uint32_t e = (uint32_t)(r - table.ranges) + 1;
	uintptr_t k = (r->lo - c->base) / KCSAN_FOCUS_CHUNK;
	const uintptr_t last = (r->hi - 1 - c->base) / KCSAN_FOCUS_CHUNK;

	for (; k <= last; k++) {
		const uint64_t bit = (uint64_t)1 << (k % 64);

		if (c->chunk[k] != e)
			continue;
		for (int m = KCSAN_FOCUS_MAP_READ; m <= KCSAN_FOCUS_MAP_WRITE; m++) {
			if (!(r->flags & (m == KCSAN_FOCUS_MAP_READ ? KCSAN_FOCUS_READ : KCSAN_FOCUS_WRITE)))
				continue;
			if (on)
				__atomic_fetch_or(&bits_rw[m][k / 64], bit, __ATOMIC_SEQ_CST);
			else
				__atomic_fetch_and(&bits_rw[m][k / 64], ~bit, __ATOMIC_SEQ_CST);
		}
	}
}

/* aside.until = min(aside.until, t). */
static void aside_until_min(uint64_t t)
{
	uint64_t cur = __atomic_load_n(&aside.until, __ATOMIC_SEQ_CST);

	while (t < cur && !__atomic_compare_exchange_n(&aside.until, &cur, t, 1, __ATOMIC_SEQ_CST,
						       __ATOMIC_SEQ_CST))
		;
}

/* r, not due before next, is set aside (unless it is already). */
static void set_aside(struct kcsan_focus_range *r, uint64_t next)
{
	int no = 0;

	if ((r->flags & KCSAN_FOCUS_MARKED) ||
	    !__atomic_compare_exchange_n(&r->aside, &no, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	aside_until_min(next);
	range_bits(r, 0);
	/* Restored meanwhile (restore_due saw its pace over): bits back. */
	if (!__atomic_load_n(&r->aside, __ATOMIC_SEQ_CST))
		range_bits(r, 1);
	__atomic_fetch_add(&set_asides, 1, __ATOMIC_RELAXED);
}

/* At time now: puts back the sites whose pace is over.  One thread
 * walks the ranges, the one that takes aside.until; the sites it finds
 * still not due give it back their next_ns. */
static void restore_due(uint64_t now)
{
	uint64_t at = __atomic_load_n(&aside.until, __ATOMIC_SEQ_CST), later = UINT64_MAX;
	size_t i;

	if (now < at || !__atomic_compare_exchange_n(&aside.until, &at, UINT64_MAX, 0,
						     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	for (i = 0; i < table.nranges; i++) {
		struct kcsan_focus_range *r = &table.ranges[i];
		uint64_t next;

		if (!__atomic_load_n(&r->aside, __ATOMIC_SEQ_CST))
			continue;
		next = __atomic_load_n(&r->next_ns, __ATOMIC_RELAXED);
		if (next <= now) {
			__atomic_store_n(&r->aside, 0, __ATOMIC_SEQ_CST);
			range_bits(r, 1);
		} else if (next < later) {
			later = next;
		}
	}
	if (later != UINT64_MAX)
		aside_until_min(later);
}

/*
 * verbose=1, at exit: how many executions of focused sites were taken for
 * a watchpoint, in their bursts and paced, over how long.  The paced count
 * can never exceed, per address range, one per pace of the time focus was
 * active (and one more), nor the burst count focus_burst per range: tests
 * check both bounds.
 */
void kcsan_focus_summary(void)
{
	if (!kcsan_focus_active || !kcsan_opts.verbose)
		return;
	dprintf(kcsan_opts.log_fd,
		"kcsan: focus: %lu taken in bursts, %lu paced, %zu addresses, "
		"%llu ms active, pace %llu us\n",
		__atomic_load_n(&taken_in_burst, __ATOMIC_RELAXED),
		__atomic_load_n(&taken_paced, __ATOMIC_RELAXED), table.nranges,
		(unsigned long long)((pace_now() - focus_start_ns) / 1000000),
		(unsigned long long)(pace_ns / 1000));
	dprintf(kcsan_opts.log_fd, "kcsan: focus: hot sites set aside until due %lu times\n",
		__atomic_load_n(&set_asides, __ATOMIC_RELAXED));
}


/* Is an access of this type (KCSAN_ACCESS_*) of the kind a range with
 * these flags focuses on: a plain read, or a plain write? */
static int kind_matches(unsigned int flags, int type)
{
	return (flags & (KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE)) &&
	       !(type & (KCSAN_ACCESS_ATOMIC | KCSAN_ACCESS_ASSERT)) &&
	       (flags & ((type & KCSAN_ACCESS_WRITE) ? KCSAN_FOCUS_WRITE : KCSAN_FOCUS_READ));
}

int kcsan_focus_wants_range(struct kcsan_ctx *ctx, uintptr_t pc, uint32_t e, int type)
{
	struct kcsan_focus_range *r;
	uint64_t now, next;

	/* (Ranges are disjoint: two in one chunk are told apart by address.) */
	r = e == KCSAN_FOCUS_SEVERAL ? lookup_range(pc) : &table.ranges[e - 1];
	if (!r || pc < r->lo || pc >= r->hi)
		return 0;
	if ((r->flags & KCSAN_FOCUS_MARKED) && (type & KCSAN_ACCESS_ATOMIC) &&
	    ctx->reorder.size && !ctx->reorder.focus_rechecked)
		return 1;
	if (!kind_matches(r->flags, type))
		return 0;
	if (in_burst(r))
		return 1;
	/* The clock at every execution that gets here (a few ns): a thread's
	 * copy of it, reused for a while, made a site that a long-lived
	 * thread runs now and then look not due for the length of that
	 * while.  Not due: executed again within a pace of its watch, it is
	 * set aside until due. */
	now = pace_now();
	if (now >= __atomic_load_n(&aside.until, __ATOMIC_RELAXED))
		restore_due(now);
	next = __atomic_load_n(&r->next_ns, __ATOMIC_RELAXED);
	if (now >= next)
		return 1;
	set_aside(r, next);
	return 0;
}

unsigned int kcsan_focus_before(struct kcsan_ctx *ctx, int type, uintptr_t ip)
{
	struct kcsan_focus_range *r;
	unsigned int f;

	if (__atomic_load_n(&aside.until, __ATOMIC_RELAXED) != UINT64_MAX)
		restore_due(pace_now());
	kcsan_focus_barriers(ctx, ip);
	r = lookup_range(ip - 1);
	if (!r)
		return 0;
	f = r->flags;
	if (kind_matches(f, type) && focus_due(ctx, r))
		ctx->focus_state |= FOCUS_NOW;
	return f;
}

void kcsan_focus_after(struct kcsan_ctx *ctx, unsigned int flags, int type)
{
	/* A re-check armed earlier had its chance with this access. */
	ctx->focus_state = 0;
	/* Whatever watch made it the delayed access (focused or sampled):
	 * re-checking it after the paired marked access is what finds the
	 * writer-side race.  Once per delayed access: in a loop, the same
	 * delayed access re-checked after each later marked access would cost
	 * a delay window per iteration and watch the same memory again. */
	if ((flags & KCSAN_FOCUS_MARKED) && (type & KCSAN_ACCESS_ATOMIC) &&
	    ctx->reorder.size && !ctx->reorder.focus_rechecked && !ctx->nested &&
	    (lookup(ctx->reorder.ip - 1) & (KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE))) {
		ctx->reorder.focus_rechecked = 1;
		ctx->focus_state = FOCUS_RECHECK;
	}
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
