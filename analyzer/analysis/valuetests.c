/* analyzer/analysis/valuetests.c — which values a marked read may have
 * returned where a block runs (valuetests.h). */
#include "valuetests.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct vrange vrange_any(void)
{
	return (struct vrange){ LLONG_MIN, LLONG_MAX, 0, 0, 0 };
}

int vrange_allows(const struct vrange *r, long long v)
{
	return !r->known || (v >= r->lo && v <= r->hi && !(r->has_ne && r->ne == v));
}

/* R keeps only the values for which "value CMP V" is HOLDS. */
static void vrange_meet(struct vrange *r, char cmp, long long v, int holds)
{
	static const char ops[] = "=!<>{}", negated[] = "!=}{><";
	const char *at = strchr(ops, cmp);

	if (!at || !cmp)
		return;
	if (!holds)
		cmp = negated[at - ops];
	if (!r->known)
		*r = (struct vrange){ LLONG_MIN, LLONG_MAX, 0, 1, 0 };
	switch (cmp) {
	case '=':
		r->lo = r->lo > v ? r->lo : v;
		r->hi = r->hi < v ? r->hi : v;
		break;
	case '!':
		if (v == r->lo && v < LLONG_MAX)
			r->lo = v + 1;
		else if (v == r->hi && v > LLONG_MIN)
			r->hi = v - 1;
		else if (!r->has_ne) {     /* (a second hole is left out: more allowed) */
			r->ne = v;
			r->has_ne = 1;
		}
		break;
	case '<':
		if (v == LLONG_MIN)
			r->hi = LLONG_MIN, r->lo = LLONG_MAX;     /* nothing */
		else if (v - 1 < r->hi)
			r->hi = v - 1;
		break;
	case '>':
		if (v == LLONG_MAX)
			r->hi = LLONG_MIN, r->lo = LLONG_MAX;
		else if (v + 1 > r->lo)
			r->lo = v + 1;
		break;
	case '{':
		r->hi = r->hi < v ? r->hi : v;
		break;
	case '}':
		r->lo = r->lo > v ? r->lo : v;
		break;
	}
}

void vrange_join(struct vrange *r, const struct vrange *o)
{
	struct vrange a = *r;

	if (!r->known || !o->known) {
		*r = vrange_any();
		return;
	}
	r->lo = a.lo < o->lo ? a.lo : o->lo;
	r->hi = a.hi > o->hi ? a.hi : o->hi;
	r->has_ne = 0;
	/* a hole of either stays when the other keeps the value out too */
	if (a.has_ne && !vrange_allows(o, a.ne))
		r->ne = a.ne, r->has_ne = 1;
	else if (o->has_ne && !vrange_allows(&a, o->ne))
		r->ne = o->ne, r->has_ne = 1;
}

/* Restricts READ's values in block B of T to those for which the
 * comparison D holds (HOLDS) or fails. */
static void restrict_block(struct value_tests *t, int b, int read, const struct dep_item *d, int holds)
{
	struct value_test *slot = NULL;

	for (int i = 0; i < t->n[b] && !slot; i++)
		if (t->v[b][i].read == read)
			slot = &t->v[b][i];
	if (!slot) {
		grow(&t->v[b], &t->cap[b], t->n[b] + 1, sizeof *t->v[b]);
		slot = &t->v[b][t->n[b]++];
		slot->read = read;
		slot->range = vrange_any();
	}
	vrange_meet(&slot->range, d->cmp, d->value, holds);
}

/* Marks in OUT every block reachable from FROM (itself included) without
 * entering AVOID (-1: none). */
static void reach(const struct function *f, int from, int avoid, unsigned char *out, int *stack)
{
	int top = 0;

	memset(out, 0, (size_t)f->nblocks + 1);
	if (from < 0 || from >= f->nblocks || from == avoid)
		return;
	out[from] = 1;
	stack[top++] = from;
	while (top) {
		int b = stack[--top];

		for (int s = 0; s < f->blocks[b].nsucc; s++) {
			int t = f->blocks[b].succ[s];

			if (t != avoid && !out[t]) {
				out[t] = 1;
				stack[top++] = t;
			}
		}
	}
}

/* The block of F that holds the event of index INDEX, or -1. */
static int block_of(const struct function *f, int index)
{
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].index == index)
				return b;
	return -1;
}

void value_tests_compute(const struct function *f, compared_read_fn read_of, void *ctx, struct value_tests *out)
{
	int n = f->nblocks, *npred = NULL, *stack = NULL;
	unsigned char *from_entry = NULL, *from_succ = NULL;

	memset(out, 0, sizeof *out);
	for (int b = 0; b < n; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];

			if (e->kind != EV_LOCAL || (e->sink != SINK_TEST && e->sink != SINK_LOOP) ||
			    f->blocks[b].nsucc != 2 || f->blocks[b].succ[0] == f->blocks[b].succ[1])
				continue;
			for (int k = 0; k < e->conds.n; k++) {
				const struct dep_item *d = &e->conds.v[k];
				int read;

				if (d->role != DEP_COMPARE || d->arg > 1 || (read = read_of(ctx, b, i, d)) < 0)
					continue;
				if (!out->v) {          /* the first comparison of F */
					out->nblocks = n;
					out->v = xcalloc(n + 1, sizeof *out->v);
					out->n = xcalloc(n + 1, sizeof *out->n);
					out->cap = xcalloc(n + 1, sizeof *out->cap);
					npred = xcalloc(n + 1, sizeof *npred);
					stack = xcalloc(n + 1, sizeof *stack);
					from_entry = xcalloc(n + 1, 1);
					from_succ = xcalloc(n + 1, 1);
					/* (the predecessors that run: the dead block
					 * after a return still falls into the join) */
					reach(f, f->entry, -1, from_entry, stack);
					for (int x = 0; x < n; x++)
						for (int s = 0; s < f->blocks[x].nsucc && from_entry[x]; s++)
							npred[f->blocks[x].succ[s]]++;
				}
				for (int side = 0; side < 2; side++) {
					int s = f->blocks[b].succ[side], rb;

					/* (an edge joined by another that runs: no
					 * restriction) */
					if (npred[s] != 1)
						continue;
					/* the blocks S dominates: reached from it, and
					 * not from the entry without it */
					reach(f, f->entry, s, from_entry, stack);
					reach(f, s, -1, from_succ, stack);
					/* (a read made again where S leads: the blocks
					 * after it see that value, not the one tested) */
					rb = block_of(f, read);
					if (rb >= 0 && from_succ[rb] && !from_entry[rb])
						continue;
					for (int x = 0; x < n; x++)
						if (from_succ[x] && !from_entry[x])
							restrict_block(out, x, read, d, side == d->arg);
				}
			}
		}
	free(npred);
	free(stack);
	free(from_entry);
	free(from_succ);
}

struct vrange value_tests_at(const struct value_tests *t, int b, int read)
{
	if (t->v && b >= 0 && b < t->nblocks)
		for (int i = 0; i < t->n[b]; i++)
			if (t->v[b][i].read == read)
				return t->v[b][i].range;
	return vrange_any();
}

void value_tests_free(struct value_tests *t)
{
	for (int b = 0; t->v && b < t->nblocks; b++)
		free(t->v[b]);
	free(t->v);
	free(t->n);
	free(t->cap);
	memset(t, 0, sizeof *t);
}
