/* analyzer/analysis/fresh.c — allocator wrappers and initialisation of fresh
 * memory, tree-wide (see fresh.h).
 *
 * The front end records, on each "?ret" event (a return of a value), what
 * the returned value is in terms of fresh memory (items.h): DEP_NEW
 * (memory from malloc and the like, not handed on yet), DEP_NEW_FROM (what
 * function KEY returned), DEP_NULL.  A function is an allocator wrapper when each of
 * its returns is one of these, with every KEY an allocator wrapper too,
 * and at least one is not "!null".  Wrappers call wrappers, and a wrapper
 * may be defined in another file than its callers: a fixpoint over the
 * tree, from "no function is a wrapper" up.
 *
 * Passing fresh memory to a function does not always hand it on: an
 * initialiser (init_node(n, key)) only writes through its parameter.  The
 * front end marks what follows such a call "!kept:@E:A" (call event E
 * passed it as argument A), and the function's "?kept" event lists the
 * parameters it never hands on itself, or only to calls.  A callee keeps
 * argument A when its parameter A is in that list and every call it was
 * passed to keeps it too: a greatest fixpoint (recursion that only passes
 * a parameter round keeps it).
 *
 * A pointer parameter that its function publishes (stores with a marked
 * write, or passes to a callee that does, before handing it on in any
 * other way) is treated the same way up to the publication: the accesses
 * made through it before are initialisation. */
#include "fresh.h"

#include <stdlib.h>
#include <string.h>

/* What a source of fresh memory comes to, once resolved (fresh_source):
 * memory no other thread can reach, nothing known, or (0 and up) pointer
 * parameter N not handed on yet. */
#define SOURCE_FRESH (-1)
#define SOURCE_NONE (-2)

/* Chains of calls that pass a pointer on and on: deeper ones count as
 * handed on (a bound on the resolution, never reached in practice). */
#define MAX_KEPT_CHAIN 16

struct ctx {
	struct function *fns;
	const struct function *from;  /* the function whose event is read */
	const struct event **by_index;   /* FROM's events by index, made on
					    the first "!kept" item (event_at) */
	int nevents;                  /* entries in by_index, -1: not made */
	const unsigned char *wrapper; /* per function: an allocator wrapper */
	const unsigned *keeps;        /* per function, bit N: keeps parameter N */
	resolve_fn resolve;
	void *rctx;
};

/* Makes FN the function whose events are read. */
static void read_function(struct ctx *c, const struct function *fn)
{
	c->from = fn;
	c->nevents = -1;
}

/* The event of index N of the function being read, or NULL.  The table is
 * made once per function, and only for the few that hold "!kept" items. */
static const struct event *event_at(struct ctx *c, int n)
{
	const struct function *fn = c->from;

	if (c->nevents < 0) {
		c->nevents = 0;
		for (int b = 0; b < fn->nblocks; b++)
			for (int i = 0; i < fn->blocks[b].nevents; i++)
				if (fn->blocks[b].events[i].index >= c->nevents)
					c->nevents = fn->blocks[b].events[i].index + 1;
		free(c->by_index);
		c->by_index = xcalloc((size_t)c->nevents + 1, sizeof *c->by_index);
		for (int b = 0; b < fn->nblocks; b++)
			for (int i = 0; i < fn->blocks[b].nevents; i++) {
				const struct event *e = &fn->blocks[b].events[i];

				if (e->index >= 0)
					c->by_index[e->index] = e;
			}
	}
	return n >= 0 && n < c->nevents ? c->by_index[n] : NULL;
}

/* Is the value that a call of KEY returned fresh memory? */
static int is_wrapper_key(struct ctx *c, const char *key)
{
	int fi = c->resolve(c->rctx, key, c->from);

	return fi >= 0 && c->wrapper[fi];
}

/* What source item D (of the function being read) comes to: SOURCE_FRESH,
 * SOURCE_NONE, or the parameter N it is while not handed on.  "!kept:@E:A"
 * is what call E's argument A was, if E's callee keeps that argument. */
static int fresh_source(struct ctx *c, const struct dep_item *d, int depth)
{
	const struct event *call;
	int callee;

	switch (d->kind) {
	case DEP_NEW:
		return SOURCE_FRESH;
	case DEP_NEW_FROM:
		return is_wrapper_key(c, d->name) ? SOURCE_FRESH : SOURCE_NONE;
	case DEP_NEW_PARAM:
		return d->n;
	case DEP_KEPT:
		if (depth >= MAX_KEPT_CHAIN || d->via >= 32 ||
		    !(call = event_at(c, d->n)) || call->kind != EV_CALL || !call->target ||
		    (callee = c->resolve(c->rctx, call->target, c->from)) < 0 ||
		    !(c->keeps[callee] >> d->via & 1u))
			return SOURCE_NONE;
		for (int k = 0; k < call->deps.n; k++) {
			const struct dep_item *a = &call->deps.v[k];

			if (a->role == DEP_ARGUMENT && a->arg == d->via &&
			    (a->kind == DEP_NEW || a->kind == DEP_NEW_FROM || a->kind == DEP_NEW_PARAM ||
			     a->kind == DEP_KEPT))
				return fresh_source(c, a, depth + 1);
		}
		return SOURCE_NONE;
	default:
		return SOURCE_NONE;
	}
}

/* Does item D of role ROLE say the memory is fresh? */
static int says_fresh(struct ctx *c, const struct dep_item *d, enum dep_role role)
{
	return d->role == role && fresh_source(c, d, 0) == SOURCE_FRESH;
}

/* says_fresh for any item of role ROLE of E. */
static int any_fresh(struct ctx *c, const struct event *e, enum dep_role role)
{
	for (int k = 0; k < e->deps.n; k++)
		if (says_fresh(c, &e->deps.v[k], role))
			return 1;
	return 0;
}

/* The parameter that item D of role ROLE is while not handed on, or -1. */
static int says_param(struct ctx *c, const struct dep_item *d, enum dep_role role)
{
	int s = d->role == role ? fresh_source(c, d, 0) : SOURCE_NONE;

	return s >= 0 && s < 32 ? s : -1;
}

/* Which parameters FN keeps, as bits, given what every function keeps so
 * far: those its "?kept" event lists as never handed on, or handed only
 * to calls that keep them. */
static unsigned kept_params(struct ctx *c, const struct function *fn)
{
	unsigned bits = 0;

	read_function(c, fn);
	/* (the front end puts the "?kept" event in the exit block) */
	for (int i = 0; fn->exit >= 0 && fn->exit < fn->nblocks && i < fn->blocks[fn->exit].nevents; i++) {
		const struct event *e = &fn->blocks[fn->exit].events[i];

		if (e->kind != EV_LOCAL || !e->defines || strcmp(e->defines, "?kept") != 0)
			continue;
		for (int k = 0; k < e->deps.n; k++) {
			const struct dep_item *d = &e->deps.v[k];

			if (d->arg < 32 && says_param(c, d, DEP_ARGUMENT) == d->arg)
				bits |= 1u << d->arg;
		}
	}
	return bits;
}

/* Does FN return fresh memory on every path that returns something other
 * than a null pointer (and on one at least)?  From what its "?ret" events
 * say, and which functions are wrappers so far. */
static int returns_fresh(struct ctx *c, const struct function *fn)
{
	int fresh = 0;

	read_function(c, fn);
	for (int b = 0; b < fn->nblocks; b++)
		for (int i = 0; i < fn->blocks[b].nevents; i++) {
			const struct event *e = &fn->blocks[b].events[i];

			if (e->kind != EV_LOCAL || e->sink != SINK_RETURN)
				continue;
			if (any_fresh(c, e, DEP_ADDRESS))
				fresh = 1;
			else if (!dep_list_has(&e->deps, DEP_ADDRESS, DEP_NULL))
				return 0;
		}
	return fresh;
}

/* Which pointer parameters FN publishes, as bits (N: parameter N), given
 * what every function publishes so far (PUB): a marked write or RMW of FN
 * stores the parameter before anything else hands it on ("~!newarg:N",
 * cmpxchg(&s->head, old, node)), or FN passes it to a parameter that its
 * callee publishes ("#M=!newarg:N" on the call). */
static unsigned published_params(struct ctx *c, const struct function *fn, const unsigned *pub)
{
	unsigned bits = 0;

	read_function(c, fn);
	for (int b = 0; b < fn->nblocks; b++)
		for (int i = 0; i < fn->blocks[b].nevents; i++) {
			const struct event *e = &fn->blocks[b].events[i];

			for (int k = 0; k < e->deps.n; k++) {
				const struct dep_item *d = &e->deps.v[k];
				int callee, n;

				if (e->kind == EV_ACCESS && e->marked && e->access != ACC_READ &&
				    (n = says_param(c, d, DEP_VALUE)) >= 0)
					bits |= 1u << n;
				else if (e->kind == EV_CALL && e->target && d->arg < 32 &&
					 (n = says_param(c, d, DEP_ARGUMENT)) >= 0 &&
					 (callee = c->resolve(c->rctx, e->target, c->from)) >= 0 &&
					 (pub[callee] >> d->arg & 1u))
					bits |= 1u << n;
			}
		}
	return bits;
}

/* What E says about fresh memory: whether E initialises it (fresh_init),
 * through which parameter (fresh_param), and, for a call, which of its
 * arguments point into it (fresh_args); see fresh.h.  PUBLISHED: the
 * parameters that E's function publishes. */
static void mark_event(struct ctx *c, struct event *e, unsigned published)
{
	e->fresh_init = any_fresh(c, e, DEP_ADDRESS);
	e->fresh_param = 0;
	e->fresh_args = 0;
	e->hands_on_fresh = 0;
	for (int k = 0; k < e->deps.n; k++) {
		const struct dep_item *d = &e->deps.v[k];
		int n = says_param(c, d, DEP_ADDRESS);

		/* A marked write storing a pointer that the front end follows as
		 * fresh memory hands that memory on: an allocation's, a
		 * wrapper's, a parameter's, or one passed to calls since
		 * ("~!kept:@E:A"), whatever those calls did with it -- it is the
		 * object the function initialised, and this write stores it.
		 * (Whether the memory was still private here is fresh_init's
		 * business, on the accesses made through it.) */
		if (e->kind == EV_ACCESS && e->marked && e->access != ACC_READ && d->role == DEP_VALUE &&
		    (d->kind == DEP_NEW || d->kind == DEP_NEW_FROM || d->kind == DEP_NEW_PARAM || d->kind == DEP_KEPT))
			e->hands_on_fresh = 1;
		if (n >= 0)
			e->fresh_param = 1 + n;       /* the last one, as written */
		else if (e->kind == EV_CALL && d->arg < 32 && says_fresh(c, d, DEP_ARGUMENT))
			e->fresh_args |= 1u << d->arg;
	}
	/* Made through a parameter that the function publishes later, before
	 * anything else handed it on: the object is the function's own until
	 * the publication, as memory fresh from an allocator is (the
	 * initialise-then-publish idiom: push(s, node) writes node->next,
	 * then a CAS publishes node). */
	if (e->fresh_param > 0 && e->fresh_param <= 32 && (published >> (e->fresh_param - 1) & 1u))
		e->fresh_init = 1;
}

void mark_fresh_inits(struct function *fns, int nfns, resolve_fn resolve, void *rctx)
{
	unsigned char *wrapper = xcalloc((size_t)nfns + 1, 1);
	unsigned *published, *keeps = xcalloc((size_t)nfns + 1, sizeof *keeps);
	struct ctx c = { fns, NULL, NULL, 0, wrapper, keeps, resolve, rctx };
	int changed = 1;

	/* Kept parameters only shrink, from "every parameter listed": at most
	 * 32 rounds per function. */
	for (int fi = 0; fi < nfns; fi++)
		keeps[fi] = ~0u;
	while (changed) {
		changed = 0;
		for (int fi = 0; fi < nfns; fi++) {
			unsigned bits = kept_params(&c, &fns[fi]) & keeps[fi];

			if (bits != keeps[fi]) {
				keeps[fi] = bits;
				changed = 1;
			}
		}
	}
	/* Only grows (a wrapper's returns stay fresh once its callees are
	 * wrappers): at most one round per function, far fewer in practice. */
	for (changed = 1; changed; ) {
		changed = 0;
		for (int fi = 0; fi < nfns; fi++)
			if (!wrapper[fi] && returns_fresh(&c, &fns[fi])) {
				wrapper[fi] = 1;
				changed = 1;
			}
	}
	/* Publication grows the same way: a callee that publishes makes its
	 * callers publish what they pass it. */
	published = xcalloc((size_t)nfns + 1, sizeof *published);
	for (changed = 1; changed; ) {
		changed = 0;
		for (int fi = 0; fi < nfns; fi++) {
			unsigned bits = published_params(&c, &fns[fi], published);

			if ((bits | published[fi]) != published[fi]) {
				published[fi] |= bits;
				changed = 1;
			}
		}
	}
	for (int fi = 0; fi < nfns; fi++) {
		read_function(&c, &fns[fi]);
		for (int b = 0; b < fns[fi].nblocks; b++)
			for (int i = 0; i < fns[fi].blocks[b].nevents; i++)
				mark_event(&c, &fns[fi].blocks[b].events[i], published[fi]);
	}
	free(c.by_index);
	free(published);
	free(keeps);
	free(wrapper);
}
