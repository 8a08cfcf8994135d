/* analyzer/analysis/guards.c — which marked reads decide whether a block runs
 * (guards.h): immediate post-dominators, then the regions that each
 * branch and each loop condition control. */
#include "guards.h"

#include <stdlib.h>
#include <string.h>

/* Immediate post-dominator of each block of F, -1 for the exit and for
 * blocks from which the exit cannot be reached (an endless loop): the
 * dominator tree of the reversed CFG rooted at the exit, by Cooper, Harvey
 * and Kennedy's iteration over reverse postorder. */
static int *post_dominators(const struct function *f)
{
	int n = f->nblocks, *ipdom = xmalloc(sizeof(int) * (size_t)(n + 1));
	int *po = xcalloc(n + 1, sizeof *po), *order = xcalloc(n + 1, sizeof *order);
	int *npred = xcalloc(n + 1, sizeof *npred), **pred = xcalloc(n + 1, sizeof *pred);
	int *stack = xcalloc(n + 1, sizeof *stack), *next = xcalloc(n + 1, sizeof *next);
	int top = 0, count = 0, changed = 1;
	unsigned char *seen = xcalloc(n + 1, 1);

	for (int b = 0; b < n; b++)
		ipdom[b] = -1;
	/* The reversed graph's edges lead from a block to its CFG
	 * predecessors. */
	for (int b = 0; b < n; b++)
		for (int s = 0; s < f->blocks[b].nsucc; s++)
			npred[f->blocks[b].succ[s]]++;
	for (int b = 0; b < n; b++) {
		pred[b] = xcalloc(npred[b] + 1, sizeof **pred);
		npred[b] = 0;
	}
	for (int b = 0; b < n; b++)
		for (int s = 0; s < f->blocks[b].nsucc; s++) {
			int t = f->blocks[b].succ[s];

			pred[t][npred[t]++] = b;
		}
	/* Postorder of the reversed graph from the exit (iterative DFS). */
	if (f->exit >= 0 && f->exit < n) {
		stack[top++] = f->exit;
		seen[f->exit] = 1;
	}
	while (top) {
		int b = stack[top - 1];

		if (next[b] < npred[b]) {
			int p = pred[b][next[b]++];

			if (!seen[p]) {
				seen[p] = 1;
				stack[top++] = p;
			}
			continue;
		}
		top--;
		po[b] = count;
		order[count++] = b;
	}
	if (count > 0) {
		int root = order[count - 1];

		ipdom[root] = root;
		while (changed) {
			changed = 0;
			for (int k = count - 2; k >= 0; k--) {
				int b = order[k], nd = -1;

				for (int s = 0; s < f->blocks[b].nsucc; s++) {
					int t = f->blocks[b].succ[s];

					if (!seen[t] || ipdom[t] < 0)
						continue;
					if (nd < 0) {
						nd = t;
						continue;
					}
					{
						int x = t, y = nd;

						while (x != y) {
							while (po[x] < po[y])
								x = ipdom[x];
							while (po[y] < po[x])
								y = ipdom[y];
						}
						nd = x;
					}
				}
				if (nd >= 0 && ipdom[b] != nd) {
					ipdom[b] = nd;
					changed = 1;
				}
			}
		}
		ipdom[root] = -1;
	}
	for (int b = 0; b < n; b++)
		free(pred[b]);
	free(pred); free(npred); free(po); free(order); free(stack); free(next); free(seen);
	return ipdom;
}

static void add_guard(struct guards *g, int b, int index)
{
	if (guards_has(g, b, index))
		return;
	grow(&g->v[b], &g->cap[b], g->n[b] + 1, sizeof *g->v[b]);
	g->v[b][g->n[b]++] = index;
}

/* Marks as guarded by DEPS (N of them) every block reachable from block
 * FROM's successors without passing STOP (-1: none). */
static void guard_region(const struct function *f, struct guards *g, int from, int stop,
			 const int *deps, int n, int *stack, unsigned char *seen)
{
	int top = 0;

	memset(seen, 0, (size_t)f->nblocks + 1);
	for (int s = 0; s < f->blocks[from].nsucc; s++) {
		int t = f->blocks[from].succ[s];

		if (t != stop && !seen[t]) {
			seen[t] = 1;
			stack[top++] = t;
		}
	}
	while (top) {
		int b = stack[--top];

		for (int i = 0; i < n; i++)
			add_guard(g, b, deps[i]);
		for (int s = 0; s < f->blocks[b].nsucc; s++) {
			int t = f->blocks[b].succ[s];

			if (t != stop && !seen[t]) {
				seen[t] = 1;
				stack[top++] = t;
			}
		}
	}
}

void guards_compute(const struct function *f, test_deps_fn deps_of, void *ctx, struct guards *out)
{
	int n = f->nblocks, *ipdom = post_dominators(f), *deps = NULL, cap = 0;
	int *stack = xcalloc(n + 1, sizeof *stack);
	unsigned char *seen = xcalloc(n + 1, 1);

	out->nblocks = n;
	out->v = xcalloc(n + 1, sizeof *out->v);
	out->n = xcalloc(n + 1, sizeof *out->n);
	out->cap = xcalloc(n + 1, sizeof *out->cap);
	for (int b = 0; b < n; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];
			int loop, nd;

			if (e->kind != EV_LOCAL || (e->sink != SINK_LOOP && e->sink != SINK_TEST))
				continue;
			loop = e->sink == SINK_LOOP;
			nd = deps_of(ctx, e, &deps, &cap);
			if (nd > 0)
				guard_region(f, out, b, loop ? -1 : ipdom[b], deps, nd, stack, seen);
		}
	free(deps);
	free(stack);
	free(seen);
	out->ipdom = ipdom;
	out->entry = f->entry;
}

int guards_always_runs(const struct guards *g, int b)
{
	int steps = 0;

	for (int x = g->entry; x >= 0 && x < g->nblocks && steps++ <= g->nblocks; x = g->ipdom[x])
		if (x == b)
			return 1;
	return 0;
}

int guards_has(const struct guards *g, int b, int index)
{
	if (b < 0 || b >= g->nblocks)
		return 0;
	for (int i = 0; i < g->n[b]; i++)
		if (g->v[b][i] == index)
			return 1;
	return 0;
}

void guards_free(struct guards *g)
{
	for (int b = 0; b < g->nblocks; b++)
		free(g->v[b]);
	free(g->v);
	free(g->n);
	free(g->cap);
	free(g->ipdom);
	memset(g, 0, sizeof *g);
}
