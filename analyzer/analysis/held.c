/* analyzer/analysis/held.c — the locks a function holds at each plain
 * access it reaches, its own and those its callees take (held.h).
 *
 * A function's lock records (records.c) hold the locks it holds itself
 * where it makes or calls towards an access.  A lock the callee takes
 * inside is the callee's: ck_hs_put() takes its single-writer lock and
 * calls ck_hs_map_postinsert(), so main() calling ck_hs_put() through
 * set_insert() reaches postinsert's n_entries++ holding that lock
 * although main() and set_insert() hold nothing.  The summary keeps, per
 * access, the locks held at it on every path through the function (an
 * intersection over the places that reach it), and a root's record of an
 * access reached through a call adds those the callee holds at it.
 *
 * Per access, not per function: set_insert() also hashes the key before
 * the call, unlocked, so "the locks held at every access it reaches" is
 * nothing, and the writers' increments were paired with each other.
 *
 * Cheap enough for whole trees: an access's entry is a number into the
 * function's few distinct lock sets, in an array beside its sorted
 * all_plain (a call's view of it is the callee's own array when the call
 * maps no access: most calls), and a function in which no lock is ever
 * held keeps nothing.  The first version kept a hash map of lock arrays
 * per function and remapped every callee's map at every call of every
 * round of the fixpoint: Open vSwitch's whole-tree analysis went from
 * about 15 s to 140 s. */
#include "held.h"
#include "internal.h"

#include <limits.h>
#include <string.h>

/* Do A and B hold the same locks (each lock once in each)? */
static int same_locks(const struct strset *a, const struct strset *b)
{
	if (a->n != b->n)
		return 0;
	for (int k = 0; k < a->n; k++)
		if (a->v[k] != b->v[k] && !ss_has(b, a->v[k]))
			return 0;
	return 1;
}

unsigned lock_sets_find(struct lock_sets *t, const struct strset *locks)
{
	struct strset *s;

	if (t->n == 0) {
		grow(&t->v, &t->cap, 1, sizeof *t->v);
		memset(&t->v[0], 0, sizeof t->v[0]);
		t->n = 1;
	}
	if (locks->n == 0)
		return 0;
	for (int i = 1; i < t->n; i++)
		if (same_locks(&t->v[i], locks))
			return (unsigned)i;
	grow(&t->v, &t->cap, t->n + 1, sizeof *t->v);
	s = &t->v[t->n];
	memset(s, 0, sizeof *s);
	for (int k = 0; k < locks->n; k++)
		ss_add(s, locks->v[k]);
	return (unsigned)t->n++;
}

static void lock_sets_free(struct lock_sets *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i].v);
	free(t->v);
	memset(t, 0, sizeof *t);
}

/* B's entry for access E: set *ADDED when the run had none yet. */
static struct held_entry *held_entry(struct held_builder *b, const struct event *e, int *added)
{
	struct held_table *t = b->table;
	struct held_entry *x;

	if (b->run == 0)
		b->run = ++t->runs;
	if (e->gid >= t->cap) {
		int was = t->cap;

		grow(&t->v, &t->cap, e->gid + 1, sizeof *t->v);
		memset(t->v + was, 0, (size_t)(t->cap - was) * sizeof *t->v);
	}
	x = &t->v[e->gid];
	*added = x->run != b->run;
	x->run = b->run;
	return x;
}

void held_meet(struct held_builder *b, const struct event *e, unsigned id)
{
	int added;
	struct held_entry *x = held_entry(b, e, &added);
	struct strset both = { 0 };
	const struct strset *was;

	if (added) {
		x->id = id;
		return;
	}
	if (x->id == id || x->id == 0)
		return;
	if (id == 0) {
		x->id = 0;
		return;
	}
	/* another place that holds other locks: what both hold */
	was = &b->sets.v[x->id];
	for (int k = 0; k < was->n; k++)
		if (ss_has(&b->sets.v[id], was->v[k]))
			ss_add(&both, was->v[k]);
	x->id = lock_sets_find(&b->sets, &both);
	free(both.v);
}

void held_finish(struct held_builder *b, const struct evset *all_plain, struct held_locks *out)
{
	int any = 0;

	memset(out, 0, sizeof *out);
	if (b->sets.n > 1) {
		const struct held_table *t = b->table;

		out->at = xmalloc(((size_t)all_plain->n + 1) * sizeof *out->at);
		for (int i = 0; i < all_plain->n; i++) {
			int gid = all_plain->v[i]->gid;

			out->at[i] = b->run && gid < t->cap && t->v[gid].run == b->run ? t->v[gid].id : 0;
			any |= out->at[i] != 0;
		}
	}
	if (any) {
		out->sets = b->sets;
		memset(&b->sets, 0, sizeof b->sets);
	} else {
		free(out->at);
		out->at = NULL;
	}
	held_builder_free(b);
}

/*
 * Without it the rounds of a recursive component need not end: a lock
 * wrapper in the component (ovs_mutex_lock() calling ovs_abort() calling
 * vlog functions that take locks, in Open vSwitch) is seen as one only
 * from some round on, so a set may grow from one round to the next as
 * well as shrink, and the summaries kept changing until the round cap.
 * Meeting each run with the last makes every set only shrink; what it
 * drops is a lock an earlier round did not see held, which pairs more,
 * never less.
 */
void held_narrow(struct held_locks *h, const struct evset *all_plain, const struct held_locks *old,
		 const struct evset *old_plain)
{
	int j = 0, any = 0;

	if (!h->at || old_plain->n == 0)
		return;
	for (int i = 0; i < all_plain->n; i++) {
		const struct strset *was;
		struct strset both = { 0 };

		while (j < old_plain->n && old_plain->v[j]->gid < all_plain->v[i]->gid)
			j++;
		if (h->at[i] && j < old_plain->n && old_plain->v[j] == all_plain->v[i]) {
			if (!old->at || old->at[j] == 0) {
				h->at[i] = 0;
			} else {
				was = &old->sets.v[old->at[j]];
				for (int k = 0; k < h->sets.v[h->at[i]].n; k++)
					if (ss_has(was, h->sets.v[h->at[i]].v[k]))
						ss_add(&both, h->sets.v[h->at[i]].v[k]);
				h->at[i] = lock_sets_find(&h->sets, &both);
				free(both.v);
			}
		}
		any |= h->at[i] != 0;
	}
	if (!any) {
		lock_sets_free(&h->sets);
		free(h->at);
		h->at = NULL;
	}
}

void held_builder_free(struct held_builder *b)
{
	lock_sets_free(&b->sets);
	b->run = 0;
}

void held_table_free(struct held_table *t)
{
	free(t->v);
	memset(t, 0, sizeof *t);
}

void held_call_begin(struct held_call *hc, const struct lock_sets *callee)
{
	hc->callee = callee;
	hc->n = callee ? callee->n : 0;
	hc->mine = NULL;
	hc->none = UINT_MAX;
	if (hc->n) {
		hc->mine = xmalloc((size_t)hc->n * sizeof *hc->mine);
		for (int k = 0; k < hc->n; k++)
			hc->mine[k] = UINT_MAX;
	}
}

unsigned held_call_set(struct held_call *hc, struct lock_sets *mine, const struct strset *locks, unsigned k)
{
	struct strset all = { 0 };
	unsigned id;

	if (k == 0 || k >= (unsigned)hc->n)
		return hc->none != UINT_MAX ? hc->none : (hc->none = lock_sets_find(mine, locks));
	if (hc->mine[k] != UINT_MAX)
		return hc->mine[k];
	for (int i = 0; i < locks->n; i++)
		ss_add(&all, locks->v[i]);
	for (int i = 0; i < hc->callee->v[k].n; i++)
		ss_add(&all, hc->callee->v[k].v[i]);
	id = lock_sets_find(mine, &all);
	free(all.v);
	return hc->mine[k] = id;
}

void held_call_end(struct held_call *hc)
{
	free(hc->mine);
	hc->mine = NULL;
}

int held_same(const struct held_locks *a, const struct held_locks *b, int n)
{
	if (!a->at || !b->at)
		return !a->at && !b->at;
	for (int i = 0; i < n; i++)
		if ((i == 0 || a->at[i] != a->at[i - 1] || b->at[i] != b->at[i - 1]) &&
		    !same_locks(&a->sets.v[a->at[i]], &b->sets.v[b->at[i]]))
			return 0;
	return 1;
}

void held_free(struct held_locks *h)
{
	lock_sets_free(&h->sets);
	free(h->at);
	h->at = NULL;
}
