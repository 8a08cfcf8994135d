/* analyzer/analysis/privparams.c — pointer parameters that only ever receive
 * memory private to the calling thread, over the whole tree.
 *
 * A local whose address never escapes ("l:FUNCTION:v", extract_pointee.c)
 * is private to its activation, and so is what a callee reaches through
 * the parameter that receives it: through_call drops those accesses.  That
 * held one call deep only.  A caller-owned iterator or out-parameter is
 * passed down a chain (cds_lfht_next(ht, &iter) -> helper(iter) ->
 * iter->node = ...), and from the second call on the callee's accesses
 * were to the field of every instance, racing with other threads' own
 * iterators (W4a of docs/limitations.md).
 *
 * Following each call path would mean a copy of every callee per path
 * (tried once: Open vSwitch's whole-tree analysis went from 2 s to over
 * 110 s).  Instead, one fact per parameter for the whole tree: parameter
 * N of function F is private when F is only ever called directly, from
 * at least one place, and every call passes for N either a private local
 * or a private parameter of the calling function.  That is the greatest
 * fixpoint: start from "private" for every parameter of every function
 * that has direct calls and whose address is never taken (so no caller
 * can be hidden behind a pointer: a thread start routine, a callback, an
 * operation table), and take back each parameter that some call passes
 * anything else, until nothing changes.  Recursion that only passes the
 * parameter on keeps it private, as it should.
 *
 * What is not seen: a function whose address is taken only in a static
 * initialiser (struct ops tables) has hidden callers; a callee that links
 * the local into shared memory is W4b, unchanged by this. */
#include "internal.h"

/* Sets TAKEN for every function of the tree whose link key is KEY (which
 * definition a pointer reaches is not known; p->keys is sorted). */
static void mark_every_definition(const struct program *p, const char *key, unsigned char *taken)
{
	for (int i = first_definition(p, key); i < p->nfns && strcmp(p->keys[i], key) == 0; i++)
		taken[p->key_fn[i]] = 1;
}

/* Functions whose address is taken: passed as an argument ("f:KEY", a
 * thread start routine, a callback) or stored (fnptrs). */
unsigned char *address_taken(struct program *p)
{
	unsigned char *taken = xcalloc((size_t)p->nfns + 1, 1);

	for (int i = 0; i < p->nfnptrs; i++)
		mark_every_definition(p, p->fnptrs[i].function, taken);
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				const struct event *e = &p->fns[fi].blocks[b].events[i];

				/* (a function stored anywhere, into a local
				 * pointer too, EV_LOCAL: fnptrs has only the
				 * stores to objects) */
				if (e->kind != EV_CALL && e->target)
					mark_every_definition(p, e->target, taken);
				for (int a = 0; e->kind == EV_CALL && a < e->argv.n; a++) {
					const char *key = passed_function(e, a);

					if (key)
						mark_every_definition(p, key, taken);
				}
			}
	return taken;
}

/* Does CALL, made by function CALLER, pass for argument N memory private
 * to the calling thread, given the private parameters found so far (PRIV,
 * per function, bit M: parameter M)? */
static int passes_private(const struct program *p, const unsigned *priv, int caller,
			  const struct event *call, int n, void *ctx)
{
	const struct object_ref *ref;
	const char *arg = call_argument(call, n, &ref);
	const unsigned *exclusive = ctx;
	struct summary *s;

	/* (a parameter its profile line declares exclusive is, whatever the
	 * caller passes: the contract says no other thread touches it) */
	if (exclusive && (s = callee_of((struct program *)p, call, &p->fns[caller])) != NULL &&
	    (exclusive[s - p->sums] >> n & 1u))
		return 1;
	if (arg && ref->kind == OBJ_LOCAL)
		return 1;
	/* "#N=$KEY:M": the caller's own parameter M, passed on; "#N=!null":
	 * a null pointer, no memory at all (an optional out-parameter) */
	for (int k = 0; k < call->deps.n; k++) {
		const struct dep_item *d = &call->deps.v[k];

		/* ("#N=!tls": the address of a thread-local variable, the
		 * calling thread's own memory, as a private local is its
		 * activation's) */
		if (d->role == DEP_ARGUMENT && d->arg == n && (d->kind == DEP_NULL || d->kind == DEP_TLS))
			return 1;
		if (d->role == DEP_ARGUMENT && d->arg == n && own_param_set(p, priv, caller, d))
			return 1;
	}
	return 0;
}

int own_param_set(const struct program *p, const unsigned *bits, int fi, const struct dep_item *d)
{
	return d->kind == DEP_PARAM && d->n < 32 && (bits[fi] >> d->n & 1u) && strcmp(d->name, p->fns[fi].link_key) == 0;
}

void params_fixpoint(struct program *p, unsigned *bits, param_passes_fn passes, void *ctx)
{
	int changed = 1;

	/* Bits are only cleared: at most 32 rounds per function. */
	while (changed) {
		changed = 0;
		for (int fi = 0; fi < p->nfns; fi++)
			for (int b = 0; b < p->fns[fi].nblocks; b++)
				for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
					const struct event *e = &p->fns[fi].blocks[b].events[i];
					struct summary *s;
					unsigned *callee;

					if (e->kind != EV_CALL || !(s = callee_of(p, e, &p->fns[fi])))
						continue;
					callee = &bits[s - p->sums];
					for (int n = 0; n < 32 && *callee; n++)
						if ((*callee >> n & 1u) && !passes(p, bits, fi, e, n, ctx)) {
							*callee &= ~(1u << n);
							changed = 1;
						}
				}
	}
}

/* Marks each access that a function makes through one of its private
 * parameters (PRIV) as thread_private.  Its callers' views drop it already
 * (through_call); this is the function's own view, in which the access
 * would otherwise be to the field of every instance (the snapshot a
 * lookup fills for its caller "racing" with the table's entries).  Every
 * activation of the function is reached by one of those calls, so the
 * access is to thread-private memory in all of them.  The parameter must
 * be the access's base pointer (fresh.c's fresh_param: snap->key), not
 * one that only gives an index into shared memory (r->count[s->bucket]). */
static void mark_private_accesses(struct program *p, const unsigned *priv)
{
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; priv[fi] && b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];
				int n = e->fresh_param - 1;

				if (e->kind == EV_ACCESS && n >= 0 && n < 32 && (priv[fi] >> n & 1u))
					e->thread_private = 1;
			}
}

/*
 * A profile line "NAME exclusive none obj=N,..." states that a caller
 * calls NAME with the instances those parameters point to to itself:
 * nothing else touches them during the call (Concurrency Kit's
 * ck_stack_push_spnc, "single producer and no concurrent consumers",
 * pushes onto a stack no other thread uses meanwhile, as every per-record
 * pending list it is used on is).  What NAME, and the callees it passes
 * them to, does through them is then private to the calling thread, as
 * with a private local: the parameters are private whatever any caller
 * passes (the front end's "exclusive" markers: declared_params), and
 * each caller's view drops those accesses.
 */
void find_private_params(struct program *p)
{
	unsigned char *taken = address_taken(p);
	unsigned *priv = xcalloc((size_t)p->nfns + 1, sizeof *priv);
	unsigned *exclusive = declared_params(p, "exclusive");

	for (int fi = 0; fi < p->nfns; fi++) {
		if (p->called[fi] && !taken[fi])
			priv[fi] = ~0u;
		priv[fi] |= exclusive[fi];
	}
	params_fixpoint(p, priv, passes_private, exclusive);
	free(taken);
	/* What through_call asks, per call: which arguments are private. */
	p->nprivate_args = p->next_gid;
	p->private_args = xcalloc((size_t)p->nprivate_args + 1, sizeof *p->private_args);
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				const struct event *e = &p->fns[fi].blocks[b].events[i];

				for (int n = 0; e->kind == EV_CALL && n < e->argv.n && n < 32; n++)
					if (e->gid >= 0 && e->gid < p->nprivate_args && passes_private(p, priv, fi, e, n, exclusive))
						p->private_args[e->gid] |= 1u << n;
			}
	mark_private_accesses(p, priv);
	free(priv);
	free(exclusive);
}

int private_argument(const struct program *p, const struct event *call, int n)
{
	return call->gid >= 0 && call->gid < p->nprivate_args && n >= 0 && n < 32 &&
	       (p->private_args[call->gid] >> n & 1u);
}

unsigned *declared_params(const struct program *p, const char *marker)
{
	unsigned *d = xcalloc((size_t)p->nfns + 1, sizeof *d);

	for (int fi = 0; fi < p->nfns; fi++) {
		const struct block *entry = &p->fns[fi].blocks[p->fns[fi].entry];

		for (int i = 0; i < entry->nevents; i++) {
			const struct event *e = &entry->events[i];

			if (e->kind != EV_LOCAL || !is_named(e, marker))
				continue;
			for (int k = 0; k < e->deps.n; k++)
				if (e->deps.v[k].kind == DEP_PARAM && e->deps.v[k].n >= 0 && e->deps.v[k].n < 32)
					d[fi] |= 1u << e->deps.v[k].n;
		}
	}
	return d;
}
