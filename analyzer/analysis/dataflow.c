/* analyzer/analysis/dataflow.c — ordering analysis (see dataflow.h).
 *
 * Per function, a forward dataflow over the CFG keeps:
 *   pend_plain  plain accesses not yet ordered by a barrier (may: union);
 *               a marked write or RMW reached with one pending is a
 *               writer-side candidate (docs/design.md §5: the access may become
 *               visible after the flag);
 *   pend_reads  marked reads not yet ordered before later reads; a plain
 *               read reached with one pending, whose address does not
 *               depend on it, is a reader-side candidate;
 *   seen_*      every plain access / marked read so far, ordered or not,
 *               for pairing (who publishes D through F, who reads F then D);
 *   killed      what has been ordered on every path since entry (must:
 *               intersection), which becomes the function's summary;
 *   locks       locks held on every path (must), for the lockset rule;
 *   threads     whether other threads run: none yet (the entry of main()),
 *               running (after pthread_create), or joined (after
 *               pthread_join); a state is "quiet" when none runs;
 *   calm        no thread was ever created, on every path (main() and
 *               constructors until their first thread creation): plain
 *               accesses made then are initialisation, never pending.
 * Thread creation is pthread_create or a call of a function that creates
 * threads (create_thread(fn, arg) wrappers, see count_instances).
 * A call applies the callee's summary: its exposed marked writes and plain
 * reads are checked against the caller's pending sets, then its orderings
 * and its own pending accesses flow into the caller.  Summaries are
 * iterated over the whole tree until they stop changing.
 */
#define _GNU_SOURCE   /* qsort_r */
#include "dataflow.h"
#include "fresh.h"
#include "caps.h"
#include "guards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K_READ   (1u << ACC_READ)
#define K_WRITE  (1u << ACC_WRITE)
#define K_RMW    (1u << ACC_RMW)
#define K_ALL    (K_READ | K_WRITE | K_RMW)
#define K_READER (1u << 8)      /* orders earlier marked reads */

unsigned writer_kills(enum ord o)
{
	switch (o) {
	case ORD_FULL: case ORD_RELEASE: case ORD_ACQ_REL:
		return K_ALL;
	case ORD_WMB:
		return K_WRITE | K_RMW;
	case ORD_RMB:
		return K_READ | K_RMW;
	default:
		return 0;
	}
}

int reader_kills(enum ord o, int is_barrier)
{
	/* A full barrier or read barrier orders earlier reads before later
	 * ones; so does an acquire fence, but not an acquire load of some
	 * other variable (it orders only itself). */
	return o == ORD_FULL || o == ORD_RMB || (is_barrier && (o == ORD_ACQUIRE || o == ORD_ACQ_REL));
}

struct evset { struct event **v; int n, cap; };
struct fenced { struct event *plain, *fence; };
struct fset { struct fenced *v; int n, cap; };
struct strset { char **v; int n, cap; };     /* borrowed strings */

struct state {
	int reached;
	struct evset pend_plain, pend_reads, seen_plain, seen_reads;
	struct fset fenced;
	unsigned killed;
	struct strset locks;
	/* Other threads, by the last thread event on some path.  The merge
	 * takes the greatest: after a loop of pthread_create they run (the
	 * path that skips the loop does not count), and after a loop of
	 * pthread_join they are joined (likewise), even if the loop may run
	 * zero times. */
	enum { THREADS_NONE_YET, THREADS_RUNNING, THREADS_JOINED } threads;
	int calm;                 /* no thread was ever created (must): main()
				     or a constructor before its first
				     pthread_create, on every path */
	struct evset published;   /* marked writes with no marked read since */
	int mb_before_rmw;        /* smp_mb__before_atomic waits for an RMW (must) */
	int after_rmw;            /* the last marked access was an RMW (must) */
};

/* An exposed event of a callee, with what is ordered before it on every
 * path from the callee's entry. */
struct exposed { struct event *e; unsigned killed_before; };
struct xset { struct exposed *v; int n, cap; };

struct summary {
	unsigned must_kill;
	struct evset exit_plain, exit_reads, all_plain, all_reads, all_mwrites;
	struct xset entry_mwrites, entry_plain;
	int calls_create;
	int returns_value;        /* has a "return VALUE;" */
	struct evset waited;      /* all_reads that it waits for in a loop that
				     runs on every path */
	int returns_read;         /* returns a value computed from an exit read */
	int result_tells;         /* ... or a value chosen by testing one */
	/* A lock wrapper: the parameter whose lock it leaves held on every
	 * path (call_rcu_lock(&m)), or releases; -1 for none. */
	int lock_param, unlock_param;
	int noreturn;             /* no path reaches the exit (every one ends in
				     exit(), abort() or the like): a call of it
				     ends the caller's path too */
	unsigned version;         /* counts the replacements (see call_view) */
};

/* A callee's summary sets as one call sees them (see through_call), kept
 * from one transfer of the call to the next: a function's CFG is walked
 * until its states settle, and the fixpoint walks it again whenever a
 * callee changes, but the view changes only with the callee's summary.
 * set[k] points at the summary's own set when no event in it changes. */
enum { VIEW_EXIT_PLAIN, VIEW_EXIT_READS, VIEW_ALL_READS, VIEW_ALL_MWRITES, VIEW_ALL_PLAIN, NVIEWS };

struct call_view {
	const struct summary *of;
	unsigned version;
	const struct evset *set[NVIEWS];
	struct evset copy[NVIEWS];
	/* the exposed sets, mapped (events the call passes nothing for left
	 * out); always copies, in the summary's order */
	struct xset entry_mwrites, entry_plain;
};

/* Object keys to numbers (open addressing, grown at half load). */
struct intern {
	struct { const char *key; int oid; } *slots;
	int cap, used;
};

/* Events of a callee seen through one call, with the callee's pointer
 * parameters ("p:KEY:N") replaced by what the caller passed. */
struct clone_map {
	struct { unsigned long long key; struct event *clone; } *slots;
	int cap, used;
};

struct program {
	struct function *fns;
	int nfns;
	struct summary *sums;
	char **keys;              /* link keys sorted, with their index */
	int *key_fn;
	int *called;              /* called from somewhere in the tree */
	char *started;            /* started as a thread (find_starts) */
	unsigned char *creates, *joins;   /* calls pthread_create / _join itself */
	unsigned char *entry_calm;        /* called only before any thread exists */
	unsigned char *entry_quiet;       /* called only while no other thread runs */
	struct analysis *out;
	int emit;                 /* the final pass: record facts */
	struct intern objects;
	struct clone_map clones;
	struct call_view **views;     /* by call event gid, made on first use */
	int nviews;
	int next_gid;
	struct { int oid; const char *function; } *fnptrs;   /* stores of &function */
	int nfnptrs, fnptrcap;
};

/* Event sets (and the fence and exposure sets) are kept sorted by the
 * events' tree-wide numbers (gid), so that membership is a binary search
 * and union a merge: big functions have hundreds of accesses and the
 * fixpoint unions sets at every edge.  Every such array holds elements
 * STRIDE bytes long that start with a struct event pointer; this is the
 * first position whose event's number is not below GID. */
static int lower_bound_gid(const void *base, int n, size_t stride, int gid)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		const struct event *e = *(struct event *const *)((const char *)base + (size_t)mid * stride);

		if (e->gid < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int es_find(const struct evset *s, int gid, int *pos)
{
	int lo = lower_bound_gid(s->v, s->n, sizeof *s->v, gid);

	*pos = lo;
	return lo < s->n && s->v[lo]->gid == gid;
}

static int es_has(const struct evset *s, const struct event *e)
{
	int pos;

	return es_find(s, e->gid, &pos);
}

static int es_add(struct evset *s, struct event *e)
{
	int pos;

	if (es_find(s, e->gid, &pos))
		return 0;
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	memmove(s->v + pos + 1, s->v + pos, (size_t)(s->n - pos) * sizeof *s->v);
	s->v[pos] = e;
	s->n++;
	return 1;
}

static int es_union(struct evset *into, const struct evset *from)
{
	struct event **merged;
	int i = 0, j = 0, n = 0, size = into->n + from->n;

	if (from->n == 0 || into == from)
		return 0;
	/* Most unions at a fixpoint add nothing: find that out without
	 * allocating (a walk of both sorted arrays), and only then merge. */
	while (i < into->n && j < from->n) {
		if (into->v[i]->gid < from->v[j]->gid)
			i++;
		else if (into->v[i]->gid == from->v[j]->gid)
			i++, j++;
		else
			break;
	}
	if (j == from->n)
		return 0;
	i = j = 0;
	merged = xmalloc((size_t)size * sizeof *merged);
	while (i < into->n || j < from->n) {
		if (j >= from->n || (i < into->n && into->v[i]->gid < from->v[j]->gid))
			merged[n++] = into->v[i++];
		else if (i >= into->n || from->v[j]->gid < into->v[i]->gid)
			merged[n++] = from->v[j++];
		else {
			merged[n++] = into->v[i++];
			j++;
		}
	}
	if (n == into->n) {
		free(merged);
		return 0;
	}
	free(into->v);
	into->v = merged;
	into->n = n;
	into->cap = size;
	return 1;
}

static void es_copy(struct evset *to, const struct evset *from)
{
	grow(&to->v, &to->cap, from->n, sizeof *to->v);
	if (from->n)    /* an empty set may have no array at all */
		memcpy(to->v, from->v, (size_t)from->n * sizeof *to->v);
	to->n = from->n;
}

static void es_remove_at(struct evset *s, int i)
{
	memmove(s->v + i, s->v + i + 1, (size_t)(s->n - i - 1) * sizeof *s->v);
	s->n--;
}

static int fs_lower_bound(const struct fset *s, const struct event *p)
{
	return lower_bound_gid(s->v, s->n, sizeof *s->v, p->gid);
}

/* Remembers the fence that ordered plain write P: one per write (the
 * first wins). */
static int fs_add(struct fset *s, struct event *p, struct event *f)
{
	int lo = fs_lower_bound(s, p);

	if (lo < s->n && s->v[lo].plain == p)
		return 0;
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	memmove(s->v + lo + 1, s->v + lo, (size_t)(s->n - lo) * sizeof *s->v);
	s->v[lo].plain = p;
	s->v[lo].fence = f;
	s->n++;
	return 1;
}

static struct event *fs_fence(const struct fset *s, const struct event *p)
{
	int lo = fs_lower_bound(s, p);

	return lo < s->n && s->v[lo].plain == p ? s->v[lo].fence : NULL;
}

/* Exposed events are kept sorted by number, like the event sets. */
static void xs_add(struct xset *s, struct event *e, unsigned killed)
{
	int lo = lower_bound_gid(s->v, s->n, sizeof *s->v, e->gid);

	if (lo < s->n && s->v[lo].e == e) {
		s->v[lo].killed_before &= killed;
		return;
	}
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	memmove(s->v + lo + 1, s->v + lo, (size_t)(s->n - lo) * sizeof *s->v);
	s->v[lo].e = e;
	s->v[lo].killed_before = killed;
	s->n++;
}

static int ss_has(const struct strset *s, const char *k)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->v[i], k) == 0)
			return 1;
	return 0;
}

static void ss_add(struct strset *s, char *k)
{
	if (ss_has(s, k))
		return;
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	s->v[s->n++] = k;
}

/* Unlocking K releases it whether it was held exclusively or shared. */
static void ss_remove_lock(struct strset *s, const char *k)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->v[i], k) == 0 ||
		    (strncmp(s->v[i], "shared:", 7) == 0 && strcmp(s->v[i] + 7, k) == 0))
			s->v[i--] = s->v[--s->n];
}

static void state_free(struct state *s)
{
	free(s->pend_plain.v);
	free(s->pend_reads.v);
	free(s->seen_plain.v);
	free(s->seen_reads.v);
	free(s->fenced.v);
	free(s->published.v);
	free(s->locks.v);
	memset(s, 0, sizeof *s);
}

static void state_copy(struct state *to, const struct state *from)
{
	to->reached = from->reached;
	es_copy(&to->pend_plain, &from->pend_plain);
	es_copy(&to->pend_reads, &from->pend_reads);
	es_copy(&to->seen_plain, &from->seen_plain);
	es_copy(&to->seen_reads, &from->seen_reads);
	to->fenced.n = 0;
	for (int i = 0; i < from->fenced.n; i++)
		fs_add(&to->fenced, from->fenced.v[i].plain, from->fenced.v[i].fence);
	es_copy(&to->published, &from->published);
	to->killed = from->killed;
	to->locks.n = 0;
	for (int i = 0; i < from->locks.n; i++)
		ss_add(&to->locks, from->locks.v[i]);
	to->threads = from->threads;
	to->calm = from->calm;
	to->mb_before_rmw = from->mb_before_rmw;
	to->after_rmw = from->after_rmw;
}

/* Merges FROM into the block-entry state TO; returns whether TO changed. */
static int state_merge(struct state *to, const struct state *from)
{
	int changed = 0;

	if (!from->reached)
		return 0;
	if (!to->reached) {
		state_copy(to, from);
		return 1;
	}
	changed |= es_union(&to->pend_plain, &from->pend_plain);
	changed |= es_union(&to->pend_reads, &from->pend_reads);
	changed |= es_union(&to->seen_plain, &from->seen_plain);
	changed |= es_union(&to->seen_reads, &from->seen_reads);
	changed |= es_union(&to->published, &from->published);
	for (int i = 0; i < from->fenced.n; i++)
		changed |= fs_add(&to->fenced, from->fenced.v[i].plain, from->fenced.v[i].fence);
	if ((to->killed & from->killed) != to->killed) {
		to->killed &= from->killed;
		changed = 1;
	}
	for (int i = 0; i < to->locks.n; i++)
		if (!ss_has(&from->locks, to->locks.v[i])) {
			to->locks.v[i--] = to->locks.v[--to->locks.n];
			changed = 1;
		}
	if (from->threads > to->threads) {
		to->threads = from->threads;
		changed = 1;
	}
	if (to->calm && !from->calm) {
		to->calm = 0;
		changed = 1;
	}
	if (to->mb_before_rmw && !from->mb_before_rmw) {
		to->mb_before_rmw = 0;
		changed = 1;
	}
	if (to->after_rmw && !from->after_rmw) {
		to->after_rmw = 0;
		changed = 1;
	}
	return changed;
}

/* Can no other thread be running in state S? */
static int quiet(const struct state *s)
{
	return s->threads != THREADS_RUNNING;
}

/* Does plain access E initialise memory fresh from an allocator, that no
 * other thread can reach yet (fresh.c, extract_fresh.c)?  Such
 * an access may still be published too early (writer side), but it races
 * with nothing before its publication: it is no reader-side access, no
 * racing access and no lockset member. */
static int is_new(const struct event *e)
{
	return e->fresh_init;
}

static int same_object(const struct event *a, const struct event *b)
{
	return a->oid >= 0 && a->oid == b->oid;
}

/* Orders pending plain accesses whose type KILL covers; a fence barrier
 * FENCE is remembered for the unpaired-barrier check. */
static void kill_plain(struct state *s, unsigned kill, struct event *fence)
{
	if (!kill)
		return;
	for (int i = 0; i < s->pend_plain.n; i++) {
		struct event *p = s->pend_plain.v[i];

		if (kill & (1u << p->access)) {
			if (fence && p->access != ACC_READ)
				fs_add(&s->fenced, p, fence);
			es_remove_at(&s->pend_plain, i--);
		}
	}
	s->killed |= kill;
}

/* An acquire read of F supersedes earlier reads of F: what follows is
 * guarded by the value the acquire returned (a test-and-test-and-set
 * lock spins with READ_ONCE, then takes the lock with an acquire RMW). */
static void kill_reads_of(struct state *s, const struct event *acquire)
{
	for (int i = 0; i < s->pend_reads.n; i++)
		if (s->pend_reads.v[i]->oid == acquire->oid)
			es_remove_at(&s->pend_reads, i--);
}

static void kill_reads(struct state *s)
{
	s->pend_reads.n = 0;
	s->killed |= K_READER;
}

/* ---- dependencies: which marked reads a local's value comes from ---- */

struct derived { const char *local; int *reads; int n, cap; };

/* In a derived's reads: the value comes from a parameter ("$KEY:N"). */
#define PARAM_SOURCE (-2)
struct deriv_map { struct derived *v; int n, cap; };

static struct derived *dm_get(struct deriv_map *m, const char *local, int create)
{
	for (int i = 0; i < m->n; i++)
		if (strcmp(m->v[i].local, local) == 0)
			return &m->v[i];
	if (!create)
		return NULL;
	grow(&m->v, &m->cap, m->n + 1, sizeof *m->v);
	memset(&m->v[m->n], 0, sizeof m->v[m->n]);
	m->v[m->n].local = local;
	return &m->v[m->n++];
}

static int dm_add(struct derived *d, int read)
{
	for (int i = 0; i < d->n; i++)
		if (d->reads[i] == read)
			return 0;
	grow(&d->reads, &d->cap, d->n + 1, sizeof *d->reads);
	d->reads[d->n++] = read;
	return 1;
}

/* Calls FN for every item of a ",a,@3,b," list.  Items hold link keys,
 * which hold paths: an item has no length limit (one that did lost the
 * items of a static function in a deep directory).  The common short
 * list is copied on the stack, a longer one into the heap. */
static void for_each_use(const char *uses, void (*fn)(const char *, void *), void *arg)
{
	char small[256], *item = small;
	size_t len;

	if (!uses)
		return;
	len = strlen(uses);
	if (len >= sizeof small)
		item = xmalloc(len + 1);
	for (const char *p = uses; *p; ) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n > 0) {
			memcpy(item, p, n);
			item[n] = '\0';
			fn(item, arg);
		}
		if (!e)
			break;
		p = e + 1;
	}
	if (item != small)
		free(item);
}

struct flow_ctx { struct deriv_map *m; struct derived *target; int changed; };

static void add_use(const char *item, void *arg)
{
	struct flow_ctx *c = arg;

	if (item[0] == '$') {
		c->changed |= dm_add(c->target, PARAM_SOURCE);
	} else if (item[0] == '@') {
		c->changed |= dm_add(c->target, atoi(item + 1));
	} else {
		struct derived *src = dm_get(c->m, item, 0);

		if (src && src != c->target)
			for (int i = 0; i < src->n; i++)
				c->changed |= dm_add(c->target, src->reads[i]);
	}
}

/* Flow-insensitively, which marked reads (by event index) can each local's
 * value come from, and whether a parameter's can (PARAM_SOURCE): a small
 * fixpoint over the local assignments. */
static void compute_derived(struct function *f, struct deriv_map *m)
{
	int changed = 1, rounds = 0;

	while (changed && rounds++ < 20) {
		changed = 0;
		for (int b = 0; b < f->nblocks; b++)
			for (int i = 0; i < f->blocks[b].nevents; i++) {
				struct event *e = &f->blocks[b].events[i];
				struct flow_ctx c = { m, NULL, 0 };

				if (e->kind != EV_LOCAL || !e->defines)
					continue;
				c.target = dm_get(m, e->defines, 1);
				for_each_use(e->uses, add_use, &c);
				changed |= c.changed;
			}
	}
	if (changed)
		analysis_cap_hit(CAP_DERIVED);
}

struct dep_ctx { struct deriv_map *m; int read; int found; };

static void check_use(const char *item, void *arg)
{
	struct dep_ctx *c = arg;

	if (item[0] == '@') {
		if (atoi(item + 1) == c->read)
			c->found = 1;
	} else {
		struct derived *d = dm_get(c->m, item, 0);

		for (int i = 0; d && i < d->n; i++)
			if (d->reads[i] == c->read)
				c->found = 1;
	}
}

/* A store's value dependencies ("~ITEM", extract_expr.c) order it after
 * the read as an address dependency would. */
static void check_value_use(const char *item, void *arg)
{
	if (item[0] == '~')
		check_use(item + 1, arg);
	else
		check_use(item, arg);
}

/* Is plain access P ordered after marked read R (both in the function
 * whose map is M: the indexes are the function's own; "@N" in P's uses
 * may name a call) by a dependency: its address depends on R's value, or,
 * for a store, the value it stores does? */
static int depends_on(struct deriv_map *m, const struct event *p, const struct event *r)
{
	struct dep_ctx c = { m, r->index, 0 };

	for_each_use(p->uses, p->access == ACC_WRITE ? check_value_use : check_use, &c);
	return c.found;
}

struct arg_dep_ctx { struct dep_ctx dep; const char *prefix; size_t plen; };

static void check_arg_use(const char *item, void *arg)
{
	struct arg_dep_ctx *c = arg;

	if (strncmp(item, c->prefix, c->plen) == 0)
		check_use(item + c->plen, &c->dep);
}

static int param_use(const struct event *e, const char *callee, size_t kl);

/* Does the address of P, an access of CALLEE seen through CALL, depend on
 * marked read R of the caller (map M) through the argument CALL passes
 * for the parameter P's address comes from?  (One call deep: "$CALLEE:N"
 * in P's uses, "#N=..." in the call's.) */
static int depends_through_call(struct deriv_map *m, const struct event *call, const char *callee,
				const struct event *p, const struct event *r)
{
	struct arg_dep_ctx c = { { m, r->index, 0 }, NULL, 0 };
	char prefix[24];
	int n;

	if (!call->uses || !p->param_use || (n = param_use(p, callee, strlen(callee))) < 0)
		return 0;
	snprintf(prefix, sizeof prefix, "#%d=", n);
	c.prefix = prefix;
	c.plen = strlen(prefix);
	for_each_use(call->uses, check_arg_use, &c);
	return c.dep.found;
}

/* ---- which marked reads' values are used ---- */

struct use_mark { struct deriv_map *m; unsigned char *used; int nevents; };

/* The local or "@N" event that ITEM, one item of a uses list, names as
 * a source of a value: a stored value's "~ITEM" and a call argument's
 * "#N=ITEM" name ITEM; parameters ("$...") and marks ("!new") name none
 * (NULL). */
static const char *value_item(const char *item)
{
	if (item[0] == '~')
		item++;
	else if (item[0] == '#') {          /* "#N=ITEM", a call argument */
		const char *eq = strchr(item, '=');

		if (!eq)
			return NULL;
		item = eq + 1;
	}
	return item[0] == '$' || item[0] == '!' ? NULL : item;
}

static void mark_item(const char *item, void *arg)
{
	struct use_mark *u = arg;

	if (!(item = value_item(item)))
		return;
	if (item[0] == '@') {
		int k = atoi(item + 1);

		if (k >= 0 && k < u->nevents)
			u->used[k] = 1;
	} else {
		struct derived *d = dm_get(u->m, item, 0);

		for (int i = 0; d && i < d->n; i++)
			if (d->reads[i] >= 0 && d->reads[i] < u->nevents)
				u->used[d->reads[i]] = 1;
	}
}

/* One more than the largest event index of F: the size of the arrays
 * indexed by event index. */
static int event_count(const struct function *f)
{
	int n = 0;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].index >= n)
				n = f->blocks[b].events[i].index + 1;
	return n;
}

static int defines_sink(const struct event *e, const char *sink)
{
	return e->kind == EV_LOCAL && e->defines && strcmp(e->defines, sink) == 0;
}

/* Per event index of F (N events): does the value of that marked read
 * reach SINK: "?loop", a loop of F waits for it (while (!READ_ONCE(flag))
 * ;), and whatever F's callers do after the call runs only once F has
 * seen the value it waited for, whether or not F returns it; "?ret", F
 * returns it (or a value computed from it).  With ALWAYS, only sinks in
 * blocks that run on every path count: a wait loop in one case of a
 * switch (compat_futex_async's FUTEX_WAIT) does not wait for a caller
 * that asks for FUTEX_WAKE. */
static unsigned char *sink_marks(const struct function *f, struct deriv_map *m, int n, const char *sink,
				 const struct guards *always)
{
	struct use_mark u = { m, xcalloc((size_t)n + 1, 1), n };

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (defines_sink(&f->blocks[b].events[i], sink) && (!always || guards_always_runs(always, b)))
				for_each_use(f->blocks[b].events[i].uses, mark_item, &u);
	return u.used;
}

/* Per event index of F (N events): is the value of that marked read
 * used, flow-insensitively?
 *
 * USED (EXPORTED 0): tested by a condition, returned, passed to a call,
 * stored (by a plain or a marked write), or part of an address; the value
 * of a local counts where the local's does.  A read whose value is none of
 * these (READ_ONCE(count) summed into a statistic, a read for its side
 * effect) decides nothing: it guards nothing after it and consumes no
 * publication.
 *
 * EXPORTED 1, may the value matter to F's callers: F returns it, stores
 * it, passes it on, or waits for it in a loop; and, when F returns a value
 * at all, F tests it (the result may say what it saw).  A read that F only
 * tests to choose a branch of its own (liburcu's futex_wake_up(): if
 * (uatomic_read(&futex) == -1) wake(...)) decides nothing once both
 * branches meet again: the callers must not take it for a guard of what
 * they do next. */
static unsigned char *value_marks(const struct function *f, struct deriv_map *m, int n, int exported)
{
	int returns_value = 0;
	struct use_mark u = { m, xcalloc((size_t)n + 1, 1), n };

	for (int b = 0; b < f->nblocks && exported; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			returns_value |= defines_sink(&f->blocks[b].events[i], "?ret");
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];
			int sink;

			if (!exported)
				sink = (e->kind == EV_LOCAL && e->defines && e->defines[0] == '?') ||
				       e->kind == EV_CALL || e->kind == EV_ACCESS;
			else
				sink = defines_sink(e, "?ret") || defines_sink(e, "?loop") ||
				       (returns_value && defines_sink(e, "?test")) ||
				       e->kind == EV_CALL || (e->kind == EV_ACCESS && e->access != ACC_READ);
			if (sink)
				for_each_use(e->uses, mark_item, &u);
		}
	return u.used;
}

/* Drops from SET the reads of F (name NAME) whose value EXPORTED says
 * does not leave F. */
static void keep_exported(struct evset *set, const char *name, const unsigned char *exported, int n)
{
	int k = 0;

	for (int i = 0; i < set->n; i++) {
		struct event *r = set->v[i];

		if (r->func != name || r->index >= n || exported[r->index])
			set->v[k++] = r;
	}
	set->n = k;
}

/* ---- facts ---- */

/* A callee's access seen as initialisation through one call is still
 * the callee's access when it is published too early: one finding, not
 * one per call that initialises (see fresh_clone). */
static struct event *original(struct event *e)
{
	return e->orig ? e->orig : e;
}

static void add_candidate(struct candidate **arr, int *n, int *cap, struct pairset *seen,
			  struct event *plain, struct event *marked, struct function *fn)
{
	plain = original(plain);
	if (pairset_get(seen, plain->gid, marked->gid) >= 0)
		return;
	pairset_put(seen, plain->gid, marked->gid, *n);
	grow(arr, cap, *n + 1, sizeof **arr);
	(*arr)[*n].plain = plain;
	(*arr)[*n].marked = marked;
	(*arr)[(*n)++].fn = fn;
}

static void add_link(struct link **arr, int *n, int *cap, struct pairset *seen, struct event *plain,
		     struct event *marked, struct event *fence, struct function *fn, int ordered)
{
	int i;

	plain = original(plain);
	i = pairset_get(seen, plain->gid, marked->gid);

	if (i >= 0) {
		if (fence && !(*arr)[i].fence)
			(*arr)[i].fence = fence;
		return;
	}
	pairset_put(seen, plain->gid, marked->gid, *n);
	grow(arr, cap, *n + 1, sizeof **arr);
	(*arr)[*n] = (struct link){ plain, marked, fence, fn, ordered };
	(*n)++;
}

static void add_relay(struct analysis *a, const struct event *from, const struct event *to)
{
	if (from->oid == to->oid || pairset_get(&a->relseen, from->oid, to->oid) >= 0)
		return;
	pairset_put(&a->relseen, from->oid, to->oid, a->nrelays);
	grow(&a->relays, &a->relcap, a->nrelays + 1, sizeof *a->relays);
	a->relays[a->nrelays].from = from->object;
	a->relays[a->nrelays].to = to->object;
	a->relays[a->nrelays].from_oid = from->oid;
	a->relays[a->nrelays++].to_oid = to->oid;
}

/* In recseen: the function reached the access only holding no lock, at a
 * call site; no record was stored (see record_locks). */
#define NO_LOCKS_HELD (-2)

/* Records plain access E made with HELD locks by function FN. */
static void record_locks(struct analysis *a, struct event *e, struct function *fn,
			 const struct strset *held, int complete)
{
	struct lock_record *r;
	int seen;

	if (is_new(e))
		return;
	seen = pairset_get(&a->recseen, (int)(fn - a->fns), e->gid);

	/* One record per function and access: an access reached from many
	 * places of one function keeps the locks held at all of them. */
	if (seen == NO_LOCKS_HELD)
		return;
	if (seen >= 0) {
		r = &a->records[seen];
		for (int i = 0; i < r->nlocks; i++)
			if (!ss_has(held, r->locks[i]))
				r->locks[i--] = r->locks[--r->nlocks];
		return;
	}
	/* A record made at a call site (not complete) only lends its locks
	 * to the access (caller_locks); with none held it lends nothing, and
	 * the locks common to all its call sites stay none: remember that
	 * instead of storing it.  (Most records are of this kind, one per
	 * access per caller up the call graph.) */
	if (!complete && held->n == 0) {
		pairset_put(&a->recseen, (int)(fn - a->fns), e->gid, NO_LOCKS_HELD);
		return;
	}
	pairset_put(&a->recseen, (int)(fn - a->fns), e->gid, a->nrecords);
	grow(&a->records, &a->reccap, a->nrecords + 1, sizeof *a->records);
	r = &a->records[a->nrecords++];
	r->e = e;
	r->fn = fn;
	r->locks = xcalloc(held->n + 1, sizeof *r->locks);
	if (held->n)
		memcpy(r->locks, held->v, (size_t)held->n * sizeof *r->locks);
	r->nlocks = held->n;
	r->complete = complete;
}

/* ---- objects, and callee events seen through a call ---- */

static unsigned hash_str(const char *k)
{
	unsigned h = 5381;

	while (*k)
		h = h * 33 + (unsigned char)*k++;
	return h;
}

/* The number of object KEY, adding it (KEY must outlive the analysis). */
static int intern_object(struct program *p, const char *key)
{
	struct intern *t = &p->objects;
	unsigned h;

	if (2 * (t->used + 1) > t->cap) {
		struct intern old = *t;

		t->cap = t->cap ? t->cap * 2 : 256;
		t->slots = xcalloc(t->cap, sizeof *t->slots);
		t->used = 0;
		for (int i = 0; i < old.cap; i++)
			if (old.slots[i].key) {
				for (h = hash_str(old.slots[i].key) & (t->cap - 1); t->slots[h].key;
				     h = (h + 1) & (t->cap - 1))
					;
				t->slots[h] = old.slots[i];
				t->used++;
			}
		free(old.slots);
	}
	for (h = hash_str(key) & (t->cap - 1); t->slots[h].key; h = (h + 1) & (t->cap - 1))
		if (strcmp(t->slots[h].key, key) == 0)
			return t->slots[h].oid;
	t->slots[h].key = key;
	t->slots[h].oid = p->out->nobjects++;
	t->used++;
	return t->slots[h].oid;
}

/* ---- independent programs in one tree ---- */

static int start_routine(const struct program *p, const struct event *create);
static struct summary *summary_of(struct program *p, const char *key, const char *file);

/* OWNER[i] = 1 + the index in MAINS of the one program function I belongs
 * to, 0 for none, -1 for several. */
static void reach_programs(struct program *p, char **mains, int nmains, int *owner)
{
	int *stack = xcalloc(p->nfns + 1, sizeof *stack);
	char *seen = xcalloc(p->nfns + 1, 1);

	for (int m = 0; m < nmains; m++) {
		int top = 0;

		memset(seen, 0, p->nfns + 1);
		for (int i = 0; i < p->nfns; i++)
			if (p->fns[i].file && strcmp(p->fns[i].file, mains[m]) == 0) {
				seen[i] = 1;
				stack[top++] = i;
			}
		while (top) {
			int fi = stack[--top];

			owner[fi] = owner[fi] == 0 || owner[fi] == m + 1 ? m + 1 : -1;
			for (int b = 0; b < p->fns[fi].nblocks; b++)
				for (int k = 0; k < p->fns[fi].blocks[b].nevents; k++) {
					const struct event *e = &p->fns[fi].blocks[b].events[k];
					int t = -1;
					struct summary *s;

					if (e->kind == EV_CALL && e->target &&
					    (s = summary_of(p, e->target, p->fns[fi].file)) != NULL)
						t = (int)(s - p->sums);
					else if (e->kind == EV_BARRIER && e->name && strcmp(e->name, "pthread_create") == 0)
						t = start_routine(p, e);
					if (t >= 0 && !seen[t]) {
						seen[t] = 1;
						stack[top++] = t;
					}
				}
		}
	}
	/* A main file's own functions are its program's, whatever reaches them. */
	for (int i = 0; i < p->nfns; i++)
		for (int m = 0; m < nmains; m++)
			if (p->fns[i].file && strcmp(p->fns[i].file, mains[m]) == 0)
				owner[i] = m + 1;
	free(stack);
	free(seen);
}

/* KEY scoped to program FILE when it names a global variable ("c:@name",
 * "c:@name[]"; also as a read lock, "shared:c:@name"), else NULL. */
static char *scoped_key(const char *key, const char *file)
{
	const char *k = strncmp(key, "shared:", 7) == 0 ? key + 7 : key;

	if (strncmp(k, "c:@", 3) != 0 || strchr(k + 3, '@') || strchr(k + 3, '#'))
		return NULL;
	return xasprintf("%.*s%.*s#%s", (int)(k - key), key, (int)strcspn(k, "["), k, file);
}

static void scope_string(char **key, const char *file)
{
	char *s = *key ? scoped_key(*key, file) : NULL;

	if (s) {
		/* keep a "[]" suffix after the scope: c:@buf#prog.c[] */
		const char *brackets = strchr(*key + (strncmp(*key, "shared:", 7) == 0 ? 7 : 0), '[');

		if (brackets) {
			char *t = xasprintf("%s%s", s, brackets);

			free(s);
			s = t;
		}
		free(*key);
		*key = s;
	}
}

/* A tree may hold several programs (a directory of tests, each with its
 * own main()): their globals of the same name are different objects.
 * When two or more files define main(), a function belongs to the program
 * of its file when that file defines main(), otherwise to the one program
 * whose functions reach it (calls, thread creations), and the global
 * variables it touches are scoped to that program (its main file).  A
 * function reached from several programs (a shared library file, a header)
 * keeps the unscoped names.  (The link commands would tell exactly; a
 * compile database does not hold them.) */
static void scope_program_globals(struct program *p)
{
	char **mains = NULL;
	int nmains = 0, cap = 0, *owner;

	for (int i = 0; i < p->nfns; i++) {
		int known = 0;

		if (strcmp(p->fns[i].name, "main") != 0 || !p->fns[i].file)
			continue;
		for (int k = 0; k < nmains; k++)
			known |= strcmp(mains[k], p->fns[i].file) == 0;
		if (!known) {
			grow(&mains, &cap, nmains + 1, sizeof *mains);
			mains[nmains++] = p->fns[i].file;
		}
	}
	if (nmains < 2) {
		free(mains);
		return;
	}
	owner = xcalloc(p->nfns + 1, sizeof *owner);
	reach_programs(p, mains, nmains, owner);
	for (int i = 0; i < p->nfns; i++) {
		struct function *f = &p->fns[i];
		const char *prog = owner[i] > 0 ? mains[owner[i] - 1] : NULL;

		if (!prog)
			continue;
		for (int b = 0; b < f->nblocks; b++)
			for (int k = 0; k < f->blocks[b].nevents; k++) {
				struct event *e = &f->blocks[b].events[k];

				scope_string(&e->object, prog);
				if (e->kind == EV_CALL && e->args) {
					/* the objects a call passes, for the callee's
					 * parameters */
					char *out = xstrdup(""), *copy = xstrdup(e->args), *save = copy;

					for (char *a = copy; a; ) {
						char *end = strchr(a, '\x1f'), *item, *t;

						if (end)
							*end = '\0';
						item = xstrdup(a);
						scope_string(&item, prog);
						t = xasprintf("%s%s%s", out, a == copy ? "" : "\x1f", item);
						free(out);
						free(item);
						out = t;
						a = end ? end + 1 : NULL;
					}
					free(save);
					free(e->args);
					e->args = out;
				}
			}
	}
	free(mains);
	free(owner);
}

/* Numbers every event of the tree (gid) and every object (oid), so that
 * the analysis compares integers, not strings. */
static void number_events(struct program *p)
{
	for (int i = 0; i < p->nfns; i++)
		for (int b = 0; b < p->fns[i].nblocks; b++)
			for (int k = 0; k < p->fns[i].blocks[b].nevents; k++) {
				struct event *e = &p->fns[i].blocks[b].events[k];

				e->gid = p->next_gid++;
				e->oid = e->object ? intern_object(p, e->object) : -1;
				e->param_use = e->uses && strstr(e->uses, ",$") != NULL;
				if (e->kind == EV_ACCESS && e->target && e->oid >= 0) {
					grow(&p->fnptrs, &p->fnptrcap, p->nfnptrs + 1, sizeof *p->fnptrs);
					p->fnptrs[p->nfnptrs].oid = e->oid;
					p->fnptrs[p->nfnptrs++].function = e->target;
				}
			}
}

/* Argument N of CALL as the caller's object key, or NULL. */
static char *call_argument(const struct event *call, int n)
{
	const char *a = call->args;

	for (int i = 0; a && i < n; i++) {
		a = strchr(a, '\x1f');
		if (a)
			a++;
	}
	if (!a || !*a || *a == '\x1f')
		return NULL;
	{
		size_t n = strcspn(a, "\x1f");
		char *r = xmalloc(n + 1);

		memcpy(r, a, n);
		r[n] = '\0';
		return r;
	}
}

/* The parameter of CALLEE (KL = its length) that E's address is computed
 * from ("$CALLEE:N" in its uses), or -1. */
static int param_use(const struct event *e, const char *callee, size_t kl)
{
	const char *u = e->uses;

	while (u && (u = strstr(u, ",$")) != NULL) {
		u += 2;
		if (strncmp(u, callee, kl) == 0 && u[kl] == ':')
			return atoi(u + kl + 1);
	}
	return -1;
}

/* Does E, an access of a callee, initialise fresh memory when seen through
 * CALL: it is made through a pointer parameter the callee has not handed
 * on yet, and CALL passes fresh memory for it (map_init(m) right after
 * m = malloc(...); fresh.h)? */
static int initialises(const struct event *call, const struct event *e)
{
	return e->fresh_param > 0 && e->fresh_param <= 32 && !e->fresh_init &&
	       (call->fresh_args >> (e->fresh_param - 1) & 1u);
}

/* E as an initialising access, for a call that passes fresh memory. */
static struct event *fresh_clone(struct program *p, struct event *e)
{
	struct event *c = xmalloc(sizeof *c);

	*c = *e;                     /* strings other than object and display are shared */
	c->object = xstrdup(e->object);
	c->display = e->display ? xstrdup(e->display) : NULL;
	c->gid = p->next_gid++;
	c->fresh_init = 1;
	c->orig = e->orig ? e->orig : e;
	grow(&p->out->clones, &p->out->clonecap, p->out->nclones + 1, sizeof *p->out->clones);
	p->out->clones[p->out->nclones++] = c;
	return c;
}

/* A private local ("l:FUNCTION:v", extract_expr.c) is never shared: a
 * callee's accesses through the parameter that receives it are dropped
 * (below), like the caller's own accesses to it.
 *
 * E as seen from CALL into CALLEE: itself, or, when E's object is one of
 * the callee's pointer parameters, a copy on the object the caller passed
 * (NULL when the caller passed nothing we know). */
static struct event *through_call(struct program *p, const struct event *call, const char *callee,
				  struct event *e)
{
	struct clone_map *m = &p->clones;
	size_t kl;
	unsigned long long key;
	unsigned h;
	struct event *c;
	char *obj;
	int is_param;

	if (!e->object)
		return e;
	kl = strlen(callee);
	is_param = e->object[0] == 'p' && e->object[1] == ':' && strncmp(e->object + 2, callee, kl) == 0 &&
		   e->object[2 + kl] == ':';
	if (!is_param && !e->param_use)
		return e;
	/* Either way the answer depends only on (CALL, E): it is cached,
	 * since the fixpoint asks the same question at every run. */
	key = (unsigned long long)call->gid << 32 | (unsigned)e->gid;
	if (2 * (m->used + 1) > m->cap) {
		struct clone_map old = *m;

		m->cap = m->cap ? m->cap * 2 : 256;
		m->slots = xcalloc(m->cap, sizeof *m->slots);
		m->used = 0;
		for (int i = 0; i < old.cap; i++)
			if (old.slots[i].key) {
				for (h = (unsigned)(old.slots[i].key * 0x9E3779B97F4A7C15ULL >> 40) & (m->cap - 1);
				     m->slots[h].key; h = (h + 1) & (m->cap - 1))
					;
				m->slots[h] = old.slots[i];
				m->used++;
			}
		free(old.slots);
	}
	key++;   /* 0 marks an empty slot */
	for (h = (unsigned)(key * 0x9E3779B97F4A7C15ULL >> 40) & (m->cap - 1); m->slots[h].key;
	     h = (h + 1) & (m->cap - 1))
		if (m->slots[h].key == key)
			return m->slots[h].clone;
	m->slots[h].key = key;
	m->used++;
	if (!is_param) {
		/* b->v with b parameter N ("$CALLEE:N" in uses): the field of
		 * every instance, unless the caller passes a private local. */
		int n = param_use(e, callee, kl), private = 0;

		if (n >= 0 && (obj = call_argument(call, n)) != NULL) {
			private = strncmp(obj, "l:", 2) == 0;
			free(obj);
		}
		if (!private && initialises(call, e))
			return m->slots[h].clone = fresh_clone(p, e);
		return m->slots[h].clone = private ? NULL : e;
	}
	obj = call_argument(call, atoi(e->object + 3 + kl));
	if (obj && (strncmp(obj, "l:", 2) == 0 || strncmp(obj, "f:", 2) == 0)) {
		free(obj);
		obj = NULL;
	}
	c = NULL;
	if (obj) {
		c = xmalloc(sizeof *c);
		*c = *e;                         /* strings other than object and display are shared */
		c->object = obj;
		c->display = readable_object(obj);   /* not a raw USR in messages */
		c->gid = p->next_gid++;
		c->oid = intern_object(p, obj);
		c->fresh_init |= initialises(call, e);
		grow(&p->out->clones, &p->out->clonecap, p->out->nclones + 1, sizeof *p->out->clones);
		p->out->clones[p->out->nclones++] = c;
	}
	return m->slots[h].clone = c;
}

/* SET as seen through CALL (see through_call): SET itself when no event
 * in it changes (most sets: no parameter in them), else a copy in
 * SCRATCH. */
static const struct evset *set_through_call(struct program *p, const struct event *call,
					    const char *callee, const struct evset *set,
					    struct evset *scratch)
{
	int i = 0;

	scratch->n = 0;
	while (i < set->n && through_call(p, call, callee, set->v[i]) == set->v[i])
		i++;
	if (i == set->n)
		return set;
	grow(&scratch->v, &scratch->cap, set->n, sizeof *scratch->v);
	memcpy(scratch->v, set->v, (size_t)i * sizeof *scratch->v);
	scratch->n = i;
	for (; i < set->n; i++) {
		struct event *e = through_call(p, call, callee, set->v[i]);

		if (e)
			es_add(scratch, e);
	}
	return scratch;
}

/* The exposed set SET as seen through CALL, into OUT (see through_call). */
static void xset_through_call(struct program *p, const struct event *call, const char *callee,
			      const struct xset *set, struct xset *out)
{
	out->n = 0;
	grow(&out->v, &out->cap, set->n, sizeof *out->v);
	for (int i = 0; i < set->n; i++) {
		struct event *e = through_call(p, call, callee, set->v[i].e);

		if (e) {
			out->v[out->n].e = e;
			out->v[out->n++].killed_before = set->v[i].killed_before;
		}
	}
}

/* The view CALL has of CS, the summary of CALLEE (struct call_view). */
static const struct call_view *call_view_of(struct program *p, const struct event *call,
					    const struct summary *cs, const char *callee)
{
	struct call_view *v;
	const struct evset *sets[NVIEWS] = { &cs->exit_plain, &cs->exit_reads, &cs->all_reads,
					     &cs->all_mwrites, &cs->all_plain };

	if (call->gid >= p->nviews) {
		int n = call->gid + 1024;

		p->views = realloc(p->views, (size_t)n * sizeof *p->views);
		if (!p->views)
			abort();
		memset(p->views + p->nviews, 0, (size_t)(n - p->nviews) * sizeof *p->views);
		p->nviews = n;
	}
	v = p->views[call->gid];
	if (!v)
		v = p->views[call->gid] = xcalloc(1, sizeof *v);
	else if (v->of == cs && v->version == cs->version)
		return v;
	v->of = cs;
	v->version = cs->version;
	for (int k = 0; k < NVIEWS; k++)
		v->set[k] = set_through_call(p, call, callee, sets[k], &v->copy[k]);
	xset_through_call(p, call, callee, &cs->entry_mwrites, &v->entry_mwrites);
	xset_through_call(p, call, callee, &cs->entry_plain, &v->entry_plain);
	return v;
}

/* ---- the transfer function ---- */

struct fn_ctx {
	struct program *p;
	struct function *fn;
	struct summary *sum;          /* being computed for fn */
	struct deriv_map derived;
	unsigned char *pre_spawn;     /* per event index: a thread is created
					 next, before any join (backward) */
	unsigned char *used;          /* per event index: value_used */
	struct event **by_index;      /* fn's events by index */
	int nevents;
	struct guards guards;         /* per block: the values it runs on */
	int cur_block;                /* the block being walked */
	struct pairset origins;       /* (callee read gid, call index): the
					 calls that brought the read in */
	unsigned char *returns_read;  /* per call index: the callee's result
					 carries a marked read's value
					 (summary.returns_read) */
};

/* In fn_ctx.origins: the callee waited for the read in a loop that runs
 * on every path (summary.waited): it guards everything after the call. */
#define WAITED_IN_CALLEE 0x3fffffff

/* The summary of the function a call to KEY from a function in FILE
 * reaches: the definition in the same file when there is one (a tree may
 * hold several programs with functions of the same name), else the first. */
static struct summary *summary_of(struct program *p, const char *key, const char *file)
{
	int lo = 0, hi = p->nfns;

	if (!key)
		return NULL;
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (strcmp(p->keys[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= p->nfns || strcmp(p->keys[lo], key) != 0)
		return NULL;
	for (int i = lo; i < p->nfns && strcmp(p->keys[i], key) == 0; i++)
		if (file && p->fns[p->key_fn[i]].file && strcmp(p->fns[p->key_fn[i]].file, file) == 0)
			return &p->sums[p->key_fn[i]];
	return &p->sums[p->key_fn[lo]];
}

/* The index of the function a call of KEY from FILE reaches, or -1 (for
 * fresh.c). */
static int function_index(void *prog, const char *key, const char *file)
{
	struct program *p = prog;
	struct summary *s = summary_of(p, key, file);

	return s ? (int)(s - p->sums) : -1;
}

static int is_named(const struct event *e, const char *name)
{
	return e->name && strcmp(e->name, name) == 0;
}

/* M, a marked write or RMW, is reached in state S.  EXTRA_KILLED is what
 * the callee (when M is in one) ordered before M; PRE_SPAWN says that a
 * thread is created right after, before any join: initialisation that
 * pthread_create orders for the new threads. */
/* ---- guards: does the current block run only on a read's value? ---- */

struct test_deps_ctx { struct fn_ctx *c; int **out; int *cap; int n; int depth; };

static void collect_test_item(const char *item, void *arg);

static void collect_index(struct test_deps_ctx *t, int k)
{
	const struct event *e;

	if (k < 0)
		return;         /* (PARAM_SOURCE) */
	for (int i = 0; i < t->n; i++)
		if ((*t->out)[i] == k)
			return;
	grow(t->out, t->cap, t->n + 1, sizeof **t->out);
	(*t->out)[t->n++] = k;
	/* A call's result depends on what was passed to it: if
	 * (check(READ_ONCE(f))) tests f too. */
	if (k >= 0 && k < t->c->nevents && (e = t->c->by_index[k]) != NULL && e->kind == EV_CALL &&
	    t->depth < 4) {
		t->depth++;
		for_each_use(e->uses, collect_test_item, t);
		t->depth--;
	}
}

static void collect_test_item(const char *item, void *arg)
{
	struct test_deps_ctx *t = arg;

	if (!(item = value_item(item)))
		return;
	if (item[0] == '@') {
		collect_index(t, atoi(item + 1));
	} else {
		struct derived *d = dm_get(&t->c->derived, item, 0);

		for (int i = 0; d && i < d->n; i++)
			collect_index(t, d->reads[i]);
	}
}

/* Like collect_test_item, for the items an address is computed from:
 * a store's value ("~ITEM") is left out. */
static void collect_address_item(const char *item, void *arg)
{
	if (item[0] != '~')
		collect_test_item(item, arg);
}

static int test_deps(void *ctx, const struct event *test, int **out, int *cap)
{
	struct test_deps_ctx t = { ctx, out, cap, 0, 0 };

	for_each_use(test->uses, collect_test_item, &t);
	return t.n;
}

/* Does the block being walked run only on the value of marked read R
 * (guards.h)?  R is the function's own read, tested by a branch or loop
 * that controls the block, or a callee's, whose call's result is tested
 * so, or which a callee returning nothing waited for. */
static int guarded(const struct fn_ctx *c, const struct event *r)
{
	const struct guards *g = &c->guards;
	int b = c->cur_block;

	if (r->func == c->fn->name)
		return guards_has(g, b, r->index);
	if (pairset_get(&c->origins, r->gid, WAITED_IN_CALLEE) >= 0)
		return 1;
	for (int i = 0; b >= 0 && b < g->nblocks && i < g->n[b]; i++)
		if (pairset_get(&c->origins, r->gid, g->v[b][i]) >= 0)
			return 1;
	return 0;
}

/* Does plain access P (own: of this function; else seen through CALL to
 * CALLEE) depend on the value of marked read R: does it run only on R's
 * value (guarded), or is its address computed from it?  Only then is P
 * what R's reader consumes. */
static int depends_on_value(struct fn_ctx *c, const struct event *p, const struct event *r, int own,
			    const struct event *call, const char *callee)
{
	if (guarded(c, r))
		return 1;
	if (own && r->func == c->fn->name && depends_on(&c->derived, p, r))
		return 1;
	return call && r->func == c->fn->name && depends_through_call(&c->derived, call, callee, p, r);
}

/* Remembers that the reads in SET came into the caller through CALL. */
static void note_origins(struct fn_ctx *c, const struct evset *set, const struct event *call, int waited)
{
	for (int i = 0; i < set->n; i++)
		pairset_put(&c->origins, set->v[i]->gid, waited ? WAITED_IN_CALLEE : call->index, 1);
}

/* Is the address of P, an access of this function, computed from the
 * value of a marked read: its own (p = READ_ONCE(head); p->key), or one
 * that a callee returns (p = get_head(); p = clear_flag(rcu_dereference(x)))?
 * Then P is reached through that pointer, and its dependency orders it
 * after that read: another flag read before does not publish what P
 * accesses (a statistic tested on the way, W7 of docs/history/real-code-reviews.md). */
static int address_from_marked_read(struct fn_ctx *c, const struct event *p)
{
	int *idx = NULL, cap = 0, n, found = 0;
	struct test_deps_ctx t = { c, &idx, &cap, 0, 0 };

	for_each_use(p->uses, collect_address_item, &t);
	n = t.n;
	for (int i = 0; i < n && !found; i++) {
		const struct event *e = idx[i] >= 0 && idx[i] < c->nevents ? c->by_index[idx[i]] : NULL;

		found = e && ((e->kind == EV_ACCESS && e->marked && e->access != ACC_WRITE) ||
			      (e->kind == EV_CALL && c->returns_read[idx[i]]));
	}
	free(idx);
	return found;
}

static void writer_check(struct fn_ctx *c, struct state *s, struct event *m, unsigned extra_killed,
			 int pre_spawn)
{
	struct analysis *a = c->p->out;

	if (!c->p->emit || !m->object)
		return;
	for (int i = 0; i < s->pend_plain.n; i++) {
		struct event *p = s->pend_plain.v[i];

		if (same_object(p, m) || (extra_killed & (1u << p->access)))
			continue;
		if (pre_spawn)
			continue;
		add_candidate(&a->writers, &a->nwriters, &a->wcap, &a->wseen, p, m, c->fn);
	}
	/* Initialisation before pthread_create publishes nothing to running
	 * threads: it is no producer either; nor is a write made after the
	 * threads are joined. */
	for (int i = 0; i < s->seen_plain.n && !pre_spawn && !quiet(s); i++) {
		struct event *p = s->seen_plain.v[i];
		struct event *fence;

		if (same_object(p, m))
			continue;
		fence = fs_fence(&s->fenced, p);
		add_link(&a->producers, &a->nproducers, &a->pcap, &a->pseen, p, m, fence, c->fn,
			 !es_has(&s->pend_plain, p));
	}
	for (int i = 0; i < s->seen_reads.n && !quiet(s) && !s->calm; i++)
		if (s->seen_reads.v[i]->object && guarded(c, s->seen_reads.v[i]))
			add_relay(a, s->seen_reads.v[i], m);
}

/* P, a plain access, is reached in state S.  READER_ORDERED: a callee
 * ordered earlier reads before P.  OWN: P is an event of this function
 * (dependencies through locals are only known then). */
static void reader_check(struct fn_ctx *c, struct state *s, struct event *p, int reader_ordered,
			 int own, const struct event *call, const char *callee)
{
	struct analysis *a = c->p->out;
	int through_pointer = -1;     /* address_from_marked_read(P), asked once */

	if (!c->p->emit || !p->object || is_new(p))
		return;
	/* While no other thread runs (before the first thread creation, or
	 * after the threads are joined), reading F then accessing D is no
	 * consumer: nothing concurrent can be on the other side. */
	for (int i = 0; i < s->seen_reads.n && !quiet(s) && !s->calm; i++) {
		struct event *r = s->seen_reads.v[i];

		/* An acquire (or a later read barrier) orders P whether or not P
		 * runs on R's value: that consumer is kept, for the lockset rule
		 * (ordered_after_acquire) and the release its writer needs. */
		if (!same_object(p, r) && r->object &&
		    (!es_has(&s->pend_reads, r) || depends_on_value(c, p, r, own, call, callee)))
			add_link(&a->consumers, &a->nconsumers, &a->ccap, &a->cseen, p, r, NULL, c->fn,
				 !es_has(&s->pend_reads, r));
	}
	/* Writes count too: a control dependency does not order a later plain
	 * store in the LKMM (only an address dependency or a fence does). */
	if (reader_ordered || quiet(s))
		return;
	for (int i = 0; i < s->pend_reads.n; i++) {
		struct event *r = s->pend_reads.v[i];

		if (same_object(p, r) || !r->object || !guarded(c, r))
			continue;
		if (own && r->func == c->fn->name && depends_on(&c->derived, p, r))
			continue;   /* address dependency: ordered */
		if (call && r->func == c->fn->name && depends_through_call(&c->derived, call, callee, p, r))
			continue;   /* the same, through the callee's parameter */
		if (own && through_pointer < 0)
			through_pointer = address_from_marked_read(c, p);
		if (own && through_pointer)
			continue;   /* reached through a pointer read with a dependency */
		add_candidate(&a->readers, &a->nreaders, &a->rcap, &a->rseen, r, p, c->fn);
	}
}

/* Plain access P comes after marked writes still in S->published: if one
 * of them publishes P's object to a reader, P races with that reader.
 * Only writes written before P count: a later one reaches P around a loop,
 * from the previous round. */
static void note_late(struct fn_ctx *c, struct state *s, struct event *p)
{
	if (is_new(p))
		return;
	for (int i = 0; i < s->published.n; i++) {
		struct event *m = s->published.v[i];

		if (!same_object(p, m) && m->file && p->file && strcmp(m->file, p->file) == 0 &&
		    m->line < p->line)
			add_link(&c->p->out->late, &c->p->out->nlate, &c->p->out->lcap, &c->p->out->lseen, p, m, NULL, c->fn, 0);
	}
}

static int pre_spawn_at(struct fn_ctx *c, const struct event *e)
{
	return c->pre_spawn && c->pre_spawn[e->index];
}

/* The function CALL reaches: named, or through a function pointer whose
 * object some store in the tree gave a function's address (the first). */
static struct summary *callee_of(struct program *p, const struct event *call, const char *file)
{
	if (call->target)
		return summary_of(p, call->target, file);
	for (int i = 0; call->oid >= 0 && i < p->nfnptrs; i++)
		if (p->fnptrs[i].oid == call->oid)
			return summary_of(p, p->fnptrs[i].function, file);
	return NULL;
}

static void spawn(struct state *s)
{
	s->threads = THREADS_RUNNING;
	s->calm = 0;
}

/* KEY as a string that lives as long as the analysis' results (lock
 * records point at their locks' names). */
static const char *kept_key(struct analysis *a, const char *key)
{
	for (int i = 0; i < a->nkept; i++)
		if (strcmp(a->kept[i], key) == 0)
			return a->kept[i];
	grow(&a->kept, &a->keptcap, a->nkept + 1, sizeof *a->kept);
	return a->kept[a->nkept++] = xstrdup(key);
}

/* A call of a lock wrapper (the callee's summary says which parameter it
 * locks or unlocks) takes or releases the lock the caller passes, as
 * pthread_mutex_lock(&m) would. */
static void apply_lock_wrapper(struct fn_ctx *c, struct state *s, const struct event *call,
			       const struct summary *cs)
{
	int n = cs->lock_param >= 0 ? cs->lock_param : cs->unlock_param;
	char *arg;

	if (n < 0 || !(arg = call_argument(call, n)))
		return;
	if (strncmp(arg, "f:", 2) != 0) {
		const char *key = kept_key(c->p->out, arg);

		if (cs->lock_param >= 0) {
			ss_add(&s->locks, (char *)key);
		} else {
			kill_plain(s, writer_kills(ORD_RELEASE), NULL);
			ss_remove_lock(&s->locks, key);
		}
	}
	free(arg);
}

/* Fills SUM's lock_param and unlock_param for F, whose exit state is EXIT
 * (NULL when the exit is unreachable). */
static void find_lock_wrapper(const struct function *f, const struct state *exit, struct summary *sum)
{
	size_t kl = strlen(f->link_key);
	int lockp = -1, unlockp = -1;
	const char *locked = NULL;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];
			int n;

			if ((e->kind != EV_LOCK && e->kind != EV_UNLOCK) || !e->param_use ||
			    (n = param_use(e, f->link_key, kl)) < 0)
				continue;
			if (e->kind == EV_LOCK && lockp < 0) {
				lockp = n;
				locked = e->object;
			} else if (e->kind == EV_UNLOCK && unlockp < 0) {
				unlockp = n;
			}
		}
	sum->lock_param = sum->unlock_param = -1;
	if (lockp >= 0 && unlockp < 0 && exit && locked && ss_has(&exit->locks, locked))
		sum->lock_param = lockp;
	else if (unlockp >= 0 && lockp < 0)
		sum->unlock_param = unlockp;
}

static void apply_call(struct fn_ctx *c, struct state *s, struct event *call)
{
	struct summary *cs = callee_of(c->p, call, c->fn->file);
	struct summary *me = c->sum;
	const char *callee;
	const struct call_view *view;
	const struct evset *seen;

	if (!cs)
		return;              /* unknown callee: no effect assumed */
	callee = c->p->fns[cs - c->p->sums].link_key;
	view = call_view_of(c->p, call, cs, callee);
	for (int i = 0; i < view->entry_mwrites.n; i++) {
		const struct exposed *x = &view->entry_mwrites.v[i];
		struct event *e = x->e;

		writer_check(c, s, e, x->killed_before, pre_spawn_at(c, call));
		if (me)
			xs_add(&me->entry_mwrites, e, s->killed | x->killed_before);
	}
	for (int i = 0; i < view->entry_plain.n; i++) {
		const struct exposed *x = &view->entry_plain.v[i];
		struct event *e = x->e;

		reader_check(c, s, e, (x->killed_before & K_READER) != 0, 0, call, callee);
		if (me)
			xs_add(&me->entry_plain, e, s->killed | x->killed_before);
	}
	kill_plain(s, cs->must_kill & K_ALL, NULL);
	if (cs->must_kill & K_READER)
		kill_reads(s);
	apply_lock_wrapper(c, s, call, cs);
	/* create_thread(fn, arg) and the like: only a function that calls
	 * pthread_create itself counts (not every caller of a library
	 * function that may start a helper thread deep inside). */
	if (cs->calls_create)
		spawn(s);
	/* wait_all_threads(): a helper that joins the threads joins them for
	 * its caller too (the last thread event, as in find_quiet_entries). */
	if (c->p->joins[cs - c->p->sums])
		s->threads = THREADS_JOINED;
	/* A tested result guards the caller only with the reads it carries:
	 * futex_op(OP_WAKE) returning a constant says nothing of the futex
	 * its OP_WAIT case waits on (W14). */
	if (cs->result_tells) {
		note_origins(c, view->set[VIEW_EXIT_READS], call, 0);
		note_origins(c, view->set[VIEW_ALL_READS], call, 0);
	}
	/* (as the call sees them: a read through a parameter is a clone, or
	 * none when the caller passes a private local) */
	for (int i = 0; i < cs->waited.n; i++) {
		struct event *seen = through_call(c->p, call, callee, cs->waited.v[i]);

		if (seen)
			pairset_put(&c->origins, seen->gid, WAITED_IN_CALLEE, 1);
	}
	if (cs->returns_read && call->index >= 0 && call->index < c->nevents)
		c->returns_read[call->index] = 1;
	if (!s->calm)                 /* initialisation in a helper (see transfer) */
		es_union(&s->pend_plain, view->set[VIEW_EXIT_PLAIN]);
	es_union(&s->pend_reads, view->set[VIEW_EXIT_READS]);
	es_union(&s->seen_reads, view->set[VIEW_ALL_READS]);
	if (me) {
		es_union(&me->all_reads, view->set[VIEW_ALL_READS]);
		es_union(&me->all_mwrites, view->set[VIEW_ALL_MWRITES]);
	}
	seen = view->set[VIEW_ALL_PLAIN];
	if (!s->calm)
		es_union(&s->seen_plain, seen);
	if (me)
		es_union(&me->all_plain, seen);
	if (c->p->emit && !quiet(s) && !pre_spawn_at(c, call))
		for (int i = 0; i < seen->n; i++)
			if (seen->v[i]->object)
				record_locks(c->p->out, seen->v[i], c->fn, &s->locks,
					     !c->p->called[c->fn - c->p->fns]);
	/* die(): what the callee did happened, but nothing after the call
	 * does on this path (see transfer). */
	if (cs->noreturn)
		s->reached = 0;
}

static void transfer(struct fn_ctx *c, struct state *s, struct event *e)
{
	struct summary *me = c->sum;

	if (!s->reached)             /* after a call that never returns */
		return;

	switch (e->kind) {
	case EV_ACCESS:
		if (!e->object)
			break;
		if (!e->marked) {
			reader_check(c, s, e, 0, 1, NULL, NULL);
			if (c->p->emit && !quiet(s) && !pre_spawn_at(c, e))
				note_late(c, s, e);
			if (c->p->emit) {
				if (!quiet(s) && !pre_spawn_at(c, e))
					record_locks(c->p->out, e, c->fn, &s->locks,
						     !c->p->called[c->fn - c->p->fns]);
			}
			if (me) {
				xs_add(&me->entry_plain, e, s->killed);
				es_add(&me->all_plain, e);
			}
			/* Done before any thread exists: pthread_create orders it
			 * before everything every thread does, whatever flag they
			 * read later (also when a loop of pthread_create may run
			 * zero times): no writer-side access. */
			if (s->calm)
				break;
			es_add(&s->pend_plain, e);
			es_add(&s->seen_plain, e);
			break;
		}
		if (c->p->emit)
			record_locks(c->p->out, e, c->fn, &s->locks, !c->p->called[c->fn - c->p->fns]);
		/* A marked access orders what its own ordering covers first
		 * (a release store orders everything before it), and with
		 * smp_mb__before_atomic() before it an RMW is fully ordered. */
		if (s->mb_before_rmw && e->access == ACC_RMW) {
			kill_plain(s, K_ALL, NULL);
			kill_reads(s);
		}
		s->mb_before_rmw = 0;
		s->after_rmw = e->access == ACC_RMW;
		kill_plain(s, writer_kills(e->ord), NULL);
		if (e->access == ACC_WRITE || e->access == ACC_RMW) {
			writer_check(c, s, e, 0, pre_spawn_at(c, e));
			/* A store, or an RMW done for its effect, publishes; an RMW
			 * whose result is tested takes something (a lock). */
			if (e->access == ACC_WRITE || e->discarded)
				es_add(&s->published, e);
			if (me) {
				xs_add(&me->entry_mwrites, e, s->killed);
				es_add(&me->all_mwrites, e);
			}
		}
		/* An RMW whose result is thrown away (set_bit(...);) guards
		 * nothing: only its write half matters to the reader side. */
		if ((e->access == ACC_READ || e->access == ACC_RMW) && !e->discarded &&
		    (e->access != ACC_READ || c->used[e->index])) {
			/* A read after a publication is taken as a handshake (the
			 * consumer's acknowledgement): it ends the "late" window. */
			if (e->access == ACC_READ)
				s->published.n = 0;
			if (reader_kills(e->ord, 0))
				kill_reads(s);
			else if (e->ord == ORD_ACQUIRE || e->ord == ORD_ACQ_REL)
				kill_reads_of(s, e);
			/* The read half of a release RMW (clear_bit_unlock,
			 * xchg_release) is relaxed, but it releases a lock rather
			 * than guarding what follows: only relaxed reads count. */
			if (e->ord == ORD_RELAXED || e->ord == ORD_NONE)
				es_add(&s->pend_reads, e);
			if (c->p->emit && !quiet(s))
				for (int i = 0; i < s->seen_plain.n; i++)
					if (s->seen_plain.v[i]->access != ACC_WRITE && !same_object(s->seen_plain.v[i], e) &&
					    !is_new(s->seen_plain.v[i]))
						add_link(&c->p->out->early, &c->p->out->nearly, &c->p->out->ecap, &c->p->out->eseen,
							 s->seen_plain.v[i], e, NULL, c->fn, 0);
			es_add(&s->seen_reads, e);
			if (me)
				es_add(&me->all_reads, e);
		}
		break;
	case EV_BARRIER:
		if (e->ord == ORD_BEFORE_RMW) {
			s->mb_before_rmw = 1;
			break;
		}
		if (e->ord == ORD_AFTER_RMW) {
			if (s->after_rmw) {
				kill_plain(s, K_ALL, e);
				kill_reads(s);
			}
			break;
		}
		kill_plain(s, writer_kills(e->ord), e);
		if (reader_kills(e->ord, 1))
			kill_reads(s);
		if (is_named(e, "pthread_create")) {
			spawn(s);
			if (me)
				me->calls_create = 1;
		} else if (is_named(e, "pthread_join")) {
			s->threads = THREADS_JOINED;
		}
		break;
	case EV_LOCK:
		if (e->object)
			ss_add(&s->locks, e->object);
		break;
	case EV_UNLOCK:
		kill_plain(s, writer_kills(ORD_RELEASE), NULL);
		if (e->object)
			ss_remove_lock(&s->locks, e->object);
		break;
	case EV_CALL:
		apply_call(c, s, e);
		break;
	case EV_LOCAL:
		break;
	}
}

/* __attribute__((constructor)): extract.c marks its entry with a local
 * event named "constructor". */
static int is_constructor(const struct function *f)
{
	const struct block *b = &f->blocks[f->entry];

	return b->nevents > 0 && b->events[0].kind == EV_LOCAL && is_named(&b->events[0], "constructor");
}

/* Backward: after each event, can pthread_create come next, before any
 * pthread_join?  (On some path: a loop of pthread_create may also run
 * zero times, and initialisation before it is still initialisation.) */
static int creates_threads(struct program *p, const struct function *f, const struct event *e)
{
	struct summary *s;

	if (is_named(e, "pthread_create"))
		return 1;
	return e->kind == EV_CALL && (s = callee_of(p, e, f->file)) != NULL && s->calls_create;
}

static unsigned char *compute_pre_spawn(struct program *p, struct function *f)
{
	int maxidx = 0, changed = 1, rounds = 0;
	unsigned char *in, *out;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].index + 1 > maxidx)
				maxidx = f->blocks[b].events[i].index + 1;
	out = xcalloc(maxidx + 1, 1);
	if (is_constructor(f)) {
		/* A constructor runs before main(): all of it is initialisation
		 * done before the program's threads are created. */
		memset(out, 1, maxidx + 1);
		return out;
	}
	in = xcalloc(f->nblocks + 1, 1);
	while (changed && rounds++ < 100) {
		changed = 0;
		for (int b = f->nblocks - 1; b >= 0; b--) {
			struct block *bl = &f->blocks[b];
			int v = 0;

			if (b == f->exit)
				continue;
			for (int s = 0; s < bl->nsucc; s++)
				v |= in[bl->succ[s]];
			for (int i = bl->nevents - 1; i >= 0; i--) {
				struct event *e = &bl->events[i];

				if (e->index >= 0 && e->index < maxidx)
					out[e->index] = (unsigned char)v;
				if (creates_threads(p, f, e))
					v = 1;
				else if (is_named(e, "pthread_join"))
					v = 0;
			}
			if (in[b] != v) {
				in[b] = (unsigned char)v;
				changed = 1;
			}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_PRE_SPAWN);
	free(in);
	return out;
}

/* Does FI start with no other thread running?  Only main() is known to:
 * any other function may be a library entry point called from threads. */
static int starts_single_threaded(struct program *p, int fi)
{
	return (strcmp(p->fns[fi].name, "main") == 0 && !p->called[fi]) || is_constructor(&p->fns[fi]);
}

/* Are two event sets, or two exposed sets, the same?  Both are kept sorted
 * by gid, so the same set is the same array. */
static int es_same(const struct evset *a, const struct evset *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, (size_t)a->n * sizeof *a->v) == 0);
}

static int xs_same(const struct xset *a, const struct xset *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->v[i].e != b->v[i].e || a->v[i].killed_before != b->v[i].killed_before)
			return 0;
	return 1;
}

/*
 * The one definition of "the summary changed", used both by the call-view
 * cache (a view is valid while its callee's summary version stands) and
 * by the convergence of recursive components (a round changed something
 * when a member's version moved).  The sets are compared whole: they do
 * not only grow from one run of a function to the next (asserting that
 * they do failed on Open vSwitch: an exit set shrank), so equal sizes
 * prove nothing.
 */
static int summary_same(const struct summary *a, const struct summary *b)
{
	return a->must_kill == b->must_kill && a->calls_create == b->calls_create &&
	       a->noreturn == b->noreturn && a->returns_value == b->returns_value &&
	       a->lock_param == b->lock_param && a->unlock_param == b->unlock_param &&
	       a->returns_read == b->returns_read && a->result_tells == b->result_tells &&
	       es_same(&a->exit_plain, &b->exit_plain) && es_same(&a->exit_reads, &b->exit_reads) &&
	       es_same(&a->all_plain, &b->all_plain) && es_same(&a->all_reads, &b->all_reads) &&
	       es_same(&a->all_mwrites, &b->all_mwrites) && es_same(&a->waited, &b->waited) &&
	       xs_same(&a->entry_mwrites, &b->entry_mwrites) && xs_same(&a->entry_plain, &b->entry_plain);
}

/* Runs the dataflow of function FI to its fixpoint, then one more pass
 * over every block that records the summary and (if emitting) the facts. */
static void run_function(struct program *p, int fi)
{
	struct function *f = &p->fns[fi];
	struct state *in = xcalloc(f->nblocks, sizeof *in);
	unsigned char *pending = xcalloc(f->nblocks + 1, 1);
	struct state cur = { 0 };
	struct fn_ctx c = { .p = p, .fn = f };
	struct summary fresh = { 0 };
	int changed = 1, rounds = 0, nevents;

	compute_derived(f, &c.derived);
	nevents = event_count(f);
	c.used = value_marks(f, &c.derived, nevents, 0);
	c.nevents = nevents;
	c.by_index = xcalloc(nevents + 1, sizeof *c.by_index);
	c.returns_read = xcalloc(nevents + 1, 1);
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			struct event *e = &f->blocks[b].events[i];

			if (e->index >= 0 && e->index < nevents)
				c.by_index[e->index] = e;
			fresh.returns_value |= defines_sink(e, "?ret");
		}
	guards_compute(f, test_deps, &c, &c.guards);
	if (p->emit)
		c.pre_spawn = compute_pre_spawn(p, f);
	in[f->entry].reached = 1;
	in[f->entry].calm = starts_single_threaded(p, fi) || p->entry_calm[fi];
	in[f->entry].threads = in[f->entry].calm ? THREADS_NONE_YET :
			       p->entry_quiet[fi] ? THREADS_JOINED : THREADS_RUNNING;
	/* Sweeps in block order over the blocks whose entry state changed
	 * since they were last walked (at first only the entry): a block
	 * after a loop is not walked again for every turn of the loop. */
	pending[f->entry] = 1;
	while (changed && rounds++ < 200) {
		changed = 0;
		for (int b = 0; b < f->nblocks; b++) {
			if (!pending[b] || !in[b].reached)
				continue;
			pending[b] = 0;
			c.cur_block = b;
			state_copy(&cur, &in[b]);
			for (int i = 0; i < f->blocks[b].nevents; i++)
				transfer(&c, &cur, &f->blocks[b].events[i]);
			for (int s = 0; s < f->blocks[b].nsucc; s++)
				if (state_merge(&in[f->blocks[b].succ[s]], &cur)) {
					pending[f->blocks[b].succ[s]] = 1;
					changed = 1;
				}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_FUNCTION);
	free(pending);
	/* Final pass: summary and facts. */
	c.sum = &fresh;
	for (int b = 0; b < f->nblocks; b++) {
		if (!in[b].reached)
			continue;
		c.cur_block = b;
		state_copy(&cur, &in[b]);
		for (int i = 0; i < f->blocks[b].nevents; i++)
			transfer(&c, &cur, &f->blocks[b].events[i]);
	}
	find_lock_wrapper(f, in[f->exit].reached ? &in[f->exit] : NULL, &fresh);
	fresh.noreturn = !in[f->exit].reached;
	if (in[f->exit].reached) {
		fresh.must_kill = in[f->exit].killed;
		es_copy(&fresh.exit_plain, &in[f->exit].pend_plain);
		es_copy(&fresh.exit_reads, &in[f->exit].pend_reads);
	}
	{
		unsigned char *exported = value_marks(f, &c.derived, nevents, 1);

		keep_exported(&fresh.exit_reads, f->name, exported, nevents);
		keep_exported(&fresh.all_reads, f->name, exported, nevents);
		free(exported);
		/* (all reads: an acquire that a wait loop polls is no longer
		 * pending at the exit, but it still decides what the caller
		 * does next: wait_acquire(&a) in a relay) */
		exported = sink_marks(f, &c.derived, nevents, "?loop", &c.guards);
		for (int i = 0; i < fresh.all_reads.n; i++) {
			struct event *r = fresh.all_reads.v[i];

			if (r->func == f->name ? r->index < nevents && exported[r->index] :
			    pairset_get(&c.origins, r->gid, WAITED_IN_CALLEE) >= 0)
				es_add(&fresh.waited, r);
		}
		free(exported);
		/* The returned value carries a read: one of its own, or a call's
		 * whose callee returns one (get_head() returning READ_ONCE(head),
		 * clear_flag(rcu_dereference(p))). */
		for (int pass = 0; pass < 2; pass++) {
			/* The value returned (pass 0), or, for a function that
			 * returns one, a branch (pass 1): if (READ_ONCE(ready))
			 * return 1; says what the read saw too, without carrying
			 * its value (no dependency through it). */
			int *out = pass ? &fresh.result_tells : &fresh.returns_read;

			if (pass == 1 && !fresh.returns_value)
				break;
			exported = sink_marks(f, &c.derived, nevents, pass ? "?test" : "?ret", NULL);
			for (int i = 0; i < nevents && !*out; i++)
				*out = exported[i] && c.by_index[i] &&
				       ((c.by_index[i]->kind == EV_ACCESS && c.by_index[i]->marked &&
					 c.by_index[i]->access != ACC_WRITE) ||
					(c.by_index[i]->kind == EV_CALL && c.returns_read[i]));
			free(exported);
		}
		fresh.result_tells |= fresh.returns_read;
	}
	/* Replace the old summary. */
	{
		struct summary *old = &p->sums[fi];

		fresh.version = old->version + !summary_same(&fresh, old);
		free(old->exit_plain.v); free(old->exit_reads.v); free(old->all_plain.v);
		free(old->all_reads.v); free(old->all_mwrites.v);
		free(old->entry_mwrites.v); free(old->entry_plain.v); free(old->waited.v);
		*old = fresh;
	}
	for (int b = 0; b < f->nblocks; b++)
		state_free(&in[b]);
	state_free(&cur);
	free(in);
	free(c.pre_spawn);
	free(c.used);
	free(c.by_index);
	free(c.returns_read);
	guards_free(&c.guards);
	pairset_free(&c.origins);
	for (int i = 0; i < c.derived.n; i++)
		free(c.derived.v[i].reads);
	free(c.derived.v);
}

static int key_cmp(const void *a, const void *b, void *prog)
{
	const struct program *p = prog;

	return strcmp(p->fns[*(const int *)a].link_key, p->fns[*(const int *)b].link_key);
}

/* Is block B of F on a cycle of the CFG (inside a loop)? */
static int in_loop(const struct function *f, int b)
{
	char *seen = xcalloc(f->nblocks + 1, 1);
	int *stack = xcalloc(f->nblocks + 1, sizeof *stack), top = 0, found = 0;

	for (int i = 0; i < f->blocks[b].nsucc; i++)
		if (!seen[f->blocks[b].succ[i]]) {
			seen[f->blocks[b].succ[i]] = 1;
			stack[top++] = f->blocks[b].succ[i];
		}
	while (top && !found) {
		int cur = stack[--top];

		if (cur == b)
			found = 1;
		for (int i = 0; i < f->blocks[cur].nsucc; i++)
			if (!seen[f->blocks[cur].succ[i]]) {
				seen[f->blocks[cur].succ[i]] = 1;
				stack[top++] = f->blocks[cur].succ[i];
			}
	}
	free(seen);
	free(stack);
	return found;
}

/* The function named by pthread_create's third argument, or -1. */
static int start_routine(const struct program *p, const struct event *create)
{
	const char *a = create->args;
	char *name;
	size_t n = 0;
	int found = -1;

	for (int k = 0; k < 2 && a; k++) {
		a = strchr(a, '\x1f');
		if (a)
			a++;
	}
	if (!a)
		return -1;
	while (*a == '&' || *a == ' ' || *a == '(')
		a++;
	while (a[n] && a[n] != '\x1f' && a[n] != ')' && a[n] != ' ')
		n++;
	name = xmalloc(n + 1);
	memcpy(name, a, n);
	name[n] = '\0';
	for (int i = 0; i < p->nfns && found < 0; i++)
		if (strcmp(p->fns[i].name, name) == 0 && strcmp(p->fns[i].file, create->file) == 0)
			found = i;
	for (int i = 0; i < p->nfns && found < 0; i++)
		if (strcmp(p->fns[i].name, name) == 0)
			found = i;
	free(name);
	return found;
}

/* A way one function starts activations of another: a call, or a thread
 * creation (pthread_create, or a call of a thread-creating wrapper). */
struct start_edge { int from, to, create, loop; };

static int count_args(const struct event *call)
{
	int n = call->args ? 1 : 0;

	for (const char *a = call->args; a && (a = strchr(a, '\x1f')) != NULL; a++)
		n++;
	return n;
}

static void add_edge(struct start_edge **v, int *n, int *cap, int from, int to, int create, int loop)
{
	grow(v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = (struct start_edge){ from, to, create, loop };
}

/* Does wrapper call CALL (NARGS arguments) pass the address of an element
 * of a global array picked by a local index (create_thread(fn, &cp[i]):
 * the argument is the array's object, and depends on a local, "#N=i")? */
static int passes_an_element(const struct event *call, int nargs)
{
	for (int a = 0; a < nargs; a++) {
		char *arg = call_argument(call, a), tag[16];
		int element;

		snprintf(tag, sizeof tag, ",#%d=", a);
		element = arg && strncmp(arg, "c:@", 3) == 0 && call->uses && strstr(call->uses, tag);
		free(arg);
		if (element)
			return 1;
	}
	return 0;
}

struct param_ctx { struct deriv_map *m; int found; };

static void check_param_item(const char *item, void *arg)
{
	struct param_ctx *c = arg;
	struct derived *d;

	if (item[0] == '~')
		return;          /* a value stored, not the address */
	if (item[0] == '$') {
		c->found = 1;
		return;
	}
	d = dm_get(c->m, item, 0);
	for (int i = 0; d && i < d->n; i++)
		c->found |= d->reads[i] == PARAM_SOURCE;
}

/* Start routine F gets, from every creation, its own element of an array
 * (pthread_create(&t[i], 0, thr, &ctx[i])), written by the creator before
 * the creation orders it: what the thread accesses through its argument
 * is its own and races with nothing until it publishes it, like fresh
 * memory (is_new).  Marks those accesses: the address comes from the
 * parameter, directly or through locals copied from it. */
static void mark_thread_owned(struct function *f)
{
	struct deriv_map m = { 0 };

	compute_derived(f, &m);
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			struct event *e = &f->blocks[b].events[i];
			struct param_ctx c = { &m, 0 };

			if (e->kind != EV_ACCESS || e->marked || !e->object)
				continue;
			for_each_use(e->uses, check_param_item, &c);
			if (c.found)
				e->fresh_init = 1;
		}
	for (int i = 0; i < m.n; i++)
		free(m.v[i].reads);
	free(m.v);
}

/* Which functions run as threads (p->started), and the creations that
 * start them (*EDGES, *N; the caller frees them): pthread_create of a
 * function of the tree, or a call of a thread-creating wrapper.
 *
 * A function whose pthread_create starts no function of the tree starts
 * its own function-pointer parameter: it is a thread-creating wrapper
 * (create_thread(fn, arg) in perfbook's and liburcu's test harnesses), and
 * each call of it creates the functions passed to it ("f:KEY" arguments). */
static struct start_edge *find_starts(struct program *p, int *n)
{
	char *started = xcalloc(p->nfns + 1, 1), *wrapper = xcalloc(p->nfns + 1, 1);
	unsigned char *own_arg = xmalloc((size_t)p->nfns + 1);
	struct start_edge *edges = NULL;
	int cap = 0;

	memset(own_arg, 1, (size_t)p->nfns + 1);

	*n = 0;
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++)
				if (is_named(&p->fns[fi].blocks[b].events[i], "pthread_create") &&
				    start_routine(p, &p->fns[fi].blocks[b].events[i]) < 0)
					wrapper[fi] = 1;
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++) {
			int loop = -1;

			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];
				struct summary *s;
				int t = -1;

				if (is_named(e, "pthread_create") && (t = start_routine(p, e)) >= 0) {
					char *arg = call_argument(e, 3);

					if (loop < 0)
						loop = in_loop(&p->fns[fi], b);
					add_edge(&edges, n, &cap, fi, t, 1, loop);
					started[t] = 1;
					own_arg[t] &= arg && arg[0] == '&' && strchr(arg, '[') != NULL;
					free(arg);
					continue;
				}
				if (e->kind != EV_CALL || !(s = callee_of(p, e, p->fns[fi].file)) || !wrapper[s - p->sums])
					continue;
				for (int a = 0, nargs = count_args(e); a < nargs; a++) {
					char *arg = call_argument(e, a);
					struct summary *r;

					if (arg && strncmp(arg, "f:", 2) == 0 &&
					    (r = summary_of(p, arg + 2, p->fns[fi].file)) != NULL && r != s) {
						if (loop < 0)
							loop = in_loop(&p->fns[fi], b);
						add_edge(&edges, n, &cap, fi, (int)(r - p->sums), 1, loop);
						started[r - p->sums] = 1;
						own_arg[r - p->sums] &= passes_an_element(e, nargs);
					}
					free(arg);
				}
			}
		}
	p->started = started;
	for (int fi = 0; fi < p->nfns; fi++)
		if (started[fi] && own_arg[fi])
			mark_thread_owned(&p->fns[fi]);
	free(own_arg);
	free(wrapper);
	return edges;
}

/* How many activations of each function may run at once: 1, or 2 for
 * "several".  Counted per thread, not per call: the calls one thread
 * makes run one after the other (main() calling run() twice, or in a
 * loop, is one activation at a time), so a function runs as many times at
 * once as the threads that reach it (its roots, find_thread_roots) are
 * running.  main() and constructors run once; a start routine as often as
 * it is created (a creation in a loop, or by a function that itself runs
 * several times, counts as several); an entry point that nothing in the
 * tree calls or creates (a library API) may run in several threads.
 * Pairing a function's writer pattern with its own reader pattern needs
 * two activations.  EDGES (N) are the creations (find_starts). */
/* Is function FI main()?  (Each program of a tree has its own, and two of
 * them never run in one process.) */
static int is_program_main(const struct function *fns, int fi)
{
	return strcmp(fns[fi].name, "main") == 0;
}

static void count_instances(struct program *p, const struct start_edge *edges, int n)
{
	unsigned char *inst = p->out->instances, *per_root = xcalloc(p->nfns + 1, 1);
	const struct analysis *a = p->out;
	int changed = 1, rounds = 0;

	/* Monotone from below: every count only grows, up to 2. */
	while (changed && rounds++ < 50) {
		changed = 0;
		for (int r = 0; r < p->nfns; r++) {
			unsigned v;

			if (a->unknown_root[r])
				v = 2;
			else if (strcmp(p->fns[r].name, "main") == 0 || is_constructor(&p->fns[r]))
				v = 1;
			else
				v = 0;
			for (int k = 0; k < n; k++)
				if (edges[k].to == r)
					v += edges[k].loop || edges[k].from == r ? 2 : inst[edges[k].from];
			if (p->started[r] && v == 0)
				v = 1;          /* created by code not known to run yet */
			if (v > 2)
				v = 2;
			if (v != per_root[r]) {
				per_root[r] = (unsigned char)v;
				changed = 1;
			}
		}
		for (int f = 0; f < p->nfns; f++) {
			const struct thread_roots *roots = &a->roots[f];
			unsigned v = 0, mains = 0;

			if (roots->many || roots->n == 0)
				v = 2;      /* (no root: reached from nowhere known) */
			/* The main()s of different programs never run together:
			 * they count once, whatever their number. */
			for (int i = 0; i < roots->n && v < 2; i++)
				if (is_program_main(p->fns, roots->v[i]))
					mains = 1;
				else
					v += per_root[roots->v[i]];
			v += mains;
			if (v > 2)
				v = 2;
			if (v > inst[f]) {
				inst[f] = (unsigned char)v;
				changed = 1;
			}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_INSTANCES);
	free(per_root);
}

/* ---- functions that only run while no other thread does ---- */

/* Is E a direct thread creation, or a call of a function that creates
 * threads itself (create_thread(fn, arg))?  A direct pthread_join, or a
 * call of a function that joins threads itself (wait_all_threads())? */
static int event_creates(struct program *p, const struct function *f, const struct event *e)
{
	struct summary *s;

	return is_named(e, "pthread_create") ||
	       (e->kind == EV_CALL && (s = callee_of(p, e, f->file)) && p->creates[s - p->sums]);
}

static int event_joins(struct program *p, const struct function *f, const struct event *e)
{
	struct summary *s;

	return is_named(e, "pthread_join") ||
	       (e->kind == EV_CALL && (s = callee_of(p, e, f->file)) && p->joins[s - p->sums]);
}

/* The thread state at the entry of function FI, as find_quiet_entries
 * left it (calm implies THREADS_NONE_YET). */
struct entry_state { unsigned char calm, threads; };

/* Walks FI's CFG from its entry state (must-calm, greatest thread state,
 * as in the main dataflow) and weakens the entry state of each callee
 * to what this function's call sites of it allow; a callee whose entry
 * changed goes to WORK unless it is there. */
static void weaken_callee_entries(struct program *p, int fi, struct entry_state *entry,
				 const unsigned char *eligible, int *work, int *nwork, unsigned char *queued)
{
	struct function *f = &p->fns[fi];
	struct entry_state *in = xcalloc(f->nblocks + 1, sizeof *in);
	unsigned char *reached = xcalloc(f->nblocks + 1, 1), *pending = xcalloc(f->nblocks + 1, 1);
	int changed = 1, rounds = 0;

	in[f->entry] = entry[fi];
	reached[f->entry] = pending[f->entry] = 1;
	while (changed && rounds++ < 200) {
		changed = 0;
		for (int b = 0; b < f->nblocks; b++) {
			struct entry_state cur;

			if (!pending[b])
				continue;
			pending[b] = 0;
			cur = in[b];
			for (int i = 0; i < f->blocks[b].nevents; i++) {
				struct event *e = &f->blocks[b].events[i];
				struct summary *s;

				if (e->kind == EV_CALL && (s = callee_of(p, e, f->file)) != NULL) {
					int g = (int)(s - p->sums);
					struct entry_state *ge = &entry[g];

					if (eligible[g] && ((ge->calm && !cur.calm) || ge->threads < cur.threads)) {
						ge->calm &= cur.calm;
						if (ge->threads < cur.threads)
							ge->threads = cur.threads;
						if (!queued[g]) {
							queued[g] = 1;
							work[(*nwork)++] = g;
						}
					}
				}
				if (event_joins(p, f, e)) {
					cur.threads = THREADS_JOINED;
					cur.calm = 0;    /* (something was created before) */
				} else if (event_creates(p, f, e)) {
					cur.threads = THREADS_RUNNING;
					cur.calm = 0;
				}
			}
			for (int k = 0; k < f->blocks[b].nsucc; k++) {
				int t = f->blocks[b].succ[k];
				struct entry_state old = in[t];

				if (!reached[t]) {
					in[t] = cur;
				} else {
					in[t].calm &= cur.calm;
					if (in[t].threads < cur.threads)
						in[t].threads = cur.threads;
				}
				if (!reached[t] || old.calm != in[t].calm || old.threads != in[t].threads) {
					reached[t] = pending[t] = 1;
					changed = 1;
				}
			}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_ENTRIES);
	free(in);
	free(reached);
	free(pending);
}

/* Functions called only while no other thread runs: setup() that main()
 * calls before its first pthread_create is initialisation, like main's
 * own code there, and a report() called after the threads are joined is
 * quiet.  Each such function's entry state is the weakest over all its
 * call sites (a worklist from main() and the constructors down the call
 * graph; states only weaken, so it ends).  Thread start routines, entry
 * points and functions whose address is taken (they may be called from
 * anywhere: a signal handler, a callback) are never such functions.
 * Fills p->entry_calm and p->entry_quiet. */
static void find_quiet_entries(struct program *p)
{
	int n = p->nfns, nwork = 0;
	struct entry_state *entry = xcalloc(n + 1, sizeof *entry);
	unsigned char *eligible = xcalloc(n + 1, 1), *queued = xcalloc(n + 1, 1);
	int *work = xcalloc(n + 1, sizeof *work);

	p->creates = xcalloc(n + 1, 1);
	p->joins = xcalloc(n + 1, 1);
	for (int fi = 0; fi < n; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];

				p->creates[fi] |= is_named(e, "pthread_create");
				p->joins[fi] |= is_named(e, "pthread_join");
			}
	for (int fi = 0; fi < n; fi++)
		eligible[fi] = p->called[fi] && !p->started[fi] && strcmp(p->fns[fi].name, "main") != 0;
	for (int fi = 0; fi < n; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];

				for (int a = 0, nargs = e->kind == EV_CALL ? count_args(e) : 0; a < nargs; a++) {
					char *arg = call_argument(e, a);
					struct summary *r;

					if (arg && strncmp(arg, "f:", 2) == 0 &&
					    (r = summary_of(p, arg + 2, p->fns[fi].file)) != NULL)
						eligible[r - p->sums] = 0;
					free(arg);
				}
			}
	for (int i = 0; i < p->nfnptrs; i++) {
		struct summary *r = summary_of(p, p->fnptrs[i].function, NULL);

		if (r)
			eligible[r - p->sums] = 0;
	}
	for (int fi = n - 1; fi >= 0; fi--) {
		if (eligible[fi])        /* until a call site says otherwise */
			entry[fi] = (struct entry_state){ 1, THREADS_NONE_YET };
		else
			entry[fi] = (struct entry_state){ (unsigned char)starts_single_threaded(p, fi), THREADS_RUNNING };
		if (entry[fi].calm)
			entry[fi].threads = THREADS_NONE_YET;
		work[nwork++] = fi;
		queued[fi] = 1;
	}
	/* A function's entry only gets weaker, and it is walked again each
	 * time it does, so its call sites pass the weaker state on. */
	while (nwork) {
		int fi = work[--nwork];

		queued[fi] = 0;
		weaken_callee_entries(p, fi, entry, eligible, work, &nwork, queued);
	}
	p->entry_calm = xcalloc(n + 1, 1);
	p->entry_quiet = xcalloc(n + 1, 1);
	for (int fi = 0; fi < n; fi++) {
		p->entry_calm[fi] = eligible[fi] && entry[fi].calm;
		p->entry_quiet[fi] = eligible[fi] && entry[fi].threads != THREADS_RUNNING;
	}
	free(entry);
	free(eligible);
	free(queued);
	free(work);
}

/* Marks the functions that some call in the tree reaches. */
static void find_called(struct program *p)
{
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];
				struct summary *s;

				if (e->kind == EV_CALL && (s = callee_of(p, e, p->fns[fi].file)))
					p->called[s - p->sums] = 1;
			}
}

/* A call from function CALLER to function CALLEE (indexes of fns). */
struct call_edge { int caller, callee; };

/* Every call of the tree whose callee is known, in function order; *N
 * gets their number.  The caller frees the array. */
static struct call_edge *call_edges(struct program *p, int *n)
{
	struct call_edge *edges = NULL;
	int cap = 0;

	*n = 0;
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];
				struct summary *cs;

				if (e->kind != EV_CALL || !(cs = callee_of(p, e, p->fns[fi].file)))
					continue;
				grow(&edges, &cap, *n + 1, sizeof *edges);
				edges[*n].caller = fi;
				edges[(*n)++].callee = (int)(cs - p->sums);
			}
	return edges;
}

/* The most rounds over a recursive component before its summaries count
 * as final: recursion through many functions could otherwise grow them
 * for long, and a summary that is still growing by then is nearly
 * complete.  (Summaries only grow, so rounds end when nothing changes.) */
#define MAX_SUMMARY_RUNS 12

static int *new_heads(int n);

/* Summaries, then facts, for the functions of one strongly connected
 * component of the call graph (MEMBERS, N of them), whose callees outside
 * it are all final.  A function that calls no function of its own
 * component is analysed once, facts included; a recursive component is
 * run to a fixpoint first (bounded by MAX_SUMMARY_RUNS rounds), then once
 * more recording facts. */
static void solve_component(struct program *p, const int *members, int n, int recursive)
{
	int changed = recursive, rounds = 0;

	p->emit = 0;
	while (changed && rounds++ < MAX_SUMMARY_RUNS) {
		changed = 0;
		for (int i = 0; i < n; i++) {
			unsigned before = p->sums[members[i]].version;

			run_function(p, members[i]);
			changed |= p->sums[members[i]].version != before;
		}
	}
	if (changed)
		analysis_cap_hit(CAP_SUMMARY);
	p->emit = 1;
	for (int i = 0; i < n; i++)
		run_function(p, members[i]);
}

/* Computes every function's summary and records the facts.  A function's
 * summary depends only on those of its callees, so the call graph's
 * strongly connected components are solved callees first (Tarjan's
 * algorithm, iterative: call chains can be deep, and it yields the
 * components in that order): most functions are then analysed once. */
static void solve_summaries(struct program *p)
{
	int n = p->nfns, nedges, next_index = 0, top = 0, tsp = 0;
	struct call_edge *edges = call_edges(p, &nedges);
	int *out_head = new_heads(n), *out_next = new_heads(nedges);
	int *index = new_heads(n), *low = xcalloc(n + 1, sizeof *low);
	int *calls = xcalloc(n + 1, sizeof *calls), *cursor = xcalloc(n + 1, sizeof *cursor);
	int *tarjan = xcalloc(n + 1, sizeof *tarjan), *members = xcalloc(n + 1, sizeof *members);
	unsigned char *on_stack = xcalloc(n + 1, 1), *self_call = xcalloc(n + 1, 1);

	for (int k = nedges - 1; k >= 0; k--) {
		out_next[k] = out_head[edges[k].caller];
		out_head[edges[k].caller] = k;
		if (edges[k].caller == edges[k].callee)
			self_call[edges[k].caller] = 1;
	}
	for (int root = 0; root < n; root++) {
		if (index[root] >= 0)
			continue;
		index[root] = low[root] = next_index++;
		tarjan[tsp++] = root;
		on_stack[root] = 1;
		cursor[root] = out_head[root];
		calls[top++] = root;
		while (top) {
			int f = calls[top - 1], k = cursor[f];

			if (k >= 0) {
				int g = edges[k].callee;

				cursor[f] = out_next[k];
				if (index[g] < 0) {
					index[g] = low[g] = next_index++;
					tarjan[tsp++] = g;
					on_stack[g] = 1;
					cursor[g] = out_head[g];
					calls[top++] = g;
				} else if (on_stack[g] && index[g] < low[f]) {
					low[f] = index[g];
				}
				continue;
			}
			top--;
			if (top && low[f] < low[calls[top - 1]])
				low[calls[top - 1]] = low[f];
			if (low[f] == index[f]) {
				int m = 0, g;

				do {
					g = tarjan[--tsp];
					on_stack[g] = 0;
					members[m++] = g;
				} while (g != f);
				solve_component(p, members, m, m > 1 || self_call[f]);
			}
		}
	}
	free(edges); free(out_head); free(out_next); free(index); free(low);
	free(calls); free(cursor); free(tarjan); free(members); free(on_stack);
	free(self_call);
}

static int add_root(struct thread_roots *r, int root)
{
	if (r->many)
		return 0;
	for (int i = 0; i < r->n; i++)
		if (r->v[i] == root)
			return 0;
	if (r->n == MAX_THREAD_ROOTS)
		r->many = 1;
	else
		r->v[r->n++] = root;
	return 1;
}

/* Fills out->roots and out->unknown_root (struct analysis): each entry
 * point is a root of itself, and a callee inherits its callers' roots (a
 * worklist over the call edges; pthread_create starts a root instead). */
static void find_thread_roots(struct program *p)
{
	int n = p->nfns, nedges, *queue = xcalloc(n + 1, sizeof *queue);
	int qhead = 0, qlen = 0, *head = new_heads(n), *next;
	struct call_edge *edges;
	unsigned char *queued = xcalloc(n + 1, 1);
	struct analysis *a = p->out;

	a->roots = xcalloc(n + 1, sizeof *a->roots);
	a->unknown_root = xcalloc(n + 1, 1);
	edges = call_edges(p, &nedges);
	next = new_heads(nedges);
	for (int k = nedges - 1; k >= 0; k--) {
		next[k] = head[edges[k].caller];
		head[edges[k].caller] = k;
	}
	for (int fi = 0; fi < n; fi++) {
		int is_main = strcmp(p->fns[fi].name, "main") == 0;

		if (!p->called[fi] || p->started[fi] || is_main || is_constructor(&p->fns[fi])) {
			a->unknown_root[fi] = !p->called[fi] && !p->started[fi] && !is_main &&
					      !is_constructor(&p->fns[fi]);
			add_root(&a->roots[fi], fi);
			queue[qlen++] = fi;
			queued[fi] = 1;
		}
	}
	while (qlen) {
		int f = queue[qhead];

		qhead = (qhead + 1) % (n + 1);
		qlen--;
		queued[f] = 0;
		for (int k = head[f]; k >= 0; k = next[k]) {
			struct thread_roots *to = &a->roots[edges[k].callee];
			int changed = 0;

			if (a->roots[f].many && !to->many)
				changed = to->many = 1;
			for (int i = 0; i < a->roots[f].n; i++)
				changed |= add_root(to, a->roots[f].v[i]);
			if (changed && !queued[edges[k].callee]) {
				queued[edges[k].callee] = 1;
				queue[(qhead + qlen++) % (n + 1)] = edges[k].callee;
			}
		}
	}
	free(edges);
	free(head);
	free(next);
	free(queue);
	free(queued);
}

int may_run_concurrently(const struct analysis *a, const struct function *f, const struct function *g)
{
	const struct thread_roots *x = &a->roots[f - a->fns], *y = &a->roots[g - a->fns];

	if (x->many || y->many || x->n == 0 || y->n == 0)
		return 1;
	for (int i = 0; i < x->n; i++)
		if (a->unknown_root[x->v[i]])
			return 1;
	for (int j = 0; j < y->n; j++)
		if (a->unknown_root[y->v[j]])
			return 1;
	for (int i = 0; i < x->n; i++)
		for (int j = 0; j < y->n; j++) {
			if (x->v[i] != y->v[j] && is_program_main(a->fns, x->v[i]) &&
			    is_program_main(a->fns, y->v[j]))
				continue;       /* two programs' main() threads */
			if (x->v[i] != y->v[j] || a->instances[x->v[i]] >= 2)
				return 1;
		}
	return 0;
}

static void build_indexes(struct analysis *a, int ngids);

void analyse(struct function *fns, int nfns, struct analysis *out)
{
	struct program p = { 0 };
	int *order = xcalloc(nfns + 1, sizeof *order), nstarts;
	struct start_edge *starts;

	memset(out, 0, sizeof *out);
	analysis_caps_reset();
	p.fns = fns;
	p.nfns = nfns;
	p.out = out;
	p.sums = xcalloc(nfns + 1, sizeof *p.sums);
	p.keys = xcalloc(nfns + 1, sizeof *p.keys);
	p.key_fn = xcalloc(nfns + 1, sizeof *p.key_fn);
	p.called = xcalloc(nfns + 1, sizeof *p.called);
	for (int i = 0; i < nfns; i++)
		order[i] = i;
	qsort_r(order, nfns, sizeof *order, key_cmp, &p);
	for (int i = 0; i < nfns; i++) {
		p.keys[i] = fns[order[i]].link_key;
		p.key_fn[i] = order[i];
	}
	scope_program_globals(&p);
	number_events(&p);
	mark_fresh_inits(fns, nfns, function_index, &p);
	find_called(&p);
	out->instances = xcalloc(nfns + 1, 1);
	out->fns = fns;
	starts = find_starts(&p, &nstarts);
	find_thread_roots(&p);
	count_instances(&p, starts, nstarts);
	free(starts);
	find_quiet_entries(&p);
	solve_summaries(&p);
	build_indexes(out, p.next_gid);
	for (int i = 0; i < nfns; i++) {
		struct summary *s = &p.sums[i];
		free(s->exit_plain.v); free(s->exit_reads.v); free(s->all_plain.v);
		free(s->all_reads.v); free(s->all_mwrites.v);
		free(s->entry_mwrites.v); free(s->entry_plain.v); free(s->waited.v);
	}
	free(p.objects.slots);
	free(p.fnptrs);
	free(p.clones.slots);
	for (int i = 0; i < p.nviews; i++)
		if (p.views[i]) {
			for (int k = 0; k < NVIEWS; k++)
				free(p.views[i]->copy[k].v);
			free(p.views[i]->entry_mwrites.v);
			free(p.views[i]->entry_plain.v);
			free(p.views[i]);
		}
	free(p.views);
	free(p.sums);
	free(p.keys);
	free(p.key_fn);
	free(p.called);
	free(p.started);
	free(p.creates);
	free(p.joins);
	free(p.entry_calm);
	free(p.entry_quiet);
	free(order);
}

static const struct link *sort_links;

static int by_flag_and_data(const void *x, const void *y)
{
	const struct link *a = &sort_links[*(const int *)x], *b = &sort_links[*(const int *)y];

	if (a->marked->oid != b->marked->oid)
		return a->marked->oid < b->marked->oid ? -1 : 1;
	if (a->plain->oid != b->plain->oid)
		return a->plain->oid < b->plain->oid ? -1 : 1;
	return *(const int *)x - *(const int *)y;   /* stable: first found first */
}

static int *sorted_links(const struct link *links, int n)
{
	int *idx = xcalloc(n + 1, sizeof *idx);

	for (int i = 0; i < n; i++)
		idx[i] = i;
	sort_links = links;
	qsort(idx, n, sizeof *idx, by_flag_and_data);
	sort_links = NULL;
	return idx;
}

static int *new_heads(int n)
{
	int *h = xmalloc((size_t)(n + 1) * sizeof *h);

	for (int i = 0; i <= n; i++)
		h[i] = -1;
	return h;
}

/* Fills caller_locks, ncaller_locks and first_complete (struct analysis)
 * from the records and rec_head lists. */
static void index_caller_locks(struct analysis *a)
{
	a->caller_locks = xcalloc((size_t)a->ngids + 1, sizeof *a->caller_locks);
	a->ncaller_locks = xcalloc((size_t)a->ngids + 1, sizeof *a->ncaller_locks);
	a->first_complete = new_heads(a->ngids);
	for (int g = 0; g < a->ngids; g++) {
		const char **v = NULL;
		int n = 0, cap = 0;

		for (int i = a->rec_head[g]; i >= 0; i = a->rec_next[i]) {
			const struct lock_record *r = &a->records[i];

			if (r->complete) {
				if (a->first_complete[g] < 0)
					a->first_complete[g] = i;
				continue;
			}
			for (int k = 0; k < r->nlocks; k++) {
				int dup = 0;

				for (int j = 0; j < n && !dup; j++)
					dup = strcmp(v[j], r->locks[k]) == 0;
				if (!dup) {
					grow(&v, &cap, n + 1, sizeof *v);
					v[n++] = r->locks[k];
				}
			}
		}
		a->caller_locks[g] = v;
		a->ncaller_locks[g] = n;
	}
}

/* Builds the indexes pairing uses (see struct analysis). */
static void build_indexes(struct analysis *a, int ngids)
{
	a->ngids = ngids;
	a->rec_head = new_heads(ngids);
	a->rec_next = new_heads(a->nrecords);
	a->obj_head = new_heads(a->nobjects);
	a->obj_next = new_heads(a->nrecords);
	for (int i = a->nrecords - 1; i >= 0; i--) {
		struct lock_record *r = &a->records[i];

		a->rec_next[i] = a->rec_head[r->e->gid];
		a->rec_head[r->e->gid] = i;
		if (r->complete && !r->e->marked && r->e->oid >= 0) {
			a->obj_next[i] = a->obj_head[r->e->oid];
			a->obj_head[r->e->oid] = i;
		}
	}
	index_caller_locks(a);
	a->fwd_head = new_heads(a->nobjects);
	a->bwd_head = new_heads(a->nobjects);
	a->fwd_next = new_heads(a->nrelays);
	a->bwd_next = new_heads(a->nrelays);
	for (int i = a->nrelays - 1; i >= 0; i--) {
		a->fwd_next[i] = a->fwd_head[a->relays[i].from_oid];
		a->fwd_head[a->relays[i].from_oid] = i;
		a->bwd_next[i] = a->bwd_head[a->relays[i].to_oid];
		a->bwd_head[a->relays[i].to_oid] = i;
	}
	a->cons_sorted = sorted_links(a->consumers, a->nconsumers);
	a->cons_by_plain_head = new_heads(ngids);
	a->cons_by_plain_next = new_heads(a->nconsumers);
	for (int i = a->nconsumers - 1; i >= 0; i--) {
		a->cons_by_plain_next[i] = a->cons_by_plain_head[a->consumers[i].plain->gid];
		a->cons_by_plain_head[a->consumers[i].plain->gid] = i;
	}
	a->prod_sorted = sorted_links(a->producers, a->nproducers);
	a->lock_cache = xmalloc((size_t)a->nobjects + 1);
	memset(a->lock_cache, -1, (size_t)a->nobjects + 1);
}

int runs_concurrently_with_itself(const struct analysis *a, const struct function *fn)
{
	return a->instances[fn - a->fns] >= 2;
}

void analysis_free(struct analysis *a)
{
	for (int i = 0; i < a->nkept; i++)
		free(a->kept[i]);
	free(a->kept);
	free(a->writers);
	free(a->readers);
	free(a->producers);
	free(a->consumers);
	free(a->early);
	pairset_free(&a->wseen);
	pairset_free(&a->rseen);
	pairset_free(&a->pseen);
	pairset_free(&a->cseen);
	pairset_free(&a->eseen);
	pairset_free(&a->lseen);
	pairset_free(&a->relseen);
	pairset_free(&a->recseen);
	free(a->late);
	free(a->instances);
	free(a->roots);
	free(a->unknown_root);
	free(a->rec_head);
	free(a->rec_next);
	for (int g = 0; a->caller_locks && g < a->ngids; g++)
		free(a->caller_locks[g]);
	free(a->caller_locks);
	free(a->ncaller_locks);
	free(a->first_complete);
	free(a->obj_head);
	free(a->obj_next);
	free(a->fwd_head);
	free(a->fwd_next);
	free(a->bwd_head);
	free(a->bwd_next);
	free(a->cons_sorted);
	free(a->cons_by_plain_head);
	free(a->cons_by_plain_next);
	free(a->prod_sorted);
	free(a->lock_cache);
	free(a->relays);
	for (int i = 0; i < a->nclones; i++) {
		free(a->clones[i]->object);
		free(a->clones[i]->display);
		free(a->clones[i]);
	}
	free(a->clones);
	for (int i = 0; i < a->nrecords; i++)
		free(a->records[i].locks);
	free(a->records);
	memset(a, 0, sizeof *a);
}
