/* analyzer/analysis/owned.c — struct fields that only their owner ever
 * touches (W16 of docs/limitations.md).
 *
 * Every instance of a struct type is one object per field to the analysis,
 * so a thread's own record, linked into a global list for a scanner, is
 * the same object as every other thread's: its private counter "races"
 * with the other threads' counters.  An activation owns what it allocated
 * itself, for as long as its local holds it (the front end's "!own" marks,
 * extract_owned.c), what every caller passes it from memory the caller
 * owns ("#N=!own", or an owned parameter passed on), and a thread owns the
 * argument that every pthread_create starting it hands over from memory
 * the creator owned (after which the creator owns nothing through it).
 *
 * A field whose every access in the tree, plain or marked, is made
 * through memory its accessing activation owns is touched by one thread
 * per instance: two of its accesses are either of two instances or one
 * after the other in one thread, and no pairing on it is a race.  A field
 * that any access reaches another way (a pointer read from the list, a
 * global) stays shared.  Globals are never owner-only.
 *
 * Ownership is exclusive: one activation allocated the memory, or got it
 * from a caller (the same thread), or was handed it by its creator, who
 * gave it up.  So even on a shared field two owned accesses (each made
 * through memory its own activation owns) are of two instances, or of one
 * thread: a thread's record that a scanner reads through the list is
 * written at registration and read at the next operation by its owner
 * only, and those two never race (out->owned_events, event_owned). */
#include "internal.h"

/* The locals of the start routines (per function; unset for the others):
 * which come from the routine's one parameter (struct rec *r = arg). */
struct owned_ctx {
	struct deriv_map *derived;
	unsigned char *have;
	unsigned *declared;     /* per function: the parameters a profile line
				   "NAME owner none obj=N" says are the calling
				   thread's own instance, a per-thread record
				   such as ck_hp_record (declared_params) */
};

/* Is item D, argument or address, a local copied from start routine FI's
 * parameter (the thread's argument)? */
static int from_thread_argument(const struct program *p, struct owned_ctx *c, int fi, const struct dep_item *d)
{
	struct dep_item as_address = *d;

	if (!p->started[fi] || d->kind != DEP_LOCAL)
		return 0;
	if (!c->have[fi]) {
		compute_derived(&p->fns[fi], &c->derived[fi]);
		c->have[fi] = 1;
	}
	as_address.role = DEP_ADDRESS;
	return from_param(&c->derived[fi], &as_address);
}

/* Does item D (its role aside) say memory that function FI's activation
 * owns: its own allocation, an owned parameter of FI, memory within an
 * owned parameter reached through a local that points into it ("!newarg:N":
 * ref = &record->local.bucket[i], an address computed from the
 * parameter, not a pointer loaded from it), or, in a start routine whose
 * argument it owns, a local copied from that argument? */
static int owned_item(const struct program *p, const unsigned *bits, int fi, const struct dep_item *d,
		      struct owned_ctx *c)
{
	return d->kind == DEP_OWN || own_param_set(p, bits, fi, d) ||
	       (d->kind == DEP_NEW_PARAM && d->n >= 0 && d->n < 32 && (bits[fi] >> d->n & 1u)) ||
	       ((bits[fi] & 1u) && from_thread_argument(p, c, fi, d));
}

/* Does CALL (made by CALLER) pass for argument N memory the caller owns?
 * A parameter the profile declares the caller's own is, whatever the
 * caller passes: the contract says so. */
static int passes_owned(const struct program *p, const unsigned *bits, int caller, const struct event *call, int n,
			void *ctx)
{
	struct owned_ctx *c = ctx;
	struct summary *s = callee_of((struct program *)p, call, &p->fns[caller]);

	if (s && (c->declared[s - p->sums] >> n & 1u))
		return 1;
	for (int k = 0; k < call->deps.n; k++)
		if (call->deps.v[k].role == DEP_ARGUMENT && call->deps.v[k].arg == n &&
		    owned_item(p, bits, caller, &call->deps.v[k], ctx))
			return 1;
	return 0;
}

/* The bits the fixpoint starts from: for a start routine, bit 0 when
 * every pthread_create of the tree that starts it hands over memory its
 * creator owned ("#3=!own"); for another function with direct calls,
 * every bit; none for a function whose address is taken (TAKEN). */
static unsigned *initial_bits(struct program *p, const unsigned char *taken)
{
	unsigned *bits = xcalloc((size_t)p->nfns + 1, sizeof *bits);
	unsigned char *created = xcalloc((size_t)p->nfns + 1, 1), *handed = xcalloc((size_t)p->nfns + 1, 1);

	memset(handed, 1, (size_t)p->nfns + 1);
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				const struct event *e = &p->fns[fi].blocks[b].events[i];
				int t;

				if (!is_named(e, "pthread_create") || (t = start_routine(p, e)) < 0)
					continue;
				created[t] = 1;
				handed[t] &= dep_list_has_arg(&e->deps, 3, DEP_OWN);
			}
	for (int fi = 0; fi < p->nfns; fi++) {
		if (taken[fi])
			continue;
		if (created[fi])
			bits[fi] = handed[fi] ? 1u : 0u;
		else if (p->called[fi])
			bits[fi] = ~0u;
	}
	free(created);
	free(handed);
	return bits;
}

/* Is access E, an event of function FI, made through memory its
 * activation owns (an address item that owned_item accepts)? */
static int owned_access(const struct program *p, const unsigned *bits, int fi, const struct event *e,
			struct owned_ctx *c)
{
	for (int k = 0; k < e->deps.n; k++)
		if (e->deps.v[k].role == DEP_ADDRESS && owned_item(p, bits, fi, &e->deps.v[k], c))
			return 1;
	return 0;
}

/* Per object, while the accesses are walked: not seen yet, a field every
 * access seen so far reached through owned memory, or shared. */
enum { UNSEEN, OWNED_SO_FAR, SHARED };

void find_owner_only_fields(struct program *p)
{
	unsigned char *taken = address_taken(p);
	unsigned *bits = initial_bits(p, taken);
	struct analysis *a = p->out;
	struct owned_ctx c = { xcalloc((size_t)p->nfns + 1, sizeof *c.derived), xcalloc((size_t)p->nfns + 1, 1),
			       declared_params(p, "owner") };
	unsigned char *state = xcalloc((size_t)a->nobjects + 1, 1);
	unsigned char *owned = xcalloc((size_t)p->next_gid + 1, 1);

	for (int fi = 0; fi < p->nfns; fi++)
		bits[fi] |= c.declared[fi];
	params_fixpoint(p, bits, passes_owned, &c);
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				const struct event *e = &p->fns[fi].blocks[b].events[i];
				unsigned char *s;
				int field, mine;

				if (e->kind != EV_ACCESS || e->oid < 0 || e->oid >= a->nobjects)
					continue;
				s = &state[e->oid];
				field = e->object && strstr(e->object, "@FI@");
				if (*s == UNSEEN)       /* (globals are never owner-only) */
					*s = field ? OWNED_SO_FAR : SHARED;
				mine = field && owned_access(p, bits, fi, e, &c);
				if (e->gid >= 0 && e->gid < p->next_gid)
					owned[e->gid] = (unsigned char)mine;
				if (*s == OWNED_SO_FAR && !mine)
					*s = SHARED;
			}
	for (int fi = 0; fi < p->nfns; fi++)
		if (c.have[fi])
			dm_free(&c.derived[fi]);
	free(c.derived);
	free(c.have);
	free(c.declared);
	a->nowner_only = a->nobjects;
	a->owner_only = state;
	a->owned_events = owned;
	a->nowned_events = p->next_gid;
	for (int o = 0; o < a->nobjects; o++)
		state[o] = state[o] == OWNED_SO_FAR;
	free(bits);
	free(taken);
}

int object_owner_only(const struct analysis *a, int oid)
{
	return a->owner_only && oid >= 0 && oid < a->nowner_only && a->owner_only[oid];
}

int event_owned(const struct analysis *a, const struct event *e)
{
	return a->owned_events && e->gid >= 0 && e->gid < a->nowned_events && a->owned_events[e->gid];
}

/* Are X and Y, two accesses of one object, each made through memory its
 * own activation owns (event_owned), or each through memory its own
 * activation frees afterwards (event_claimed)?  Either is exclusive, so
 * they are of two instances or made by one thread: never a race,
 * whatever other threads do to the object through shared pointers.  (An
 * owned access and a claimed one are not: the memory handed from the
 * first to the second is the publication under scrutiny.) */
int both_owned(const struct analysis *a, const struct event *x, const struct event *y)
{
	return (event_owned(a, x) && event_owned(a, y)) || (event_claimed(a, x) && event_claimed(a, y));
}
