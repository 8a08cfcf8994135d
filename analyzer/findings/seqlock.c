/* analyzer/findings/seqlock.c — sequence locks (issue 12, shape 2): where
 * the tree has them (seqlock.h; what each lacks is seqfaults.c's).
 *
 * A writer bumps a sequence, writes the data, and bumps the sequence
 * again; a reader reads the sequence, reads the data, reads the sequence
 * again and retries when the two differ (or the first was odd).  The
 * reader's data reads meet the writer's writes by design: a read that met
 * a write is thrown away by the retry.
 *
 * What it asks before calling an object a sequence:
 *  - a read section: two marked reads of it in one function, the later
 *    one's value compared, in a branch or a loop, with the earlier one's
 *    kept in a local (the validation);
 *  - an update: two bumps of it in one function (a write of its own value
 *    plus a constant, or an arithmetic RMW: a list's next pointer, read
 *    twice and compared, is validated the same way but is never bumped),
 *    with data writes between;
 *  - the update writes some object that the section reads.
 * Either end of a section or an update may be a call of a function that
 * makes the access for its caller (read_seqbegin(), read_seqretry(),
 * write_seqlock(), and the wrappers of those: find_wrapper); the data
 * accesses are the function's own.
 *
 * The pairings that the flag rules find through a sequence, for an
 * access inside one of its sections or updates, are this rule's
 * (seqlock_owns): a correct sequence lock is no message passing that
 * lacks a handshake. */
#include "seqlock.h"
#include "orderpath.h"
#include "analyzer/model/hashmap.h"
#include "analyzer/model/pairset.h"

#include <stdlib.h>
#include <string.h>

/* Is E, an event of F's own, between FIRST and SECOND: after the one and
 * before the other in F's order, and on a path from the one to the
 * other? */
static int seq_inside(const struct function *f, const struct event *first, const struct event *second,
	       const struct event *e)
{
	struct point p1, p2, pe;

	return e->index > first->index && e->index < second->index && point_of(f, first, &p1) &&
	       point_of(f, second, &p2) && point_of(f, e, &pe) && event_reaches(f, p1.b, p1.k, pe.b, pe.k) &&
	       event_reaches(f, pe.b, pe.k, p2.b, p2.k);
}

/* F's events by their index ('@N' in uses), *N of them; to be freed. */
static const struct event **events_by_index(const struct function *f, int *n)
{
	const struct event **v;
	int max = 0;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].index + 1 > max)
				max = f->blocks[b].events[i].index + 1;
	v = xcalloc((size_t)max + 1, sizeof *v);
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].index >= 0)
				v[f->blocks[b].events[i].index] = &f->blocks[b].events[i];
	*n = max;
	return v;
}

/* --- The values locals hold ------------------------------------------ */

/* The events whose values T depends on (directly, or through the locals
 * holding them, M: compute_derived), by index, into *OUT (grown); their
 * count returned.  T itself first when T is an access (a read tested in
 * place). */
static int values_of(const struct event *t, struct deriv_map *m, const struct event **byidx, int nidx,
		     const struct event ***out, int *cap)
{
	int n = 0;

	if (t->kind == EV_ACCESS) {
		grow(out, cap, n + 1, sizeof **out);
		(*out)[n++] = t;
	}
	for (int k = 0; k < t->deps.n; k++) {
		const struct dep_item *d = &t->deps.v[k];
		const struct derived *l = d->kind == DEP_LOCAL ? dm_get(m, d->local) : NULL;

		if (d->kind == DEP_EVENT && d->n >= 0 && d->n < nidx && byidx[d->n]) {
			grow(out, cap, n + 1, sizeof **out);
			(*out)[n++] = byidx[d->n];
		}
		for (int j = 0; l && j < l->n; j++)
			if (l->reads[j] >= 0 && l->reads[j] < nidx && byidx[l->reads[j]]) {
				grow(out, cap, n + 1, sizeof **out);
				(*out)[n++] = byidx[l->reads[j]];
			}
	}
	return n;
}

/* --- Wrappers ----------------------------------------------------------- */

/* Is E a marked read of a shared object, as a sequence is read? */
static int marked_read(const struct event *e)
{
	return e && e->kind == EV_ACCESS && e->access == ACC_READ && e->marked && e->oid >= 0 && !e->thread_private;
}

/* Does E bump a sequence: a write of its object's value plus a constant
 * (WRITE_ONCE(s->seq, s->seq + 1)), or an arithmetic read-modify-write
 * (s->seq++, atomic_inc)?  A write of anything else (a pointer, a fresh
 * node's link) is no bump. */
static int bumps(const struct event *e)
{
	long long k;

	return e->kind == EV_ACCESS && e->oid >= 0 && !e->thread_private && !e->fresh_init &&
	       ((e->access == ACC_WRITE && event_step(e, &k)) || (e->access == ACC_RMW && counting_rmw(e)));
}


/* What a call of a function does to a sequence for its caller. */
enum wrap_role {
	WRAP_NONE,
	WRAP_READ,    /* returns what a marked read of it returned */
	WRAP_CHECK,   /* returns a comparison of such a read with a parameter */
	WRAP_BUMP,    /* bumps it once */
};

/* A wrapper: its ROLE, its ACCESS of the sequence, and whether it orders
 * that access before whatever follows the call (ORDERED_AFTER: on every
 * path out of it, or by the access's own marking) and after whatever
 * came before the call (ORDERED_BEFORE: on every path to it). */
struct wrapper {
	enum wrap_role role;
	const struct event *access;
	int ordered_after, ordered_before;
};

/* Does DEPS hold parameter N (as "$KEY:N")? */
static int has_param(const struct dep_list *deps, int n)
{
	for (int k = 0; k < deps->n; k++)
		if (deps->v[k].kind == DEP_PARAM && deps->v[k].n == n)
			return 1;
	return 0;
}

struct wrappers;
static const struct wrapper *wrapper_of(struct wrappers *ws, const struct event *e);

/* E, an event of a function, as a read of a sequence: a marked read of
 * its own, or a call of a wrapper that reads (what it returns comes from
 * its read).  The access, or NULL; the wrapper in *INNER (NULL for an own
 * read). */
static const struct event *read_in(struct wrappers *ws, const struct event *e, const struct wrapper **inner)
{
	const struct wrapper *w;

	*inner = NULL;
	if (marked_read(e))
		return e;
	if (!(w = wrapper_of(ws, e)) || w->role == WRAP_BUMP)
		return NULL;
	*inner = w;
	return w->access;
}

/* E, an event of a function, as a bump of a sequence: a bump of its own,
 * or a call of a wrapper that bumps.  The bump, or NULL; the wrapper in
 * *INNER (NULL for an own bump). */
static const struct event *bump_in(struct wrappers *ws, const struct event *e, const struct wrapper **inner)
{
	const struct wrapper *w;

	*inner = NULL;
	if (bumps(e))
		return e;
	if (!(w = wrapper_of(ws, e)) || w->role != WRAP_BUMP)
		return NULL;
	*inner = w;
	return w->access;
}

/* F's returns: the reads their values come from (of one object, else
 * none: *OID -1), and whether one compares such a value with a parameter
 * (not the pointer the read went through: return s != oldseq in
 * read_seqretry(), but not READ_ONCE(p->seq) & ~1) or returns what a
 * check returned. */
static int returned_reads(struct wrappers *ws, const struct function *f, const struct event **byidx, int nidx,
			  struct deriv_map *m, int *oid)
{
	const struct event **vals = NULL;
	int cap = 0, compared = 0, mixed = 0;

	*oid = -1;
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i], *r;
			const struct wrapper *inner;
			int n;

			if (e->sink != SINK_RETURN)
				continue;
			n = values_of(e, m, byidx, nidx, &vals, &cap);
			for (int j = 0; j < n; j++)
				if ((r = read_in(ws, vals[j], &inner))) {
					mixed |= *oid >= 0 && r->oid != *oid;
					*oid = r->oid;
					compared |= inner && inner->role == WRAP_CHECK;
				}
			for (int k = 0; k < e->deps.n; k++) {
				const struct dep_item *d = &e->deps.v[k];
				int through = 0;

				for (int j = 0; d->kind == DEP_PARAM && j < n; j++)
					through |= read_in(ws, vals[j], &inner) && has_param(&vals[j]->deps, d->n);
				compared |= d->kind == DEP_PARAM && !through;
			}
		}
	free(vals);
	if (mixed)
		*oid = -1;
	return compared;
}

/* Orders of a sequence's ACCESS made at F's own event AT (the access, or
 * a call of INNER, the wrapper that makes it): before what follows F
 * (READS: as a read, else as a write) in *AFTER, after what came before
 * F in *BEFORE (each and-ed in). */
static void wrapper_orders(const struct function *f, const struct event *at, const struct event *access,
			   const struct wrapper *inner, int reads, int *after, int *before)
{
	struct point p;
	struct order_ask q = { !reads, access, access };

	if (!point_of(f, at, &p)) {
		*after = *before = 0;
		return;
	}
	*after &= (inner ? inner->ordered_after : fully_ordered(access) || (reads && acquire_or_stronger(access))) ||
		  !unordered_path(f, p, NULL, &q);
	*before &= (inner ? inner->ordered_before : fully_ordered(access) || (!reads && release_or_stronger(access))) ||
		   !unordered_path(f, entry_point(f), &p, &q);
}

/* F as a wrapper: a function whose results come from reads of one object
 * (compared with a parameter: a check, else a read), or one that bumps
 * one object once and writes it nowhere else; either made by F itself or by
 * a wrapper F calls (rte_seqlock_read_begin() returns what
 * rte_seqcount_read_begin() read). */
static struct wrapper find_wrapper(struct wrappers *ws, const struct function *f)
{
	struct wrapper w = { WRAP_NONE, NULL, 1, 1 };
	struct deriv_map m = { 0 };
	const struct event **byidx, *bump = NULL, *bump_at = NULL;
	const struct wrapper *inner, *bump_inner = NULL;
	int nidx, oid, compared, writes = 0;     /* (bumps, and other writes of the bumped object) */

	byidx = events_by_index(f, &nidx);
	compute_derived(f, &m);
	compared = returned_reads(ws, f, byidx, nidx, &m, &oid);
	for (int i = 0; oid >= 0 && i < nidx; i++) {
		const struct event *r = byidx[i] ? read_in(ws, byidx[i], &inner) : NULL;

		if (r && r->oid == oid) {
			w.access = r;
			wrapper_orders(f, byidx[i], r, inner, 1, &w.ordered_after, &w.ordered_before);
		}
	}
	if (w.access)
		w.role = compared ? WRAP_CHECK : WRAP_READ;
	/* (a bump, and no other write of its object: write_seqlock() may
	 * take a lock word too) */
	for (int i = 0; !w.access && i < nidx; i++) {
		const struct event *b = byidx[i] ? bump_in(ws, byidx[i], &inner) : NULL;

		if (b) {
			writes++;
			bump = b;
			bump_at = byidx[i];
			bump_inner = inner;
		}
	}
	for (int i = 0; bump && i < nidx; i++)
		if (byidx[i] && byidx[i] != bump && byidx[i]->kind == EV_ACCESS && byidx[i]->access != ACC_READ &&
		    byidx[i]->oid == bump->oid)
			writes++;
	if (bump && writes == 1) {
		w.role = WRAP_BUMP;
		w.access = bump;
		wrapper_orders(f, bump_at, bump, bump_inner, 0, &w.ordered_after, &w.ordered_before);
	}
	dm_free(&m);
	free(byidx);
	return w;
}

/* The functions of the tree by link key, and what each is as a wrapper
 * (worked out when first asked). */
struct wrappers {
	const struct function *fns;
	struct hashmap by_key;       /* link key -> index + 1 */
	struct wrapper *w;
	unsigned char *known;        /* 0: not asked, 1: in w, 2: being worked out */
};

static void wrappers_init(struct wrappers *ws, const struct analysis *a)
{
	int nfns;

	memset(ws, 0, sizeof *ws);
	ws->fns = analysis_functions(a, &nfns);
	ws->w = xcalloc((size_t)nfns + 1, sizeof *ws->w);
	ws->known = xcalloc((size_t)nfns + 1, 1);
	for (int i = 0; i < nfns; i++) {
		int added;
		intptr_t *slot;

		if (!ws->fns[i].link_key)
			continue;
		slot = hashmap_put_str(&ws->by_key, ws->fns[i].link_key, &added);
		if (added)
			*slot = i + 1;      /* (the first definition) */
	}
}

static void wrappers_free(struct wrappers *ws)
{
	hashmap_free(&ws->by_key);
	free(ws->w);
	free(ws->known);
}

/* What the call E stands for, or NULL when it calls no wrapper (or one
 * being worked out: recursion makes none). */
static const struct wrapper *wrapper_of(struct wrappers *ws, const struct event *e)
{
	intptr_t *slot;
	int i;

	if (e->kind != EV_CALL || !e->target || !(slot = hashmap_get_str(&ws->by_key, e->target)))
		return NULL;
	i = (int)*slot - 1;
	/* (one being worked out has no role yet: WRAP_NONE) */
	if (!ws->known[i]) {
		ws->known[i] = 2;
		ws->w[i] = find_wrapper(ws, &ws->fns[i]);
		ws->known[i] = 1;
	}
	return ws->w[i].role == WRAP_NONE ? NULL : &ws->w[i];
}

/* E as one end of a section (BEGIN: the first, which a check cannot be)
 * or of an update (an update's first end is its OPEN), in *END: the
 * order a wrapper gives is the one towards its caller's side of it; 0
 * when E is no such end. */
static int read_end(struct wrappers *ws, const struct event *e, int begin, struct seq_end *end)
{
	const struct wrapper *inner;
	const struct event *r = read_in(ws, e, &inner);

	if (!r || (begin && inner && inner->role == WRAP_CHECK))
		return 0;
	*end = (struct seq_end){ e, r, inner ? (begin ? inner->ordered_after : inner->ordered_before) : 0 };
	return 1;
}

static int bump_end(struct wrappers *ws, const struct event *e, int open, struct seq_end *end)
{
	const struct wrapper *inner;
	const struct event *b = bump_in(ws, e, &inner);

	if (!b)
		return 0;
	*end = (struct seq_end){ e, b, inner ? (open ? inner->ordered_after : inner->ordered_before) : 0 };
	return 1;
}

/* --- Sections and updates ----------------------------------------------- */

static void add_section(struct seqlocks *s, const struct function *f, struct seq_end begin, struct seq_end check)
{
	for (int i = 0; i < s->nsec; i++)
		if (s->sec[i].begin.at == begin.at && s->sec[i].check.at == check.at)
			return;
	grow(&s->sec, &s->seccap, s->nsec + 1, sizeof *s->sec);
	s->sec[s->nsec++] = (struct seq_section){ f, begin, check };
}

/* F's read sections: two reads of one object, the later one's value
 * tested together with the earlier one's (a test of the two, or of the
 * locals holding them). */
static void find_sections(const struct function *f, struct wrappers *ws, struct seqlocks *s)
{
	struct deriv_map m = { 0 };
	const struct event **byidx, **vals = NULL;
	int nidx, cap = 0;

	byidx = events_by_index(f, &nidx);
	compute_derived(f, &m);
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *t = &f->blocks[b].events[i];
			int n;

			if (t->sink != SINK_TEST && t->sink != SINK_LOOP && t->sink != SINK_POLLED)
				continue;
			n = values_of(t, &m, byidx, nidx, &vals, &cap);
			for (int x = 0; x < n; x++)
				for (int y = 0; y < n; y++) {
					struct seq_end begin, check;
					struct point px, py;

					if (vals[x]->index < vals[y]->index && read_end(ws, vals[x], 1, &begin) &&
					    read_end(ws, vals[y], 0, &check) && begin.access->oid == check.access->oid &&
					    point_of(f, vals[x], &px) && point_of(f, vals[y], &py) &&
					    event_reaches(f, px.b, px.k, py.b, py.k))
						add_section(s, f, begin, check);
				}
		}
	free(vals);
	dm_free(&m);
	free(byidx);
}

/* Is E a write (or a read-modify-write) of a shared object, other than
 * the sequence SEQ, that another thread may see?  DATA_READ likewise. */
static int seq_data_write(const struct event *e, int seq)
{
	return e->kind == EV_ACCESS && (e->access == ACC_WRITE || e->access == ACC_RMW) && e->oid >= 0 &&
	       e->oid != seq && !e->thread_private && !e->fresh_init;
}

static int seq_data_read(const struct event *e, int seq)
{
	return e->kind == EV_ACCESS && e->access == ACC_READ && e->oid >= 0 && e->oid != seq && !e->thread_private &&
	       !e->fresh_init;
}

/* F's updates of objects that some section reads: two bumps of the object
 * in a row (in F's order, the first reaching the second), with a write of
 * other data between. */
static void find_updates(const struct function *f, struct wrappers *ws, struct seqlocks *s,
			 const struct pairset *sequences)
{
	int nidx;
	const struct event **byidx = events_by_index(f, &nidx);

	for (int x = 0; x < nidx; x++) {
		struct seq_end open, close = { NULL, NULL, 0 };
		struct point po, pc;
		int data = 0;

		if (!byidx[x] || !bump_end(ws, byidx[x], 1, &open) || pairset_get(sequences, open.access->oid, 0) < 0)
			continue;
		for (int y = x + 1; y < nidx && !close.at; y++) {
			struct seq_end e;

			if (byidx[y] && bump_end(ws, byidx[y], 0, &e) && e.access->oid == open.access->oid)
				close = e;
		}
		if (!close.at || !point_of(f, open.at, &po) || !point_of(f, close.at, &pc) ||
		    !event_reaches(f, po.b, po.k, pc.b, pc.k))
			continue;
		for (int y = x + 1; byidx[y] != close.at && !data; y++)
			data = byidx[y] && seq_data_write(byidx[y], open.access->oid) &&
			       seq_inside(f, open.at, close.at, byidx[y]);
		if (data) {
			grow(&s->upd, &s->updcap, s->nupd + 1, sizeof *s->upd);
			s->upd[s->nupd++] = (struct seq_update){ f, open, close };
		}
	}
	free(byidx);
}

int seq_shared_data(const struct seq_update *u, const struct seq_section *c,
		    void (*fn)(const struct event *w, const struct event *r, void *ctx), void *ctx)
{
	int nw, nr, found = 0, seq = u->open.access->oid;
	const struct event **w = events_by_index(u->fn, &nw), **r = events_by_index(c->fn, &nr);

	for (int i = u->open.at->index + 1; i < u->close.at->index && (fn || !found); i++)
		for (int j = c->begin.at->index + 1; w[i] && j < c->check.at->index && (fn || !found); j++)
			if (r[j] && seq_data_write(w[i], seq) && seq_data_read(r[j], seq) && r[j]->oid == w[i]->oid &&
			    seq_inside(u->fn, u->open.at, u->close.at, w[i]) &&
			    seq_inside(c->fn, c->begin.at, c->check.at, r[j])) {
				found++;
				if (fn)
					fn(w[i], r[j], ctx);
			}
	free(w);
	free(r);
	return found;
}

void seqlocks_find(const struct analysis *a, struct seqlocks *s)
{
	int nfns;
	const struct function *fns = analysis_functions(a, &nfns);
	struct pairset sequences = { 0 };
	unsigned char *keep_upd, *keep_sec;
	struct seqlocks all = { 0 };
	struct wrappers ws;

	memset(s, 0, sizeof *s);
	wrappers_init(&ws, a);
	for (int g = 0; g < nfns; g++)
		find_sections(&fns[g], &ws, &all);
	for (int i = 0; i < all.nsec; i++)
		pairset_put(&sequences, all.sec[i].begin.access->oid, 0, 1);
	for (int g = 0; g < nfns && all.nsec; g++)
		find_updates(&fns[g], &ws, &all, &sequences);
	/* (a sequence is one whose updates write what its sections read) */
	keep_upd = xcalloc((size_t)all.nupd + 1, 1);
	keep_sec = xcalloc((size_t)all.nsec + 1, 1);
	for (int i = 0; i < all.nupd; i++)
		for (int j = 0; j < all.nsec; j++)
			if (all.upd[i].open.access->oid == all.sec[j].begin.access->oid &&
			    seq_shared_data(&all.upd[i], &all.sec[j], NULL, NULL))
				keep_upd[i] = keep_sec[j] = 1;
	for (int i = 0; i < all.nupd; i++)
		if (keep_upd[i]) {
			grow(&s->upd, &s->updcap, s->nupd + 1, sizeof *s->upd);
			s->upd[s->nupd++] = all.upd[i];
		}
	for (int j = 0; j < all.nsec; j++)
		if (keep_sec[j]) {
			grow(&s->sec, &s->seccap, s->nsec + 1, sizeof *s->sec);
			s->sec[s->nsec++] = all.sec[j];
		}
	free(keep_upd);
	free(keep_sec);
	seqlocks_free(&all);
	pairset_free(&sequences);
	wrappers_free(&ws);
}

void seqlocks_free(struct seqlocks *s)
{
	free(s->sec);
	free(s->upd);
	memset(s, 0, sizeof *s);
}

int seqlock_owns(const struct seqlocks *s, const struct function *fn, const struct event *e, int flag_oid)
{
	for (int i = 0; i < s->nsec; i++)
		if (s->sec[i].fn == fn && s->sec[i].begin.access->oid == flag_oid &&
		    seq_inside(fn, s->sec[i].begin.at, s->sec[i].check.at, e))
			return 1;
	for (int i = 0; i < s->nupd; i++)
		if (s->upd[i].fn == fn && s->upd[i].open.access->oid == flag_oid &&
		    seq_inside(fn, s->upd[i].open.at, s->upd[i].close.at, e))
			return 1;
	return 0;
}
