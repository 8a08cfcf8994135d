/* analyzer/findings/storebuffer.c — store buffering (issue 12, shape 3).
 *
 * Dekker's pattern, a waiter and its waker, an epoch announced and then
 * checked: one thread stores X and then loads Y, another stores Y and then
 * loads X, and each decides on what it loaded (the flag each raised
 * before it looked at the other's).  Every CPU may keep a store in its
 * store buffer while a later load of another location runs, and the
 * compiler may swap them: both loads can return the old values, and both
 * threads go on as if alone.  A release store or an acquire load does not
 * prevent it (a release orders earlier accesses before the store, an
 * acquire later ones after the load: neither orders a store before a
 * later load); only a full barrier between the two, on both sides, does:
 * smp_mb(), a sequentially consistent fence, a fully ordered RMW (the
 * LKMM's SB+poonceonces is "Sometimes", SB+fencembonceonces "Never").
 *
 * What it asks before reporting a side:
 *  - the store and the load are marked (a plain one is a data race, the
 *    other rules' to report) and of two objects, neither an element
 *    picked by an index (flag[me] and flag[other] are one object to the
 *    analysis) nor memory private to the thread;
 *  - the load's value is tested: a branch or a loop decides on it,
 *    directly or through a local;
 *  - nothing between them may order them: no full barrier, no fully
 *    ordered RMW, and no call and no lock operation (either may hold the
 *    barrier); and the function takes no lock at all (two sides in
 *    critical sections of one lock never overlap);
 *  - the store is not made after the function joined a thread (the
 *    analysis takes a join for the end of the threads);
 *  - the crosswise side (a store of what this side loads, then a tested
 *    load of what it stores, ordered or not: one barrier alone does not
 *    forbid the outcome) is made in a function that may run at the same
 *    time, neither side made before the other's thread exists. */
#include "storebuffer.h"
#include "evidence.h"
#include "analyzer/model/pairset.h"

#include <stdlib.h>
#include <string.h>

/* May E, met between a store and a later load, order them? */
static int may_order(const struct event *e)
{
	switch (e->kind) {
	case EV_BARRIER:
		return e->ord == ORD_FULL || e->ord == ORD_GRACE || e->ord == ORD_BEFORE_RMW || e->ord == ORD_AFTER_RMW;
	case EV_ACCESS:
		return e->marked && e->ord == ORD_FULL;
	case EV_CALL: case EV_LOCK: case EV_UNLOCK:
		return 1;
	default:
		return 0;
	}
}

/* Is E a marked access this rule can name an object for? */
static int named_marked(const struct event *e)
{
	return e->kind == EV_ACCESS && e->marked && e->oid >= 0 && !e->thread_private && !e->fresh_init &&
	       !picked_by_index(e);
}

/* A store, or an arithmetic RMW, which always stores (atomic_inc(
 * &nr_waiters) before the waiter tests the condition: a waiter count
 * checked by a waker).  A compare-and-swap stores only when it succeeds,
 * and a retry loop reaches its next load on the failing path. */
static int is_store(const struct event *e)
{
	return named_marked(e) && (e->access == ACC_WRITE || (e->access == ACC_RMW && counting_rmw(e)));
}

/* Does F take a lock anywhere?  Two sides in critical sections of one
 * lock never overlap; which lock a side holds is not asked here, so a
 * function that locks anything makes no side. */
static int locks_anything(const struct function *f)
{
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].kind == EV_LOCK)
				return 1;
	return 0;
}

/* The reads of F whose value a branch or a loop of F tests, directly or
 * through a local they were read into: a flag per event index, *N of
 * them (worked out once per function: asked for every store). */
static unsigned char *tested_reads(const struct function *f, int *n)
{
	struct { int local, read; } *defs = NULL;
	int ndefs = 0, cap = 0, max = 0;
	unsigned char *tested;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];

			if (e->index + 1 > max)
				max = e->index + 1;
			if (e->kind != EV_LOCAL || e->sink != SINK_LOCAL)
				continue;
			for (int k = 0; k < e->deps.n; k++)
				if (e->deps.v[k].kind == DEP_EVENT) {
					grow(&defs, &cap, ndefs + 1, sizeof *defs);
					defs[ndefs].local = e->def_local;
					defs[ndefs++].read = e->deps.v[k].n;
				}
		}
	tested = xcalloc((size_t)max + 1, 1);
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];

			if (e->sink == SINK_POLLED || (e->kind == EV_ACCESS && (e->sink == SINK_TEST || e->sink == SINK_LOOP)))
				tested[e->index] = 1;
			if (e->kind != EV_LOCAL || (e->sink != SINK_TEST && e->sink != SINK_LOOP))
				continue;
			for (int k = 0; k < e->deps.n; k++) {
				const struct dep_item *d = &e->deps.v[k];

				if (d->kind == DEP_EVENT && d->n >= 0 && d->n < max)
					tested[d->n] = 1;
				for (int j = 0; d->kind == DEP_LOCAL && d->local >= 0 && j < ndefs; j++)
					if (defs[j].local == d->local && defs[j].read >= 0 && defs[j].read < max)
						tested[defs[j].read] = 1;
			}
		}
	free(defs);
	*n = max;
	return tested;
}

/* Does E, met after store S on the way to the load, stop S from being
 * the store the load comes after: something that may order them, or a
 * later store of S's object? */
static int ends_the_store(const struct event *e, const struct event *s)
{
	return may_order(e) || (is_store(e) && e->oid == s->oid);
}

/* Does an event of F between the store S at (SB, SK) and the load at
 * (LB, LK), on a path from S that has not reached the load yet, order
 * them (may_order), or store S's object again (the later store is the one
 * the load follows: WRITE_ONCE(flag, 0) at the end of a round is not the
 * store the next round's load comes after)? */
static int between(const struct function *f, int sb, int sk, int lb, int lk)
{
	const struct event *s = &f->blocks[sb].events[sk];
	unsigned char *seen;
	int *queue, head = 0, tail = 0, found = 0;
	int end = sb == lb && lk > sk ? lk : f->blocks[sb].nevents;

	for (int k = sk + 1; k < end; k++) {
		const struct event *e = &f->blocks[sb].events[k];

		if (ends_the_store(e, s))
			return 1;
	}
	if (sb == lb && lk > sk)
		return 0;
	seen = xcalloc((size_t)f->nblocks + 1, 1);
	queue = xcalloc((size_t)f->nblocks + 1, sizeof *queue);
	push_successors(f, sb, seen, queue, &tail);
	while (head < tail && !found) {
		int b = queue[head++], stop = b == lb ? lk : f->blocks[b].nevents;

		for (int k = 0; k < stop && !found; k++) {
			const struct event *e = &f->blocks[b].events[k];

			found = e != s && ends_the_store(e, s) && event_reaches(f, b, k, lb, lk);
		}
		if (b == lb)
			continue;       /* (paths end at the load) */
		push_successors(f, b, seen, queue, &tail);
	}
	free(seen);
	free(queue);
	return found;
}

/* Is the store at (SB, SK) of F ordered before the load at (LB, LK): a
 * fully ordered RMW itself, or something between them that may order
 * them? */
static int ordered(const struct function *f, int sb, int sk, int lb, int lk)
{
	return f->blocks[sb].events[sk].ord == ORD_FULL || between(f, sb, sk, lb, lk);
}

/* Is the event at (B, K) of F made after F joined a thread?  The analysis
 * takes a join for the end of the threads (transfer.c): what follows is
 * clean-up that races with no one. */
static int after_a_join(const struct function *f, int b, int k)
{
	for (int jb = 0; jb < f->nblocks; jb++)
		for (int jk = 0; jk < f->blocks[jb].nevents; jk++) {
			const struct event *e = &f->blocks[jb].events[jk];

			if (e->kind == EV_BARRIER && e->name && strcmp(e->name, "pthread_join") == 0 &&
			    event_reaches(f, jb, jk, b, k))
				return 1;
		}
	return 0;
}

/* Calls FN(F, STORE at (SB, SK), LOAD at (LB, LK), CTX) for each marked
 * store of F and tested marked load of another object of F. */
static void each_store_load(const struct function *f,
			    void (*fn)(const struct function *, int, int, int, int, void *), void *ctx)
{
	unsigned char *tested;
	int ntested;

	if (locks_anything(f))
		return;
	tested = tested_reads(f, &ntested);
	for (int sb = 0; sb < f->nblocks; sb++)
		for (int sk = 0; sk < f->blocks[sb].nevents; sk++) {
			const struct event *s = &f->blocks[sb].events[sk];

			if (!is_store(s) || after_a_join(f, sb, sk))
				continue;
			for (int lb = 0; lb < f->nblocks; lb++)
				for (int lk = 0; lk < f->blocks[lb].nevents; lk++) {
					const struct event *l = &f->blocks[lb].events[lk];

					if (l->oid != s->oid && named_marked(l) && l->access == ACC_READ &&
					    l->index >= 0 && l->index < ntested && tested[l->index])
						fn(f, sb, sk, lb, lk, ctx);
				}
		}
	free(tested);
}

/* Pass 1: which (stored object, loaded object) pairs some function makes
 * at all, reachable or not: a side is worth the reachability checks only
 * when the crosswise pair exists somewhere. */
static void note_pair(const struct function *f, int sb, int sk, int lb, int lk, void *ctx)
{
	pairset_put(ctx, f->blocks[sb].events[sk].oid, f->blocks[lb].events[lk].oid, 1);
}

struct sides {
	struct pairset *made;       /* pass 1's pairs */
	struct sb_side *v;
	int n, cap;
};

/* Pass 2: the sides themselves. */
static void note_side(const struct function *f, int sb, int sk, int lb, int lk, void *ctx)
{
	struct sides *s = ctx;
	const struct event *st = &f->blocks[sb].events[sk], *ld = &f->blocks[lb].events[lk];

	if (pairset_get(s->made, ld->oid, st->oid) < 0 || !event_reaches(f, sb, sk, lb, lk))
		return;
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	s->v[s->n++] = (struct sb_side){ f, st, ld, ordered(f, sb, sk, lb, lk) };
}

/* Can sides X and Y, crosswise, run at the same time? */
static int sides_meet(const struct analysis *a, const struct sb_side *x, const struct sb_side *y)
{
	return x->store->oid == y->load->oid && x->load->oid == y->store->oid && run_together(a, x->fn, y->fn) &&
	       !made_before_started(a, x->store, y->fn) && !made_before_started(a, y->store, x->fn);
}

int store_bufferings(const struct analysis *a, struct store_buffering **out)
{
	int nfns, n = 0, cap = 0;
	const struct function *fns = analysis_functions(a, &nfns);
	struct pairset made = { 0 }, reported = { 0 };
	struct sides sides = { &made, NULL, 0, 0 };

	*out = NULL;
	for (int g = 0; g < nfns; g++)
		each_store_load(&fns[g], note_pair, &made);
	for (int g = 0; g < nfns; g++)
		each_store_load(&fns[g], note_side, &sides);
	/* (one finding per store: its first side that meets another) */
	for (int i = 0; i < sides.n; i++) {
		const struct sb_side *x = &sides.v[i];

		/* (a side that orders its store before its load still lets
		 * the crosswise one miss: only both barriers forbid it) */
		if (x->ordered || pairset_get(&reported, x->store->gid, 0) >= 0)
			continue;
		for (int j = 0; j < sides.n; j++)
			if (sides_meet(a, x, &sides.v[j])) {
				grow(out, &cap, n + 1, sizeof **out);
				(*out)[n++] = (struct store_buffering){ *x, sides.v[j] };
				pairset_put(&reported, x->store->gid, 0, 1);
				break;
			}
	}
	free(sides.v);
	pairset_free(&made);
	pairset_free(&reported);
	return n;
}
