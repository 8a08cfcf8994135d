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
 * A pointer parameter that its function publishes (stores with a marked
 * write, or passes to a callee that does, before handing it on in any
 * other way) is treated the same way up to the publication: the accesses
 * made through it before are initialisation. */
#include "fresh.h"

#include <stdlib.h>
#include <string.h>

struct ctx {
	struct function *fns;
	const char *file;             /* of the function whose event is read */
	const unsigned char *wrapper; /* per function: an allocator wrapper */
	resolve_fn resolve;
	void *rctx;
};

/* Is the value that a call of KEY returned fresh memory? */
static int is_wrapper_key(const char *key, void *arg)
{
	struct ctx *c = arg;
	int fi = c->resolve(c->rctx, key, c->file);

	return fi >= 0 && c->wrapper[fi];
}

/* Does item D of role ROLE say the memory is fresh: "!new", or
 * "!new:KEY" with KEY an allocator wrapper? */
static int says_fresh(struct ctx *c, const struct dep_item *d, enum dep_role role)
{
	return d->role == role && (d->kind == DEP_NEW || (d->kind == DEP_NEW_FROM && is_wrapper_key(d->name, c)));
}

/* says_fresh for any item of role ROLE of E. */
static int any_fresh(struct ctx *c, const struct event *e, enum dep_role role)
{
	for (int k = 0; k < e->deps.n; k++)
		if (says_fresh(c, &e->deps.v[k], role))
			return 1;
	return 0;
}

/* Does FN return fresh memory on every path that returns something other
 * than a null pointer (and on one at least)?  From what its "?ret" events
 * say, and which functions are wrappers so far. */
static int returns_fresh(struct ctx *c, const struct function *fn)
{
	int fresh = 0;

	c->file = fn->file;
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

	c->file = fn->file;
	for (int b = 0; b < fn->nblocks; b++)
		for (int i = 0; i < fn->blocks[b].nevents; i++) {
			const struct event *e = &fn->blocks[b].events[i];

			for (int k = 0; k < e->deps.n; k++) {
				const struct dep_item *d = &e->deps.v[k];
				int callee;

				if (d->kind != DEP_NEW_PARAM || d->n >= 32)
					continue;
				if (d->role == DEP_VALUE && e->kind == EV_ACCESS && e->marked && e->access != ACC_READ)
					bits |= 1u << d->n;
				else if (d->role == DEP_ARGUMENT && e->kind == EV_CALL && e->target && d->arg < 32 &&
					 (callee = c->resolve(c->rctx, e->target, c->file)) >= 0 &&
					 (pub[callee] >> d->arg & 1u))
					bits |= 1u << d->n;
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
	for (int k = 0; k < e->deps.n; k++) {
		const struct dep_item *d = &e->deps.v[k];

		if (d->role == DEP_ADDRESS && d->kind == DEP_NEW_PARAM)
			e->fresh_param = 1 + d->n;       /* the last one, as written */
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
	unsigned *published;
	struct ctx c = { fns, NULL, wrapper, resolve, rctx };
	int changed = 1;

	/* Only grows (a wrapper's returns stay fresh once its callees are
	 * wrappers): at most one round per function, far fewer in practice. */
	while (changed) {
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
		c.file = fns[fi].file;
		for (int b = 0; b < fns[fi].nblocks; b++)
			for (int i = 0; i < fns[fi].blocks[b].nevents; i++)
				mark_event(&c, &fns[fi].blocks[b].events[i], published[fi]);
	}
	free(published);
	free(wrapper);
}
