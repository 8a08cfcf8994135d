/* analyzer/analysis/callview.c — a callee as one call sees it: the callee
 * found from the call (summary_of), objects numbered, and the callee's
 * events whose object is a pointer parameter replaced by what the caller
 * passed (through_call), kept per call between runs (call_view_of). */
#include "internal.h"

#include <limits.h>

/* The number of object KEY, adding it (KEY must outlive the analysis). */
int intern_object(struct program *p, const char *key)
{
	int added;
	intptr_t *oid = hashmap_put_str(&p->objects, key, &added);

	if (added)
		*oid = p->out->nobjects++;
	return (int)*oid;
}

/* Argument N of CALL as the caller's object key, or NULL (with its
 * parsed form in *REF when REF is not NULL). */
const char *call_argument(const struct event *call, int n, const struct object_ref **ref)
{
	if (n < 0 || n >= call->argv.n)
		return NULL;
	if (ref)
		*ref = &call->argv.ref[n];
	return call->argv.v[n];
}

/* The link key of the function CALL passes as argument N ("f:KEY"), or
 * NULL. */
const char *passed_function(const struct event *call, int n)
{
	const struct object_ref *ref;
	const char *arg = call_argument(call, n, &ref);

	/* "f:KEY" runs to the end of the key: the rest of ARG is KEY */
	return arg && ref->kind == OBJ_FUNCTION ? arg + ref->fn_off : NULL;
}

/* The parameter of CALLEE that E's address is computed from ("$CALLEE:N"
 * in its uses), or -1. */
int param_use(const struct event *e, const char *callee)
{
	for (int k = 0; k < e->deps.n; k++) {
		const struct dep_item *d = &e->deps.v[k];

		if (d->role == DEP_ADDRESS && d->kind == DEP_PARAM && strcmp(d->name, callee) == 0)
			return d->n;
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

/* The callee's own event that E copies through a chain of calls: E
 * itself unless E is a clone. */
const struct event *clone_root_of(struct program *p, const struct event *e)
{
	intptr_t *r = hashmap_get(&p->clone_root, hashmap_pair(e->gid, 0));

	return r ? (const struct event *)*r : e;
}

void *carry_to_clones(struct program *p, void *v, int *n, size_t elem, const void *fill)
{
	const struct analysis *a = p->out;
	char *arr = xrealloc(v, ((size_t)p->next_gid + 1) * elem);

	for (int g = *n; g <= p->next_gid; g++)
		memcpy(arr + (size_t)g * elem, fill, elem);
	for (int i = 0; i < a->nclones; i++) {
		const struct event *c = a->clones[i], *root = clone_root_of(p, c);

		if (c->gid >= *n && c->gid < p->next_gid && root->gid >= 0 && root->gid < *n)
			memcpy(arr + (size_t)c->gid * elem, arr + (size_t)root->gid * elem, elem);
	}
	*n = p->next_gid;
	return arr;
}

/* Notes that clone C copies E (through one more call). */
static void note_clone(struct program *p, const struct event *c, const struct event *e)
{
	*hashmap_put(&p->clone_root, hashmap_pair(c->gid, 0), NULL) = (intptr_t)clone_root_of(p, e);
}

/*
 * Recursion made the whole-tree analysis of Open vSwitch's lib/ run out of
 * memory: through_call makes one clone per (call, event), so that in a
 * recursive component (parse_odp_action__ -> parse_action_list ->
 * parse_odp_action__, passing a parameter on) every round of the
 * component's fixpoint cloned the clones of the round before, and its
 * summaries grew fivefold per round (150 000 events, then 770 000, then
 * 3.2 million) until the round cap, never settling.
 *
 * A clone is a callee's access seen on the object one call passes; two
 * clones through the same call of the same original access, on the same
 * object, with the same fresh-memory flag and the same initialising
 * access behind them (orig), are the same access seen the same way: only
 * the path of calls inside the callee that led to them differs.  So a
 * clone is looked up by what it stands for and made once: the clones are
 * then finite (each call passes finitely many objects), and a recursive
 * component's summaries settle.  Outside recursion nothing is merged: a
 * clone of a callee's own event is the only one of its original through
 * that call (its object follows from the call and the event), and a
 * chained clone's original is an event of a function further down.
 * (Inside, a clone that came round the recursion is the first clone of
 * the same access: count_a(&sum) reaching *total += 1 directly and through
 * count_b is one access to sum, not one per turn.)
 *
 * The slot of the clone of E through CALL on OBJ; *SLOT is NULL until the
 * clone is made.  Valid until the next canonical_slot.
 */
static struct event **canonical_slot(struct program *p, const struct event *call,
				     const struct event *e, const char *obj, int fresh_init)
{
	const struct event *root = clone_root_of(p, e);
	size_t len;
	char *key;
	intptr_t *slot;
	int added;

	len = strlen(obj) + 64;
	key = xmalloc(len);
	snprintf(key, len, "%d %d %d %d %s", call->gid, root->gid, fresh_init,
		 e->orig ? e->orig->gid : -1, obj);
	slot = hashmap_put_str(&p->canon, key, &added);
	if (!added) {
		free(key);
	} else {
		grow(&p->canon_keys, &p->canoncap, p->ncanon + 1, sizeof *p->canon_keys);
		p->canon_keys[p->ncanon++] = key;
	}
	return (struct event **)slot;
}

/* E as an initialising access, for a call that passes fresh memory. */
static struct event *fresh_clone(struct program *p, struct event *e)
{
	struct event *c = xmalloc(sizeof *c);

	*c = *e;                     /* strings other than object and display are shared */
	c->object = xstrdup(e->object);   /* (obj holds offsets: still right) */
	c->display = e->display ? xstrdup(e->display) : NULL;
	c->gid = p->next_gid++;
	c->fresh_init = 1;
	c->orig = e->orig ? e->orig : e;
	note_clone(p, c, e);
	grow(&p->out->clones, &p->out->clonecap, p->out->nclones + 1, sizeof *p->out->clones);
	p->out->clones[p->out->nclones++] = c;
	return c;
}

/* ---- W14: the branches of a callee that a constant argument rules out
 * (the front end's conditions and constant arguments: extract_guards.c) */

/* The value CALL passes as its argument N, when known: 1 with *NUL (a
 * null pointer) or *V (an integer constant); else 0. */
static int known_argument(const struct event *call, int n, int *nul, long long *v)
{
	*nul = 0;
	*v = 0;
	for (int k = 0; k < call->conds.n; k++)
		if (call->conds.v[k].role == DEP_ARGUMENT && call->conds.v[k].arg == n) {
			*v = call->conds.v[k].value;
			return 1;
		}
	for (int k = 0; k < call->deps.n; k++)
		if (call->deps.v[k].role == DEP_ARGUMENT && call->deps.v[k].arg == n && call->deps.v[k].kind == DEP_NULL)
			return *nul = 1;
	return 0;
}

/* Does a condition of E's on its function's parameters fail for what
 * CALL passes (E being an event of the function CALL calls)? */
static int fails_for(const struct event *call, const struct event *e)
{
	for (int k = 0; k < e->conds.n; k++) {
		const struct dep_item *g = &e->conds.v[k];
		long long v;
		int nul, equal;

		if (g->role != DEP_GUARD || !known_argument(call, g->arg, &nul, &v))
			continue;
		/* (a null pointer is 0; a constant against a null test: 0 is) */
		equal = g->kind == DEP_NULL ? (nul || v == 0) : (nul ? g->value == 0 : v == g->value);
		if (equal == g->differs)
			return 1;
	}
	return 0;
}

/* The view being made by this thread (call_view_of), while its call's
 * constant arguments may rule events out (CALL NULL otherwise): the
 * callee FN, and per function, 1 when they rule out every way the callee
 * reaches it (RULED_OUT NULL: none, only the callee's own events may go). */
static _Thread_local struct {
	unsigned char *ruled_out;
	int fn;
	const struct event *call;
} making;

void find_guarded_functions(struct program *p)
{
	p->guarded = xcalloc((size_t)p->nfns + 1, 1);
	for (int fi = 0; fi < p->nfns; fi++) {
		*hashmap_put(&p->fn_by_name, (uint64_t)(uintptr_t)p->fns[fi].name, NULL) = fi;
		for (int b = 0; b < p->fns[fi].nblocks && !p->guarded[fi]; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				const struct event *e = &p->fns[fi].blocks[b].events[i];

				for (int k = 0; k < e->conds.n; k++)
					p->guarded[fi] |= e->conds.v[k].role == DEP_GUARD;
			}
	}
}

/* The index of the function named by NAME (an event's func: its
 * function's own name string), or -1. */
static int function_of(const struct program *p, const char *name)
{
	intptr_t *i = name ? hashmap_get(&p->fn_by_name, (uint64_t)(uintptr_t)name) : NULL;

	return i ? (int)*i : -1;
}

/* The functions FI reaches through its calls (IN: 1), following from FI
 * only the calls CALL does not rule out when RULE. */
static void reach(struct program *p, int fi, const struct event *call, int rule, unsigned char *in)
{
	int *stack = xcalloc((size_t)p->nfns + 1, sizeof *stack), top = 0;

	in[fi] = 1;
	stack[top++] = fi;
	while (top) {
		int g = stack[--top];

		for (int b = 0; b < p->fns[g].nblocks; b++)
			for (int i = 0; i < p->fns[g].blocks[b].nevents; i++) {
				const struct event *e = &p->fns[g].blocks[b].events[i];
				struct summary *s;

				if (e->kind != EV_CALL || (rule && g == fi && fails_for(call, e)) ||
				    !(s = callee_of(p, e, &p->fns[g])) || in[s - p->sums])
					continue;
				in[s - p->sums] = 1;
				stack[top++] = (int)(s - p->sums);
			}
	}
	free(stack);
}

/* Does some call event of function FI fail for CALL's arguments? */
static int fails_a_call(const struct program *p, const struct event *call, int fi)
{
	const struct function *f = &p->fns[fi];

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].kind == EV_CALL && fails_for(call, &f->blocks[b].events[i]))
				return 1;
	return 0;
}

/* Prepares ruled_out for the view CALL has of function FI (making); none
 * when the call rules out nothing (it passes no known argument, or FI
 * tests none of its parameters). */
static void rule_out_for(struct program *p, const struct event *call, int fi)
{
	int known = 0;
	unsigned char *all, *live;

	making.call = NULL;
	for (int k = 0; k < call->conds.n && !known; k++)
		known = call->conds.v[k].role == DEP_ARGUMENT;
	for (int k = 0; k < call->deps.n && !known; k++)
		known = call->deps.v[k].role == DEP_ARGUMENT && call->deps.v[k].kind == DEP_NULL;
	if (!known || !p->guarded || !p->guarded[fi])
		return;
	making.ruled_out = NULL;
	making.fn = fi;
	making.call = call;
	/* Other functions go only when a call of FI fails for the arguments
	 * (more than half the time none does: then FI's own events are all
	 * that is asked about, and the two walks of everything FI reaches
	 * were most of the cost of making views on Open vSwitch). */
	if (!fails_a_call(p, call, fi))
		return;
	/* A function stays when some call that is not ruled out reaches it;
	 * one that none of FI's calls reaches (an event brought in some
	 * other way) stays too. */
	all = xcalloc((size_t)p->nfns + 1, 1);
	live = xcalloc((size_t)p->nfns + 1, 1);
	reach(p, fi, call, 0, all);
	reach(p, fi, call, 1, live);
	for (int g = 0; g < p->nfns; g++)
		all[g] = all[g] && !live[g];
	free(live);
	making.ruled_out = all;
}

/* Is E out of the view being made: an event of the callee whose
 * condition fails for the call's arguments, or of a function that the
 * callee reaches only through calls that do? */
static int ruled_out(const struct program *p, const struct event *e)
{
	int g;

	/* (no other function out: only the callee's own events, whose func
	 * is the callee's name string) */
	if (!making.ruled_out)
		return e->func == p->fns[making.fn].name && fails_for(making.call, e);
	g = function_of(p, e->func);
	if (g < 0)
		return 0;
	return (g == making.fn && fails_for(making.call, e)) || making.ruled_out[g];
}

static void rule_out_done(void)
{
	free(making.ruled_out);
	making.ruled_out = NULL;
	making.call = NULL;
}

/* The slot of (CALL, E) in p->clones, added when there is none.  With
 * follower threads (split.c) the leader, the only thread that adds, adds
 * under the shared lock (the followers read the map meanwhile). */
static intptr_t *clone_slot(struct program *p, const struct event *call, const struct event *e, int *added)
{
	uint64_t key = hashmap_pair(call->gid, e->gid);
	intptr_t *slot;

	if (!p->out->shared_lock)
		return hashmap_put(&p->clones, key, added);
	if ((slot = hashmap_get(&p->clones, key)) != NULL) {
		*added = 0;
		return slot;
	}
	pthread_mutex_lock(p->out->shared_lock);
	slot = hashmap_put(&p->clones, key, added);
	pthread_mutex_unlock(p->out->shared_lock);
	return slot;
}

/* A follower's through_call (split.c): the same run of the leader made
 * every clone it asks for, so it is found, never made. */
static struct event *found_clone(struct program *p, const struct event *call, const struct event *e)
{
	intptr_t *slot;
	struct event *c;

	pthread_mutex_lock(p->out->shared_lock);
	slot = hashmap_get(&p->clones, hashmap_pair(call->gid, e->gid));
	c = slot ? (struct event *)*slot : NULL;
	pthread_mutex_unlock(p->out->shared_lock);
	if (!slot) {
		fputs("kcsan-scan: internal error: a follower thread of the analysis ran ahead of its leader\n", stderr);
		abort();
	}
	return c;
}

/* A private local ("l:FUNCTION:v", extract_pointee.c) is never shared: a
 * callee's accesses through the parameter that receives it are dropped
 * (below), like the caller's own accesses to it; so are those through a
 * parameter of the caller that only ever receives private memory
 * (privparams.c: a local passed down a chain of calls).
 *
 * E as seen from CALL into CALLEE: itself, or, when E's object is one of
 * the callee's pointer parameters, a copy on the object the caller passed
 * (NULL when the caller passed nothing we know). */
struct event *through_call(struct program *p, const struct event *call, const char *callee,
				  struct event *e)
{
	intptr_t *cached;
	int added;
	struct event *c;
	const char *obj;
	const struct object_ref *ref;
	int is_param;

	if (making.call == call && ruled_out(p, e))
		return NULL;
	if (!e->object)
		return e;
	is_param = object_is_param_of(e->object, &e->obj, callee);
	if (!is_param && !e->param_use)
		return e;
	if (!is_param) {
		/* b->v with b parameter N ("$CALLEE:N" in uses): the field of
		 * every instance, unless the caller passes a private local.
		 * Worked out afresh each time (a few comparisons: cheaper than
		 * a look-up in a map of millions of (call, event) pairs, which
		 * was a fifth of the analysis of Open vSwitch); only a copy
		 * made for initialisation is kept, to stay the same event. */
		int n = param_use(e, callee);

		if (private_argument(p, call, n))
			return NULL;
		if (!initialises(call, e))
			return e;
		if (split_following())
			return found_clone(p, call, e);
		cached = clone_slot(p, call, e, &added);
		if (added)
			*cached = (intptr_t)fresh_clone(p, e);
		return (struct event *)*cached;
	}
	/* A copy on the caller's object depends only on (CALL, E): it is
	 * cached, since the fixpoint asks the same question at every run. */
	if (split_following())
		return found_clone(p, call, e);
	cached = clone_slot(p, call, e, &added);
	if (!added)
		return (struct event *)*cached;
	/* (the slot stays valid: nothing below adds to the map) */
	obj = call_argument(call, e->obj.param, &ref);
	if (obj && (ref->kind == OBJ_FUNCTION || private_argument(p, call, e->obj.param)))
		obj = NULL;
	c = NULL;
	if (obj) {
		int fresh_init = e->fresh_init | initialises(call, e);
		struct event **canon = canonical_slot(p, call, e, obj, fresh_init);

		if (*canon) {
			c = *canon;
		} else {
			c = xmalloc(sizeof *c);
			*c = *e;                 /* strings other than object and display are shared */
			c->object = xstrdup(obj);
			c->obj = *ref;
			c->display = readable_object(obj);   /* not a raw USR in messages */
			c->gid = p->next_gid++;
			c->oid = intern_object(p, obj);
			c->fresh_init = fresh_init;
			grow(&p->out->clones, &p->out->clonecap, p->out->nclones + 1, sizeof *p->out->clones);
			p->out->clones[p->out->nclones++] = c;
			note_clone(p, c, e);
			*canon = c;
		}
	}
	*cached = (intptr_t)c;
	return c;
}

/* Can a call see E, an event of the summary of CALLEE, as another event
 * (through_call: a copy on the caller's object, or none), a rule-out
 * aside?  Only when E's object is one of CALLEE's pointer parameters, or
 * its address is computed from one, or it may initialise fresh memory a
 * caller passes.  It depends on E and CALLEE alone, so it is worked out
 * once per summary (note_movable) rather than at every call: most events
 * of a big callee's sets stay themselves at every call.  (Asking
 * through_call about every event at every call: 1.9 to 2.2 s of the
 * leader's 5.4 s of runs on Open vSwitch; asking about these only: 1.6
 * to 1.8 s, the lists included.) */
static int may_move(const struct event *e, const char *callee)
{
	if (!e->object)
		return 0;
	if (object_is_param_of(e->object, &e->obj, callee))
		return 1;
	return e->param_use && (param_use(e, callee) >= 0 || (e->fresh_param > 0 && !e->fresh_init));
}

static struct event *set_event(const void *set, int k, int i)
{
	return k < NVIEWS ? ((const struct evset *)set)->v[i] : ((const struct xset *)set)->v[i].e;
}

/* Fills S->movable for the summary of function CALLEE (link key): once
 * per version, when a call first makes a view of it (a function no call
 * reaches never needs it). */
static void note_movable(struct summary *s, const char *callee)
{
	const void *sets[NVIEW_SETS] = { &s->exit_plain, &s->exit_reads, &s->all_reads, &s->all_mwrites,
					  &s->all_plain, &s->after_spawn, &s->entry_mwrites, &s->entry_plain };

	for (int k = 0; k < NVIEW_SETS; k++) {
		int n = k < NVIEWS ? ((const struct evset *)sets[k])->n : ((const struct xset *)sets[k])->n;
		struct intset *m = &s->movable[k];

		m->n = 0;
		for (int i = 0; i < n; i++)
			if (may_move(set_event(sets[k], k, i), callee)) {
				grow(&m->v, &m->cap, m->n + 1, sizeof *m->v);
				m->v[m->n++] = i;       /* (in order: sorted) */
			}
	}
}

/* SET as seen through CALL (see through_call): SET itself when no event
 * in it changes (most sets: no parameter in them), else a copy in
 * SCRATCH.  MOVABLE lists the positions of the events that may change
 * (summary.movable), or is NULL for all of them. */
static const struct evset *set_through_call(struct program *p, const struct event *call,
					    const char *callee, const struct evset *set,
					    const struct intset *movable, struct evset *scratch)
{
	int m = 0, n = movable ? movable->n : set->n, i = 0;

	scratch->n = 0;
	for (; m < n; m++) {
		i = movable ? movable->v[m] : m;
		if (through_call(p, call, callee, set->v[i]) != set->v[i])
			break;
	}
	if (m == n)
		return set;
	grow(&scratch->v, &scratch->cap, set->n, sizeof *scratch->v);
	memcpy(scratch->v, set->v, (size_t)i * sizeof *scratch->v);
	scratch->n = i;
	/* The rest appended, then sorted once: inserting each in order moved
	 * the array once per event (quadratic in the callee's set).  (The
	 * event at I is asked again: through_call answers the same.) */
	for (; i < set->n; i++) {
		struct event *e = set->v[i];

		if (m < n && (movable ? movable->v[m] : m) == i) {
			e = through_call(p, call, callee, e);
			m++;
		}
		if (e)
			scratch->v[scratch->n++] = e;
	}
	es_sort_unique(scratch);
	return scratch;
}

/* The exposed set SET as seen through CALL (see through_call): SET itself
 * when no event in it may change (MOVABLE as for set_through_call), else
 * a copy in OUT. */
static const struct xset *xset_through_call(struct program *p, const struct event *call, const char *callee,
					    const struct xset *set, const struct intset *movable,
					    struct xset *out)
{
	int m = 0;

	if (movable && movable->n == 0)
		return set;
	out->n = 0;
	grow(&out->v, &out->cap, set->n, sizeof *out->v);
	for (int i = 0; i < set->n; i++) {
		struct event *e = set->v[i].e;

		if (!movable || (m < movable->n && movable->v[m] == i)) {
			e = through_call(p, call, callee, e);
			m++;
		}
		if (e) {
			out->v[out->n].e = e;
			out->v[out->n++].killed_before = set->v[i].killed_before;
		}
	}
	return out;
}

/* The locks callee CS holds at each event of the view V of CALL has of
 * its all_plain (call_view.held_at): the summary's own array when the
 * view is the summary's own set; else each of the callee's accesses
 * mapped through the call as the set was (two accesses seen as one that
 * hold different sets hold none: that pairs more, never less). */
static void held_through_call(struct program *p, const struct event *call, const char *callee,
			      const struct summary *cs, struct call_view *v)
{
	const struct evset *seen = v->set[VIEW_ALL_PLAIN];

	v->held_at = NULL;
	if (!cs->held.at)
		return;
	if (seen == &cs->all_plain) {
		v->held_at = cs->held.at;
		return;
	}
	v->held_copy = xrealloc(v->held_copy, ((size_t)seen->n + 1) * sizeof *v->held_copy);
	for (int j = 0; j < seen->n; j++)
		v->held_copy[j] = UINT_MAX;
	for (int i = 0; i < cs->all_plain.n; i++) {
		struct event *e = through_call(p, call, callee, cs->all_plain.v[i]);
		int j = e ? es_index(seen, e) : -1;

		if (j >= 0)
			v->held_copy[j] = v->held_copy[j] == UINT_MAX || v->held_copy[j] == cs->held.at[i] ?
					  cs->held.at[i] : 0;
	}
	for (int j = 0; j < seen->n; j++)
		if (v->held_copy[j] == UINT_MAX)
			v->held_copy[j] = 0;
	v->held_at = v->held_copy;
}

/* The view slot of CALL for callee CS: the call's own slot, or for a
 * target of a call through a pointer other than its first (other_callees)
 * one chained to it, made on first use.  (A slot whose callee differs is
 * made again by the caller.) */
static struct call_view *target_view(struct program *p, const struct event *call, const struct summary *cs)
{
	struct call_view **slot = &p->views[call->gid];
	int others;

	if (*slot && (*slot)->of != cs && other_callees(p, call, &others) && others)
		for (slot = &(*slot)->next_target; *slot && (*slot)->of != cs; slot = &(*slot)->next_target)
			;
	if (!*slot)
		*slot = xcalloc(1, sizeof **slot);
	return *slot;
}

/* The view CALL has of CS, the summary of CALLEE (struct call_view). */
const struct call_view *call_view_of(struct program *p, const struct event *call,
				     struct summary *cs, const char *callee)
{
	struct call_view *v;
	const struct intset *movable;
	const struct evset *sets[NVIEWS] = { &cs->exit_plain, &cs->exit_reads, &cs->all_reads,
					     &cs->all_mwrites, &cs->all_plain, &cs->after_spawn };

	if (call->gid >= p->nviews) {
		int n = call->gid + 1024;

		p->views = realloc(p->views, (size_t)n * sizeof *p->views);
		if (!p->views)
			abort();
		memset(p->views + p->nviews, 0, (size_t)(n - p->nviews) * sizeof *p->views);
		p->nviews = n;
	}
	v = target_view(p, call, cs);
	if (v->of == cs && v->version == cs->version)
		return v;
	v->of = cs;
	v->version = cs->version;
	if (cs->movable_of != cs->version + 1) {
		note_movable(cs, callee);
		cs->movable_of = cs->version + 1;
	}
	rule_out_for(p, call, (int)(cs - p->sums));
	/* (a rule-out may drop any event: then every one is asked) */
	movable = making.call ? NULL : cs->movable;
	for (int k = 0; k < NVIEWS; k++)
		v->set[k] = set_through_call(p, call, callee, sets[k], movable ? &movable[k] : NULL, &v->copy[k]);
	v->entry_mwrites = xset_through_call(p, call, callee, &cs->entry_mwrites,
					     movable ? &movable[VIEW_ENTRY_MWRITES] : NULL, &v->entry_copy[0]);
	v->entry_plain = xset_through_call(p, call, callee, &cs->entry_plain,
					   movable ? &movable[VIEW_ENTRY_PLAIN] : NULL, &v->entry_copy[1]);
	held_through_call(p, call, callee, cs, v);
	rule_out_done();
	return v;
}

/* Frees the views of the calls of function FI (the leader's runs and the
 * followers' of it are over: no run asks for them again).  A view holds
 * copies of its callee's sets, so the views of the whole tree took more
 * memory than the summaries (Open vSwitch: 586 MB); freed as the solver
 * goes, that memory serves the next functions. */
void free_call_views(struct program *p, int fi)
{
	const struct function *f = &p->fns[fi];

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];

			if (e->kind == EV_CALL && e->gid >= 0 && e->gid < p->nviews) {
				free_view_chain(p->views[e->gid]);
				p->views[e->gid] = NULL;
			}
		}
}

void free_view_chain(struct call_view *v)
{
	for (struct call_view *next; v; v = next) {
		next = v->next_target;
		for (int k = 0; k < NVIEWS; k++)
			free(v->copy[k].v);
		free(v->entry_copy[0].v);
		free(v->entry_copy[1].v);
		free(v->held_copy);
		free(v);
	}
}

/* How well candidate definition C of a called name suits a call made
 * from FROM: defined in FROM's own translation unit when FROM is a
 * harness header's copy (its program's op(), not another program's); in
 * FROM's file (a tree may hold several programs with functions of the
 * same name); else not at all. */
static int suits(const struct function *c, const struct function *from)
{
	int score = 0;

	if (!from)
		return 0;
	if (from->per_tu && c->tu && from->tu && strcmp(c->tu, from->tu) == 0 &&
	    (c->per_tu || (c->file && strcmp(c->file, c->tu) == 0)))
		score += 4;
	if (c->file && from->file && strcmp(c->file, from->file) == 0 &&
	    (!c->per_tu || (c->tu && from->tu && strcmp(c->tu, from->tu) == 0)))
		score += 2;
	return score;
}

/* The summary of the function a call to KEY from function FROM (NULL:
 * from nowhere in particular) reaches: the definition that suits FROM
 * best, else the first. */
int first_definition(const struct program *p, const char *key)
{
	int lo = 0, hi = p->nfns;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (strcmp(p->keys[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct summary *summary_of(struct program *p, const char *key, const struct function *from)
{
	int best = -1, best_score = -1;

	if (!key)
		return NULL;
	for (int i = first_definition(p, key); i < p->nfns && strcmp(p->keys[i], key) == 0; i++) {
		int score = suits(&p->fns[p->key_fn[i]], from);

		if (score > best_score) {
			best = i;
			best_score = score;
		}
	}
	return best < 0 ? NULL : &p->sums[p->key_fn[best]];
}

/* The index of the function a call of KEY from FROM reaches, or -1 (for
 * fresh.c). */
int function_index(void *prog, const char *key, const struct function *from)
{
	struct program *p = prog;
	struct summary *s = summary_of(p, key, from);

	return s ? (int)(s - p->sums) : -1;
}

int is_named(const struct event *e, const char *name)
{
	return e->name && strcmp(e->name, name) == 0;
}

/* The function CALL reaches: named, or through a function pointer whose
 * object some store in the tree gave a function's address (the first). */
static struct summary *find_callee(struct program *p, const struct event *call, const struct function *from)
{
	if (call->target)
		return summary_of(p, call->target, from);
	for (int i = 0; call->oid >= 0 && i < p->nfnptrs; i++)
		if (p->fnptrs[i].oid == call->oid)
			return summary_of(p, p->fnptrs[i].function, from);
	return NULL;
}

struct summary *callee_of(struct program *p, const struct event *call, const struct function *from)
{
	if (from && call->gid >= 0 && call->gid < p->ncallees && p->callee_from[call->gid] == from)
		return p->callee[call->gid];
	return find_callee(p, call, from);
}

/* Adds to p->others the functions besides FIRST that call E (made by
 * FROM) reaches through its pointer: each function some store in the tree
 * put into the pointer's object, once.  (The events are visited in gid
 * order, so p->others stays sorted.) */
static void note_other_callees(struct program *p, const struct event *e, const struct function *from,
			       const struct summary *first, int *cap)
{
	int start = p->nothers;

	if (e->target || e->oid < 0)
		return;
	for (int i = 0; i < p->nfnptrs; i++) {
		struct summary *s;
		int seen;

		if (p->fnptrs[i].oid != e->oid || !(s = summary_of(p, p->fnptrs[i].function, from)) || s == first)
			continue;
		seen = 0;
		for (int k = start; k < p->nothers && !seen; k++)
			seen = p->others[k].s == s;
		if (seen)
			continue;
		grow(&p->others, cap, p->nothers + 1, sizeof *p->others);
		p->others[p->nothers].gid = e->gid;
		p->others[p->nothers++].s = s;
	}
}

/* The callee of every call of the tree's own functions, asked from its
 * function, by the call's gid: the solver asks at every transfer of a
 * call, and summary_of's search of the link keys (string comparisons)
 * was a tenth of its time.  Read only from then on (threads share it). */
void cache_callees(struct program *p)
{
	int cap = 0;

	p->ncallees = p->next_gid;
	p->callee = xcalloc((size_t)p->ncallees + 1, sizeof *p->callee);
	p->callee_from = xcalloc((size_t)p->ncallees + 1, sizeof *p->callee_from);
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				const struct event *e = &p->fns[fi].blocks[b].events[i];

				if (e->kind == EV_CALL && e->gid >= 0 && e->gid < p->ncallees) {
					p->callee[e->gid] = find_callee(p, e, &p->fns[fi]);
					p->callee_from[e->gid] = &p->fns[fi];
					if (p->callee[e->gid])
						note_other_callees(p, e, &p->fns[fi], p->callee[e->gid], &cap);
				}
			}
}

const struct other_callee *other_callees(const struct program *p, const struct event *call, int *n)
{
	int lo = 0, hi = p->nothers, first;

	*n = 0;
	if (call->target || call->oid < 0)
		return NULL;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (p->others[mid].gid < call->gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < p->nothers && p->others[lo].gid == call->gid)
		lo++;
	*n = lo - first;
	return *n ? &p->others[first] : NULL;
}
