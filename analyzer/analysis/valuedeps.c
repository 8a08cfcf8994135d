/* analyzer/analysis/valuedeps.c — value dependencies inside one function:
 * which marked reads each local's value comes from (flow-insensitively),
 * which accesses depend on a read through their address or stored value,
 * and which reads' values are used at all or leave the function. */
#include "internal.h"

void dm_free(struct deriv_map *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->v[i].reads);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

/* The entry of local number LOCAL in M, or NULL (no local: -1). */
struct derived *dm_get(struct deriv_map *m, int local)
{
	return local >= 0 && local < m->n ? &m->v[local] : NULL;
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

/* Adds to TARGET the sources of item D of a local's value (in map M):
 * 1 when TARGET grew. */
static int add_source(struct deriv_map *m, struct derived *target, const struct dep_item *d)
{
	int changed = 0;

	if (d->role != DEP_ADDRESS)
		return 0;
	if (d->kind == DEP_PARAM) {
		changed |= dm_add(target, PARAM_SOURCE);
	} else if (d->kind == DEP_EVENT) {
		changed |= dm_add(target, d->n);
	} else if (d->kind == DEP_LOCAL) {
		struct derived *src = dm_get(m, d->local);

		if (src && src != target)
			for (int i = 0; i < src->n; i++)
				changed |= dm_add(target, src->reads[i]);
	}
	return changed;
}

/* Is argument ARG of call E (of function F) the address of F's private
 * local D names: get(&r), "#ARG=r" with the argument's object "l:F:r"? */
static int passes_local(const struct function *f, const struct event *e, const struct dep_item *d, int arg)
{
	return arg < e->argv.n && e->argv.v[arg] && d->name &&
	       object_is_local_of(e->argv.v[arg], &e->argv.ref[arg], f->link_key, d->name);
}

/* Flow-insensitively, which marked reads (by event index) can each local's
 * value come from, and whether a parameter's can (PARAM_SOURCE): a small
 * fixpoint over the local assignments and, with STORES_READ, over the
 * calls that store a read into a local whose address they are passed. */
void compute_derived_through_calls(const struct function *f, struct deriv_map *m,
				   int (*stores_read)(const void *ctx, const struct event *call, int arg), const void *ctx)
{
	int changed = 1, rounds = 0, nevents = stores_read ? event_count(f) : 0;

	m->n = f->nlocals;
	m->v = xcalloc((size_t)m->n + 1, sizeof *m->v);
	while (changed && rounds++ < 20) {
		changed = 0;
		for (int b = 0; b < f->nblocks; b++)
			for (int i = 0; i < f->blocks[b].nevents; i++) {
				const struct event *e = &f->blocks[b].events[i];
				struct derived *target;

				if (e->kind == EV_CALL && stores_read && e->index >= 0) {
					for (int k = 0; k < e->deps.n; k++) {
						const struct dep_item *d = &e->deps.v[k];

						if (d->role == DEP_ARGUMENT && d->kind == DEP_LOCAL &&
						    (target = dm_get(m, d->local)) && passes_local(f, e, d, d->arg) &&
						    stores_read(ctx, e, d->arg))
							changed |= dm_add(target, OUT_SOURCE(nevents, e->index));
					}
				}
				if (e->kind != EV_LOCAL || !(target = dm_get(m, e->def_local)))
					continue;
				for (int k = 0; k < e->deps.n; k++)
					changed |= add_source(m, target, &e->deps.v[k]);
			}
	}
	if (changed)
		analysis_cap_hit(CAP_DERIVED);
}

void compute_derived(const struct function *f, struct deriv_map *m)
{
	compute_derived_through_calls(f, m, NULL, NULL);
}

/* The last definition of local LOCAL (an EV_LOCAL event defining it)
 * among the first BEFORE events of block B of F, or NULL. */
static const struct event *last_definition(const struct function *f, int b, int before, int local)
{
	for (int i = before - 1; i >= 0; i--)
		if (f->blocks[b].events[i].kind == EV_LOCAL && f->blocks[b].events[i].def_local == local)
			return &f->blocks[b].events[i];
	return NULL;
}

/* Reaching definitions of one local (reaching_definition). */
struct local_defs {
	int local;
	int skip;        /* the block of the use: entering it reaches the use */
};

/* Does block B of F define LD's local (and is it not the use's block)? */
static int defines_local_in(const struct function *f, int b, const void *ctx)
{
	const struct local_defs *ld = ctx;

	return b != ld->skip && last_definition(f, b, f->blocks[b].nevents, ld->local);
}

/* The definition of local LOCAL (an EV_LOCAL event defining it) that
 * reaches the event at (B, K) of F when it is the only one that does, and
 * no path from the function's entry reaches the event without passing a
 * definition; else NULL.  (A retry loop's local, readers = *lock at entry
 * and again at the loop's end: a test before the loop sees the first
 * only; the loop's own test sees both.) */
const struct event *reaching_definition(const struct function *f, int b, int k, int local)
{
	struct local_defs ld = { local, b };
	const struct event *found = NULL, *last = last_definition(f, b, k, local);

	/* the last definition before it in its own block hides the others */
	if (last)
		return last;
	/* (a path from the entry that defines nothing: an unset value) */
	if (f->entry == b || (!defines_local_in(f, f->entry, &ld) &&
			      successors_reach_avoiding(f, f->entry, b, defines_local_in, &ld)))
		return NULL;
	for (int d = 0; d < f->nblocks; d++) {
		last = last_definition(f, d, f->blocks[d].nevents, local);
		if (!last || !successors_reach_avoiding(f, d, b, defines_local_in, &ld))
			continue;
		if (found)
			return NULL;         /* two reach it */
		found = last;
	}
	return found;
}

/* Does the value of D's source (a local of map M, or an event) come
 * from the event of index READ? */
static int source_is(struct deriv_map *m, const struct dep_item *d, int read)
{
	if (d->kind == DEP_EVENT)
		return d->n == read;
	if (d->kind == DEP_LOCAL) {
		struct derived *l = dm_get(m, d->local);

		for (int i = 0; l && i < l->n; i++)
			if (l->reads[i] == read)
				return 1;
	}
	return 0;
}

/* Is plain access P ordered after marked read R (both in the function
 * whose map is M: the indexes are the function's own; "@N" in P's uses
 * may name a call) by a dependency: its address depends on R's value, or,
 * for a store, the value it stores does (its DEP_VALUE items,
 * extract_expr.c and extract_primitive.c: they order it as an address dependency would)? */
/* (ADDRESS_ONLY: the address alone; a value stored counts only for
 * ordering, not for reaching P through R's pointer) */
static int depends_by(struct deriv_map *m, const struct event *p, const struct event *r, int address_only)
{
	for (int k = 0; k < p->deps.n; k++) {
		const struct dep_item *d = &p->deps.v[k];

		if ((d->role == DEP_ADDRESS || (!address_only && d->role == DEP_VALUE && p->access == ACC_WRITE)) &&
		    source_is(m, d, r->index))
			return 1;
	}
	return 0;
}

int stored_value_any(struct deriv_map *m, const struct event *w, int (*pred)(const void *ctx, int index),
		     const void *ctx)
{
	for (int k = 0; k < w->deps.n; k++) {
		const struct dep_item *d = &w->deps.v[k];
		const struct derived *l;

		if (d->role != DEP_VALUE)
			continue;
		if (d->kind == DEP_EVENT && pred(ctx, d->n))
			return 1;
		if (d->kind == DEP_LOCAL && (l = dm_get(m, d->local)) != NULL)
			for (int i = 0; i < l->n; i++)
				if (pred(ctx, l->reads[i]))
					return 1;
	}
	return 0;
}

/* (stored_value_any) Is INDEX the one *CTX names? */
static int is_index(const void *ctx, int index)
{
	return index == *(const int *)ctx;
}

int stores_value_of(struct deriv_map *m, const struct event *w, const struct event *r)
{
	return stored_value_any(m, w, is_index, &r->index);
}

/* (stored_value_any) Any source at all. */
static int any_source(const void *ctx, int index)
{
	(void)ctx;
	(void)index;
	return 1;
}

int value_copies(const struct function *f, struct deriv_map *m, const struct event ***out)
{
	int n = 0, cap = 0;

	*out = NULL;
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *w = &f->blocks[b].events[i];

			if (w->kind == EV_ACCESS && w->access == ACC_WRITE && !w->marked && w->display &&
			    stored_value_any(m, w, any_source, NULL)) {
				grow(out, &cap, n + 1, sizeof **out);
				(*out)[n++] = w;
			}
		}
	return n;
}

int depends_on(struct deriv_map *m, const struct event *p, const struct event *r)
{
	return depends_by(m, p, r, 0);
}

int address_depends_on(struct deriv_map *m, const struct event *p, const struct event *r)
{
	return depends_by(m, p, r, 1);
}

/* Does the address of P, an access of CALLEE seen through CALL, depend on
 * marked read R of the caller (map M) through the argument CALL passes
 * for the parameter P's address comes from?  (One call deep: "$CALLEE:N"
 * in P's uses, "#N=..." in the call's.) */
int depends_through_call(struct deriv_map *m, const struct event *call, const char *callee,
				const struct event *p, const struct event *r)
{
	int n;

	if (!p->param_use || (n = param_use(p, callee)) < 0)
		return 0;
	for (int k = 0; k < call->deps.n; k++) {
		const struct dep_item *d = &call->deps.v[k];

		if (d->role == DEP_ARGUMENT && d->arg == n && source_is(m, d, r->index))
			return 1;
	}
	return 0;
}

/* Does item D name a source of a value: a local or an event, in any role
 * (a stored value's "~ITEM" and a call argument's "#N=ITEM" name ITEM)?
 * Parameters and the marks of fresh memory name none. */
int names_value(const struct dep_item *d)
{
	return d->kind == DEP_LOCAL || d->kind == DEP_EVENT;
}

/* Marks in USED (N entries, by event index) the reads that the value of
 * item D comes from (map M). */
static void mark_item(struct deriv_map *m, const struct dep_item *d, unsigned char *used, int n)
{
	if (!names_value(d))
		return;
	if (d->kind == DEP_EVENT) {
		if (d->n < n)
			used[d->n] = 1;
	} else {
		struct derived *l = dm_get(m, d->local);

		for (int i = 0; l && i < l->n; i++)
			if (l->reads[i] >= 0 && l->reads[i] < n)
				used[l->reads[i]] = 1;
	}
}

/* mark_item for every item of E. */
static void mark_items(struct deriv_map *m, const struct event *e, unsigned char *used, int n)
{
	for (int k = 0; k < e->deps.n; k++)
		mark_item(m, &e->deps.v[k], used, n);
}

/* One more than the largest event index of F: the size of the arrays
 * indexed by event index. */
int event_count(const struct function *f)
{
	int n = 0;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].index >= n)
				n = f->blocks[b].events[i].index + 1;
	return n;
}

int defines_sink(const struct event *e, enum value_sink sink)
{
	return e->kind == EV_LOCAL && e->sink == sink;
}

/* Per event index of F (N events): does the value of that marked read
 * reach SINK: "?loop", a loop of F waits for it (while (!READ_ONCE(flag))
 * ;), and whatever F's callers do after the call runs only once F has
 * seen the value it waited for, whether or not F returns it; "?ret", F
 * returns it (or a value computed from it).  With ALWAYS, only sinks in
 * blocks that run on every path count: a wait loop in one case of a
 * switch (compat_futex_async's FUTEX_WAIT) does not wait for a caller
 * that asks for FUTEX_WAKE. */
unsigned char *sink_marks(const struct function *f, struct deriv_map *m, int n, enum value_sink sink,
				 const struct guards *always)
{
	unsigned char *used = xcalloc((size_t)n + 1, 1);

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (defines_sink(&f->blocks[b].events[i], sink) && (!always || guards_always_runs(always, b)))
				mark_items(m, &f->blocks[b].events[i], used, n);
	return used;
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
unsigned char *value_marks(const struct function *f, struct deriv_map *m, int n, int exported)
{
	int returns_value = 0;
	unsigned char *used = xcalloc((size_t)n + 1, 1);

	for (int b = 0; b < f->nblocks && exported; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			returns_value |= defines_sink(&f->blocks[b].events[i], SINK_RETURN);
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];
			int sink;

			if (!exported)
				sink = (e->kind == EV_LOCAL && e->sink != SINK_NONE && e->sink != SINK_LOCAL) ||
				       e->kind == EV_CALL || e->kind == EV_ACCESS;
			else
				sink = defines_sink(e, SINK_RETURN) || defines_sink(e, SINK_LOOP) ||
				       (returns_value && defines_sink(e, SINK_TEST)) ||
				       e->kind == EV_CALL || (e->kind == EV_ACCESS && e->access != ACC_READ);
			if (sink)
				mark_items(m, e, used, n);
		}
	return used;
}

/* Per event index of F (N of them), does the value decide something: is
 * it tested by a branch or a loop, or returned (its caller may test it),
 * itself, through locals, or as an argument of a call whose result is?  A
 * read whose value only goes to a call for its effect (close(xchg(&fd,
 * -1))) or into memory decides nothing here. */
unsigned char *decision_marks(const struct function *f, struct deriv_map *m, int n)
{
	unsigned char *decides = xcalloc((size_t)n + 1, 1);
	const struct event **calls = NULL;
	int ncalls = 0, cap = 0, changed = 1;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];

			if (defines_sink(e, SINK_TEST) || defines_sink(e, SINK_LOOP) || defines_sink(e, SINK_RETURN))
				mark_items(m, e, decides, n);
			else if (e->kind == EV_CALL && e->index >= 0 && e->index < n) {
				grow(&calls, &cap, ncalls + 1, sizeof *calls);
				calls[ncalls++] = e;
			}
		}
	/* (a call's result that decides carries its arguments' values: a
	 * few rounds for calls nested in calls) */
	for (int round = 0; round < 4 && changed; round++) {
		changed = 0;
		for (int k = 0; k < ncalls; k++)
			if (decides[calls[k]->index] == 1) {
				decides[calls[k]->index] = 2;     /* (its arguments marked) */
				mark_items(m, calls[k], decides, n);
				changed = 1;
			}
	}
	free(calls);
	return decides;
}

/* Drops from SET the reads of F (name NAME) whose value EXPORTED says
 * does not leave F. */
void keep_exported(struct evset *set, const char *name, const unsigned char *exported, int n)
{
	int k = 0;

	for (int i = 0; i < set->n; i++) {
		struct event *r = set->v[i];

		if (r->func != name || r->index >= n || exported[r->index])
			set->v[k++] = r;
	}
	set->n = k;
}

/* Is the address item D names computed from a parameter (map M)? */
int from_param(struct deriv_map *m, const struct dep_item *d)
{
	struct derived *l;

	if (d->role != DEP_ADDRESS)
		return 0;          /* a value stored, not the address */
	if (d->kind == DEP_PARAM)
		return 1;
	l = d->kind == DEP_LOCAL ? dm_get(m, d->local) : NULL;
	for (int i = 0; l && i < l->n; i++)
		if (l->reads[i] == PARAM_SOURCE)
			return 1;
	return 0;
}

int reached_by_plain_loads(const struct function *fn, const struct event *d)
{
	struct deriv_map m = { 0 };
	int locals = 0, plain = 1;

	if (!fn || !d->func || strcmp(d->func, fn->name) != 0)
		return 0;
	compute_derived((struct function *)fn, &m);
	for (int k = 0; k < d->deps.n && plain; k++) {
		const struct dep_item *i = &d->deps.v[k];
		struct derived *l;

		if (i->role != DEP_ADDRESS)
			continue;
		if (i->kind == DEP_EVENT || i->kind == DEP_PARAM) {
			plain = 0;
		} else if (i->kind == DEP_LOCAL) {
			l = dm_get(&m, i->local);
			plain = !l || l->n == 0;
			locals++;
		}
	}
	dm_free(&m);
	return plain && locals > 0;
}
