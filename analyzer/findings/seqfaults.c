/* analyzer/findings/seqfaults.c — what a sequence lock lacks (issue 12,
 * shape 2; the locks themselves are found by seqlock.c).
 *
 * Four orders make a sequence lock correct, and each one missing lets a
 * torn snapshot through with both sequence reads equal:
 *
 *   reader: the data reads after the first sequence read (smp_rmb(), or
 *           an acquire load of the sequence), and before the second
 *           (smp_rmb(): an acquire on the second read orders what comes
 *           after it, not the reads before it);
 *   writer: the data writes after the first bump (smp_wmb(): a release
 *           orders what comes before it, not the writes after it), and
 *           before the second (smp_wmb(), or a release store).
 *
 * The sequence itself is written by marked accesses: a plain bump races
 * with the readers' marked reads (the compiler may tear it or fold the two
 * bumps into one).  With every order in place, a plain data access is
 * still a data race for the LKMM and for C11, which know no discarded read
 * (the kernel makes a section's reads atomic to KCSAN instead): it is
 * reported too, as the least of these, since no torn value is kept. */
#include "seqlock.h"
#include "orderpath.h"
#include "analyzer/model/pairset.h"

#include <stdlib.h>

/* Is there a path of F from its own event A to its own event B on which
 * nothing may order accesses FIRST and SECOND (STORES: two writes, else
 * two reads)? */
static int unordered(const struct function *f, const struct event *a, const struct event *b, int stores,
		     const struct event *first, const struct event *second)
{
	struct point pa, pb;
	struct order_ask q = { stores, first, second };

	return point_of(f, a, &pa) && point_of(f, b, &pb) && unordered_path(f, pa, &pb, &q);
}

/* What section C lacks at its data read R, or -1. */
static int read_fault(const struct seq_section *c, const struct event *r)
{
	const struct seq_end *b = &c->begin, *k = &c->check;

	if (!b->ordered && !acquire_or_stronger(b->access) && !release_or_stronger(r) &&
	    unordered(c->fn, b->at, r, 0, b->access, r))
		return SEQ_READ_BEFORE_BEGIN;
	if (!k->ordered && !fully_ordered(k->access) && !acquire_or_stronger(r) &&
	    unordered(c->fn, r, k->at, 0, r, k->access))
		return SEQ_READ_AFTER_CHECK;
	return -1;
}

/* What update U lacks at its data write W, or -1. */
static int write_fault(const struct seq_update *u, const struct event *w)
{
	const struct seq_end *o = &u->open, *c = &u->close;

	if (!o->ordered && !fully_ordered(o->access) && !release_or_stronger(w) &&
	    unordered(u->fn, o->at, w, 1, o->access, w))
		return SEQ_WRITE_BEFORE_OPEN;
	if (!c->ordered && !release_or_stronger(c->access) && !fully_ordered(w) &&
	    unordered(u->fn, w, c->at, 1, w, c->access))
		return SEQ_WRITE_AFTER_CLOSE;
	return -1;
}

/* Do update U and section C meet: one sequence, in functions that may run
 * at the same time, and W (an access of U's side) not made before C's
 * thread exists? */
static int meet(const struct analysis *a, const struct seq_update *u, const struct seq_section *c,
		const struct event *w)
{
	return u->open.access->oid == c->begin.access->oid && run_together(a, u->fn, c->fn) &&
	       !made_before_started(a, w, c->fn);
}

struct faults {
	struct seq_fault_site *v;
	int n, cap;
	struct pairset seen;         /* sites reported (gid) */
};

static void add_fault(struct faults *out, enum seq_fault fault, const struct seq_section *c,
		      const struct seq_update *u, const struct event *site, const struct event *other)
{
	if (pairset_get(&out->seen, site->gid, 0) >= 0)
		return;
	pairset_put(&out->seen, site->gid, 0, 1);
	grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
	out->v[out->n++] = (struct seq_fault_site){ fault, c, u, site, other };
}

/* What one pair of data accesses of a section and an update lacks. */
struct pair_check {
	const struct analysis *a;
	const struct seq_update *u;
	const struct seq_section *c;
	struct faults *out;
};

static void check_pair(const struct event *w, const struct event *r, void *ctx)
{
	struct pair_check *p = ctx;
	int fault;

	if (!meet(p->a, p->u, p->c, w))
		return;
	if ((fault = write_fault(p->u, w)) >= 0)
		add_fault(p->out, fault, p->c, p->u, w, r);
	if ((fault = read_fault(p->c, r)) >= 0)
		add_fault(p->out, fault, p->c, p->u, r, w);
	/* (a site with an order fault keeps that one) */
	if (!r->marked)
		add_fault(p->out, SEQ_PLAIN_DATA, p->c, p->u, r, w);
	else if (!w->marked)
		add_fault(p->out, SEQ_PLAIN_DATA, p->c, p->u, w, r);
}

/* The accesses of the data that an update writes and a section of the
 * same sequence reads, for each pair of them that meet, checked on both
 * sides. */
static void data_faults(const struct analysis *a, const struct seqlocks *s, struct faults *out)
{
	for (int i = 0; i < s->nupd; i++)
		for (int j = 0; j < s->nsec; j++) {
			struct pair_check p = { a, &s->upd[i], &s->sec[j], out };

			if (s->upd[i].open.access->oid == s->sec[j].begin.access->oid &&
			    run_together(a, s->upd[i].fn, s->sec[j].fn))
				seq_shared_data(&s->upd[i], &s->sec[j], check_pair, &p);
		}
}

/* A plain bump of a sequence (of the function's own) that a section of a
 * function running at the same time reads. */
static void plain_sequence_faults(const struct analysis *a, const struct seqlocks *s, struct faults *out)
{
	for (int i = 0; i < s->nupd; i++) {
		const struct seq_update *u = &s->upd[i];
		const struct event *bumps[2] = { u->open.access, u->close.access };

		for (int e = 0; e < 2; e++)
			for (int j = 0; !bumps[e]->marked && j < s->nsec; j++)
				if (meet(a, u, &s->sec[j], bumps[e])) {
					add_fault(out, SEQ_PLAIN_SEQUENCE, &s->sec[j], u, bumps[e], s->sec[j].begin.access);
					break;
				}
	}
}

int seqlock_faults(const struct analysis *a, const struct seqlocks *s, struct seq_fault_site **out)
{
	struct faults f = { 0 };

	plain_sequence_faults(a, s, &f);
	data_faults(a, s, &f);
	pairset_free(&f.seen);
	*out = f.v;
	return f.n;
}
