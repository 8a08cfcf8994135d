/* analyzer/analysis/claimed.c — accesses made through memory that their
 * activation frees afterwards, on every path (out->claimed_events).
 *
 * A consumer that takes an entry off a queue, reads and writes it, then
 * frees it holds the entry alone from the moment it got it: a second
 * thread touching the same entry then would touch freed memory.  So two
 * such accesses, each made by an activation that frees the memory later,
 * are of two entries (or of one thread), and never race: ck_ring's
 * consumers checking and scribbling over the entries they dequeued are
 * not each other's readers, however the entries' fields are merged into
 * one object per field.
 *
 * Only the pair is excluded (event_claimed, pairing.c): the producer that
 * initialised the entry before publishing it did not free it, and its
 * accesses still pair with the consumer's.  This is the exclusive half of
 * ownership (owned.c) from the other end of an object's life: owned.c
 * starts it at the allocation, this ends it at the free.
 *
 * Per function, backwards over the control flow: the locals whose current
 * value is freed later on every path (a must analysis: a path that ends
 * in exit() or abort() frees everything).  A loop that can be left is
 * taken to end (a spin of `spin` rounds before the free); one that cannot
 * (for (;;) with no way out) frees only what it frees on the way.  A
 * local leaves the set where it gets another value (an assignment, or its
 * address passed to a call that fills it in: dequeue(&ring, &o)) and where
 * its value is handed on (passed to a call other than free(), or stored),
 * since whoever got it may still use it after the free. */
#include "internal.h"

#include <string.h>

/* Is E a call of free() with local number *LOCAL as its argument? */
static int frees_local(const struct event *e, int *local)
{
	if (e->kind != EV_CALL || !e->target || strcmp(e->target, "free") != 0)
		return 0;
	for (int k = 0; k < e->deps.n; k++) {
		const struct dep_item *d = &e->deps.v[k];

		if (d->role == DEP_ARGUMENT && d->arg == 0 && d->kind == DEP_LOCAL && d->local >= 0) {
			*local = d->local;
			return 1;
		}
	}
	return 0;
}

/* Does call E never return (its callee's summary says no path reaches
 * the exit: ck_error() calling exit())? */
static int never_returns(struct program *p, const struct function *f, const struct event *e)
{
	struct summary *s;

	return e->kind == EV_CALL && (s = callee_of(p, e, f)) && s->noreturn;
}

/* S as it is before event E, from S after it (backwards).  Records E as
 * claimed in CLAIMED when it is an access through a local of S. */
static void step_back(struct program *p, const struct function *f, const struct event *e, unsigned char *s,
		      int n, unsigned char *claimed)
{
	int freed;

	if (never_returns(p, f, e)) {
		memset(s, 1, (size_t)n);
		return;
	}
	if (frees_local(e, &freed)) {
		if (freed < n)
			s[freed] = 1;
		return;
	}
	if (e->kind == EV_LOCAL && e->def_local >= 0 && e->def_local < n)
		s[e->def_local] = 0;            /* another value before here */
	for (int k = 0; k < e->deps.n; k++) {
		const struct dep_item *d = &e->deps.v[k];

		if (d->kind != DEP_LOCAL || d->local < 0 || d->local >= n)
			continue;
		/* passed to a call (its value, or its address to be filled in),
		 * or stored somewhere: from here back, the free may not end
		 * every use */
		if ((e->kind == EV_CALL && d->role == DEP_ARGUMENT) ||
		    (e->kind == EV_ACCESS && e->access != ACC_READ && d->role == DEP_VALUE))
			s[d->local] = 0;
	}
	if (e->kind == EV_ACCESS && claimed && e->gid >= 0)
		for (int k = 0; k < e->deps.n; k++) {
			const struct dep_item *d = &e->deps.v[k];

			if (d->role == DEP_ADDRESS && d->kind == DEP_LOCAL && d->local >= 0 && d->local < n &&
			    s[d->local])
				claimed[e->gid] = 1;
		}
}

/* Into CUR, the locals freed on every path after block B: what every
 * successor frees; nothing after the exit block; everything after a
 * block that has no successor and is not the exit (it ends in a call
 * that never returns). */
static void after_block(const struct function *f, int b, unsigned char *const *in, unsigned char *cur, int n)
{
	const struct block *blk = &f->blocks[b];

	memset(cur, b != f->exit && blk->nsucc == 0, (size_t)n);
	if (blk->nsucc > 0)
		memcpy(cur, in[blk->succ[0]], (size_t)n);
	for (int s = 1; s < blk->nsucc; s++)
		for (int l = 0; l < n; l++)
			cur[l] &= in[blk->succ[s]][l];
}

/* Which blocks of F have a path to an end: the exit, or a block without
 * successors (a call that never returns)?  The others are stuck in a loop
 * that cannot be left.  (Backwards from the ends, to a fixpoint.) */
static unsigned char *can_end(const struct function *f)
{
	unsigned char *e = xcalloc((size_t)f->nblocks + 1, 1);
	int changed = 1;

	while (changed) {
		changed = 0;
		for (int b = f->nblocks - 1; b >= 0; b--) {
			int reach = b == f->exit || f->blocks[b].nsucc == 0;

			for (int s = 0; s < f->blocks[b].nsucc && !reach; s++)
				reach = e[f->blocks[b].succ[s]];
			if (reach && !e[b])
				e[b] = changed = 1;
		}
	}
	return e;
}

/* Runs the blocks of F whose can_end mark is ENDING to their fixpoint,
 * from their current IN sets. */
static void settle(struct program *p, const struct function *f, const unsigned char *ends, int ending,
		   unsigned char **in, unsigned char *cur, int n)
{
	int changed = 1, rounds = 0;

	while (changed && rounds++ < 100) {
		changed = 0;
		for (int b = f->nblocks - 1; b >= 0; b--) {
			const struct block *blk = &f->blocks[b];

			if (ends[b] != ending)
				continue;
			after_block(f, b, in, cur, n);
			for (int i = blk->nevents - 1; i >= 0; i--)
				step_back(p, f, &blk->events[i], cur, n, NULL);
			if (memcmp(cur, in[b], (size_t)n) != 0) {
				memcpy(in[b], cur, (size_t)n);
				changed = 1;
			}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_FUNCTION);
}

/* The claimed accesses of function F into CLAIMED (by gid). */
static void claim_function(struct program *p, const struct function *f, unsigned char *claimed)
{
	int n = f->nlocals;
	unsigned char **in;
	unsigned char *cur, *ends;

	if (n <= 0)
		return;
	in = xcalloc((size_t)f->nblocks + 1, sizeof *in);
	cur = xcalloc((size_t)n, 1);
	ends = can_end(f);
	/* A loop that cannot be left first, from nothing freed up (a path
	 * that stays in it frees only what it frees on the way); then the
	 * rest, from everything freed down (a loop that can be left is left,
	 * and what the path frees after it counts).  No block that can end
	 * leads only into one that cannot: the first part does not depend on
	 * the second. */
	for (int b = 0; b < f->nblocks; b++) {
		in[b] = xcalloc((size_t)n, 1);
	}
	settle(p, f, ends, 0, in, cur, n);
	for (int b = 0; b < f->nblocks; b++)
		if (ends[b])
			memset(in[b], 1, (size_t)n);
	settle(p, f, ends, 1, in, cur, n);
	free(ends);
	/* One more walk, recording the accesses. */
	for (int b = 0; b < f->nblocks; b++) {
		const struct block *blk = &f->blocks[b];

		after_block(f, b, in, cur, n);
		for (int i = blk->nevents - 1; i >= 0; i--)
			step_back(p, f, &blk->events[i], cur, n, claimed);
	}
	for (int b = 0; b < f->nblocks; b++)
		free(in[b]);
	free(in);
	free(cur);
}

void find_claimed_accesses(struct program *p)
{
	struct analysis *a = p->out;
	unsigned char *claimed = xcalloc((size_t)p->next_gid + 1, 1);

	for (int fi = 0; fi < p->nfns; fi++)
		claim_function(p, &p->fns[fi], claimed);
	/* a callee's access as a call sees it is still its activation's */
	for (int i = 0; i < a->nclones; i++) {
		const struct event *c = a->clones[i], *root = clone_root_of(p, c);

		if (c->gid >= 0 && c->gid < p->next_gid && root->gid >= 0 && root->gid < p->next_gid)
			claimed[c->gid] = claimed[root->gid];
	}
	a->claimed_events = claimed;
	a->nclaimed_events = p->next_gid;
}

int event_claimed(const struct analysis *a, const struct event *e)
{
	return a->claimed_events && e->gid >= 0 && e->gid < a->nclaimed_events && a->claimed_events[e->gid];
}
