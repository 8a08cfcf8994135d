/* analyzer/analysis/created.c — what a thread does before it creates
 * another happens before everything the new thread does.
 *
 * pthread_create() orders the creator's earlier accesses before the new
 * thread's first (C11 7.26.2.2, POSIX 4.12), and pthread_join() orders
 * the thread's last before the joiner's later ones.  liburcu's rcutorture
 * does
 *
 *     main:    perftestinit();                    n_reads_pt[t] = 0, every t
 *              create_thread(rcu_read_perf_test);
 *              perftestrun();                     goflag = GOFLAG_RUN; ...
 *                                                 wait_all_threads()
 *     reader:  while (goflag == GOFLAG_RUN) ...;  n_reads_pt[me] += n;
 *
 * with call_rcu helper threads already running when main() gets there,
 * so the dataflow's "no thread yet" does not hold.  The reader's update
 * after it reads goflag is no missing acquire, and races with none of
 * main()'s stores: they were all made before the reader existed.
 *
 * The rule.  Access P's function runs in one thread entry point R only,
 * and R runs once; every creation of start routine T is made in R's
 * thread; and R never makes P while a thread of T that it created may
 * still run.  Then each P is made before a thread of T starts or after
 * it was joined: P races with nothing T's threads do.  A function that
 * runs in such threads T, and in R itself (perfbook's maze solver: the
 * parent runs the child function as the first child), races with P in
 * none of them.  The dataflow keeps at each point the start routines
 * whose threads may run (state.running: added at each creation, a
 * callee's added at the call, emptied at a join; a merge keeps both
 * sides', so after a loop of joins that may run zero times they still
 * may: that pairs more, never less), and records (P, T) in made_while for
 * each plain access made while T is in it (a callee's accesses at the
 * call, with the caller's set; those the callee makes after its own
 * creations in its own run).
 */
#include "internal.h"

static int creation_gid_cmp(const void *x, const void *y)
{
	const struct creation *a = x, *b = y;

	return (a->gid > b->gid) - (a->gid < b->gid);
}

void note_creations(struct program *p, const struct start_edge *edges, int n)
{
	struct analysis *a = p->out;
	int cap = 0;

	a->creator_root = xmalloc(((size_t)p->nfns + 1) * sizeof *a->creator_root);
	for (int fi = 0; fi < p->nfns; fi++) {
		a->creator_root[fi] = -2;       /* (no creation seen yet) */
		*hashmap_put(&a->fn_by_name, (uint64_t)(uintptr_t)p->fns[fi].name, NULL) = fi;
	}
	for (int k = 0; k < n; k++) {
		const struct thread_roots *r = &a->roots[edges[k].from];
		int *root = &a->creator_root[edges[k].to];

		if (!edges[k].create)
			continue;
		grow(&p->created, &cap, p->ncreated + 1, sizeof *p->created);
		p->created[p->ncreated++] = (struct creation){ edges[k].gid, edges[k].to };
		/* (a creator in an API any thread may call, or in a thread that
		 * runs several times, creates from several threads) */
		if (r->many || r->n != 1 || a->unknown_root[r->v[0]] || a->instances[r->v[0]] >= 2)
			*root = -1;
		else if (*root == -2)
			*root = r->v[0];
		else if (*root != r->v[0])
			*root = -1;
	}
	if (p->ncreated > 1)
		qsort(p->created, (size_t)p->ncreated, sizeof *p->created, creation_gid_cmp);
}

void created_threads(struct program *p, struct state *s, const struct event *e)
{
	int lo = 0, hi = p->ncreated;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (p->created[mid].gid < e->gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->ncreated && p->created[lo].gid == e->gid; lo++)
		is_add(&s->running, p->created[lo].routine);
}

void note_made_while(struct fn_ctx *c, const struct state *s, const struct event *e)
{
	const struct event *o = e->orig ? e->orig : e;

	for (int i = 0; i < s->running.n; i++)
		pairset_put(&c->p->out->made_while, o->gid, s->running.v[i], 1);
}

int made_before_started(const struct analysis *a, const struct event *p, const struct function *g)
{
	const struct event *o = p->orig ? p->orig : p;
	intptr_t *fi = p->func && a->creator_root ? hashmap_get(&a->fn_by_name, (uint64_t)(uintptr_t)p->func) : NULL;
	const struct thread_roots *rp, *rg;
	int r;

	if (!fi)
		return 0;
	rp = &a->roots[*fi];
	if (rp->many || rp->n != 1)
		return 0;
	r = rp->v[0];
	if (a->unknown_root[r] || a->instances[r] >= 2)
		return 0;
	rg = &a->roots[g - a->fns];
	if (rg->many || rg->n == 0)
		return 0;
	for (int i = 0; i < rg->n; i++) {
		int t = rg->v[i];

		/* (G run by P's own thread, maze_part.c's parent running
		 * maze_solve_child() itself as the first child, is ordered
		 * with P by the program's order: that thread runs once) */
		if (t == r)
			continue;
		if (!a->started_root[t] || a->creator_root[t] != r || pairset_get(&a->made_while, o->gid, t) >= 0)
			return 0;
	}
	return 1;
}
