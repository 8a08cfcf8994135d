/* analyzer/analysis/solver.c — the per-function solver and the tree-wide
 * fixpoint: a function's CFG walked until its states settle (run_function),
 * functions in the order of the call graph's strongly connected
 * components, and each recursive component iterated until its summaries
 * stop changing (summary_same). */
#include "internal.h"

/* __attribute__((constructor)): extract.c marks its entry with a local
 * event named "constructor". */
int is_constructor(const struct function *f)
{
	const struct block *b = &f->blocks[f->entry];

	return b->nevents > 0 && b->events[0].kind == EV_LOCAL && is_named(&b->events[0], "constructor");
}

/* Backward: after each event, can pthread_create come next, before any
 * pthread_join?  (On some path: a loop of pthread_create may also run
 * zero times, and initialisation before it is still initialisation.) */
static int creates_threads(struct program *p, const struct function *f, const struct event *e)
{
	struct summary *s;

	if (is_named(e, "pthread_create"))
		return 1;
	return e->kind == EV_CALL && (s = callee_of(p, e, f)) != NULL && s->calls_create;
}

static unsigned char *compute_pre_spawn(struct program *p, struct function *f)
{
	int maxidx = 0, changed = 1, rounds = 0;
	unsigned char *in, *out;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].index + 1 > maxidx)
				maxidx = f->blocks[b].events[i].index + 1;
	out = xcalloc(maxidx + 1, 1);
	if (is_constructor(f)) {
		/* A constructor runs before main(): all of it is initialisation
		 * done before the program's threads are created. */
		memset(out, 1, maxidx + 1);
		return out;
	}
	in = xcalloc(f->nblocks + 1, 1);
	while (changed && rounds++ < 100) {
		changed = 0;
		for (int b = f->nblocks - 1; b >= 0; b--) {
			struct block *bl = &f->blocks[b];
			int v = 0;

			if (b == f->exit)
				continue;
			for (int s = 0; s < bl->nsucc; s++)
				v |= in[bl->succ[s]];
			for (int i = bl->nevents - 1; i >= 0; i--) {
				struct event *e = &bl->events[i];

				if (e->index >= 0 && e->index < maxidx)
					out[e->index] = (unsigned char)v;
				if (creates_threads(p, f, e))
					v = 1;
				else if (is_named(e, "pthread_join"))
					v = 0;
			}
			if (in[b] != v) {
				in[b] = (unsigned char)v;
				changed = 1;
			}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_PRE_SPAWN);
	free(in);
	return out;
}

/* Marks p->fork_child: the functions that run only in the child of
 * fork(), where the thread that forked is the only thread (the other
 * threads of the parent do not exist there): those the profile says so of
 * (OP_FORK_CHILD: the front end's "fork_child" marker), and those a call
 * of pthread_atfork registers as its child handler (third argument) and
 * none as a prepare or parent handler, which run in the parent. */
void find_fork_children(struct program *p)
{
	unsigned char *in_parent = xcalloc((size_t)p->nfns + 1, 1);

	p->fork_child = xcalloc((size_t)p->nfns + 1, 1);
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				const struct event *e = &p->fns[fi].blocks[b].events[i];

				if (e->kind != EV_CALL || !e->target || strcmp(e->target, "pthread_atfork") != 0)
					continue;
				for (int a = 0; a < 3; a++) {
					const char *h = passed_function(e, a);
					struct summary *s = h ? summary_of(p, h, &p->fns[fi]) : NULL;

					if (s && a < 2)
						in_parent[s - p->sums] = 1;
					else if (s)
						p->fork_child[s - p->sums] = 1;
				}
			}
	for (int fi = 0; fi < p->nfns; fi++) {
		const struct block *entry = &p->fns[fi].blocks[p->fns[fi].entry];

		p->fork_child[fi] &= !in_parent[fi];
		if (entry->nevents > 0 && entry->events[0].kind == EV_LOCAL &&
		    is_named(&entry->events[0], "fork_child"))
			p->fork_child[fi] = 1;
	}
	free(in_parent);
}

/* Does FI start with no other thread running?  main() does, and so do
 * constructors and fork-child handlers: any other function may be a
 * library entry point called from threads. */
int starts_single_threaded(struct program *p, int fi)
{
	return (strcmp(p->fns[fi].name, "main") == 0 && !p->called[fi]) || is_constructor(&p->fns[fi]) ||
	       (p->fork_child && p->fork_child[fi]);
}

/*
 * The one definition of "the summary changed", used both by the call-view
 * cache (a view is valid while its callee's summary version stands) and
 * by the convergence of recursive components (a round changed something
 * when a member's version moved).  The sets are compared whole: they do
 * not only grow from one run of a function to the next (asserting that
 * they do failed on Open vSwitch: an exit set shrank), so equal sizes
 * prove nothing.
 */
static int summary_same(const struct summary *a, const struct summary *b)
{
	return a->must_kill == b->must_kill && a->calls_create == b->calls_create &&
	       a->noreturn == b->noreturn && a->returns_value == b->returns_value &&
	       a->lock_param == b->lock_param && a->unlock_param == b->unlock_param &&
	       a->lock_global == b->lock_global && a->unlock_global == b->unlock_global &&
	       a->returns_read == b->returns_read && a->result_tells == b->result_tells &&
	       a->out_tells == b->out_tells &&
	       es_same(&a->exit_plain, &b->exit_plain) && es_same(&a->exit_reads, &b->exit_reads) &&
	       es_same(&a->all_plain, &b->all_plain) && es_same(&a->all_reads, &b->all_reads) &&
	       es_same(&a->all_mwrites, &b->all_mwrites) && es_same(&a->waited, &b->waited) &&
	       es_same(&a->after_spawn, &b->after_spawn) && is_same(&a->exit_running, &b->exit_running) &&
	       held_same(&a->held, &b->held, a->all_plain.n) &&
	       xs_same(&a->entry_mwrites, &b->entry_mwrites) && xs_same(&a->entry_plain, &b->entry_plain);
}

void summary_free(struct summary *s)
{
	free(s->exit_plain.v); free(s->exit_reads.v); free(s->all_plain.v);
	free(s->all_reads.v); free(s->all_mwrites.v);
	free(s->entry_mwrites.v); free(s->entry_plain.v); free(s->waited.v);
	free(s->after_spawn.v);
	held_free(&s->held);
	free(s->exit_running.v);
	for (int k = 0; k < NVIEW_SETS; k++)
		free(s->movable[k].v);
}

/* May a lock be held anywhere in F: does it take or release one, start
 * with one held, or call a function that holds one at an access, leaves
 * one held or releases one?  Only then does its summary keep the locks
 * held at its accesses (held.c). */
static int may_hold_locks(struct program *p, const struct function *f)
{
	if (lock_released_not_taken(p, f))
		return 1;
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];
			const struct other_callee *o;
			struct summary *cs;
			int n;

			if (e->kind == EV_LOCK || e->kind == EV_UNLOCK)
				return 1;
			if (e->kind != EV_CALL || !(cs = callee_of(p, e, f)))
				continue;
			o = other_callees(p, e, &n);
			for (int k = -1; k < n; k++) {
				const struct summary *t = k < 0 ? cs : o[k].s;

				if (t->held.at || t->lock_global || t->unlock_global || t->lock_param >= 0 ||
				    t->unlock_param >= 0)
					return 1;
			}
		}
	return 0;
}

/* (compute_derived_through_calls) Does the callee of CALL store a marked
 * read's value through its argument ARG?  Its summary says so once it is
 * solved: callees first, and a component's members again until they
 * settle. */
static int call_stores_read(const void *ctx, const struct event *call, int arg)
{
	const struct fn_ctx *c = ctx;
	const struct summary *cs = callee_of(c->p, call, c->fn);

	return cs && arg >= 0 && arg < 32 && (cs->out_tells >> arg & 1u);
}

/* The parameters of C's function that it passes on to a call that stores
 * a marked read's value through them (get(out); summary.out_tells): its
 * own stores of one are noted as they are walked (transfer.c,
 * note_stored_read). */
static unsigned passed_on_reads(const struct fn_ctx *c)
{
	const struct function *f = c->fn;
	unsigned bits = 0;

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];

			for (int k = 0; e->kind == EV_CALL && k < e->argv.n && k < 32; k++)
				if (e->argv.v[k] && object_is_param_of(e->argv.v[k], &e->argv.ref[k], f->link_key) &&
				    e->argv.ref[k].param < 32 && call_stores_read(c, e, k))
					bits |= 1u << e->argv.ref[k].param;
		}
	return bits;
}

/* Runs the dataflow of function FI to its fixpoint, then one more pass
 * over every block that records the summary (unless FOLLOWER) and the
 * facts of kinds EMIT (internal.h).
 *
 * Facts are recorded in that pass only, from the settled states.  A state
 * on the way there is not a smaller version of the settled one: the first
 * walk reaches the code after a loop from the loop's entry alone (after a
 * loop of pthread_join, as if no thread were joined), and the must-sets
 * (locks, orderings) are larger than they end up.  Facts recorded then
 * were facts of no path of the program, and they stuck (a link keeps the
 * first fence and function it was seen with).  Recording once is also
 * cheaper: Open vSwitch's analysis took about 10 s of CPU instead of 12. */
void run_function(struct program *p, int fi, unsigned emit, int follower)
{
	struct function *f = &p->fns[fi];
	struct state *in = xcalloc(f->nblocks, sizeof *in);
	unsigned char *pending = xcalloc(f->nblocks + 1, 1);
	struct state cur = { 0 };
	struct fn_ctx c = { .p = p, .fn = f, .records = emit };
	struct summary fresh = { 0 };
	int changed = 1, rounds = 0, nevents;

	compute_derived_through_calls(f, &c.derived, call_stores_read, &c);
	nevents = event_count(f);
	c.used = value_marks(f, &c.derived, nevents, 0);
	/* (what only some kinds of facts read is worked out for the runs
	 * that record them: consumers and reader candidates here, early
	 * links when the first one is found, transfer.c) */
	c.nevents = nevents;
	c.by_index = xcalloc(nevents + 1, sizeof *c.by_index);
	c.returns_read = xcalloc(nevents + 1, 1);
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			struct event *e = &f->blocks[b].events[i];

			if (e->index >= 0 && e->index < nevents)
				c.by_index[e->index] = e;
			fresh.returns_value |= defines_sink(e, SINK_RETURN);
		}
	c.ncopies = value_copies(f, &c.derived, &c.copies);
	guards_compute(f, test_deps, &c, &c.guards);
	/* (the writer side asks them too: a lock word's give-back after a
	 * test that saw it held, note_lock_word_op) */
	if (emit & (EMIT_READER | EMIT_WRITER))
		value_tests_compute(f, compared_read, &c, &c.values);
	if (emit)
		c.pre_spawn = compute_pre_spawn(p, f);
	in[f->entry].reached = 1;
	in[f->entry].calm = starts_single_threaded(p, fi) || p->entry_calm[fi];
	in[f->entry].threads = in[f->entry].calm ? THREADS_NONE_YET :
			       p->entry_quiet[fi] ? THREADS_JOINED : THREADS_RUNNING;
	/* A function that releases a global lock it never takes is entered
	 * with it held (the second half of a pair of fork handlers, an
	 * unlock wrapper): what it does before the release holds it. */
	{
		const char *held = lock_released_not_taken(p, f);

		if (held)
			ss_add(&in[f->entry].locks, (char *)kept_key(p->out, held));
	}
	/* Sweeps in block order over the blocks whose entry state changed
	 * since they were last walked (at first only the entry): a block
	 * after a loop is not walked again for every turn of the loop. */
	pending[f->entry] = 1;
	while (changed && rounds++ < 200) {
		changed = 0;
		for (int b = 0; b < f->nblocks; b++) {
			if (!pending[b] || !in[b].reached)
				continue;
			pending[b] = 0;
			c.cur_block = b;
			state_copy(&cur, &in[b]);
			for (int i = 0; i < f->blocks[b].nevents; i++)
				transfer(&c, &cur, &f->blocks[b].events[i]);
			for (int s = 0; s < f->blocks[b].nsucc; s++)
				if (state_merge(&in[f->blocks[b].succ[s]], &cur)) {
					pending[f->blocks[b].succ[s]] = 1;
					changed = 1;
				}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_FUNCTION);
	free(pending);
	/* (the leader's run only: a follower reads what it recorded) */
	if (emit && !follower)
		note_pointer_reads(&c);
	/* Final pass: summary and facts (see above). */
	c.emit = emit;
	c.sum = follower ? NULL : &fresh;
	c.holds_locks = !follower && may_hold_locks(p, f);
	c.held.table = &p->held_table;
	for (int b = 0; b < f->nblocks; b++) {
		if (!in[b].reached)
			continue;
		c.cur_block = b;
		state_copy(&cur, &in[b]);
		for (int i = 0; i < f->blocks[b].nevents; i++)
			transfer(&c, &cur, &f->blocks[b].events[i]);
	}
	/* (a follower's run only records facts: the summary is the leader's) */
	if (follower)
		goto done;
	held_finish(&c.held, &fresh.all_plain, &fresh.held);
	find_lock_wrapper(p, f, in[f->exit].reached ? &in[f->exit] : NULL, &fresh);
	fresh.noreturn = !in[f->exit].reached;
	if (in[f->exit].reached) {
		fresh.must_kill = in[f->exit].killed;
		es_copy(&fresh.exit_plain, &in[f->exit].pend_plain);
		es_copy(&fresh.exit_reads, &in[f->exit].pend_reads);
		is_union(&fresh.exit_running, &in[f->exit].running);
	}
	{
		unsigned char *exported = value_marks(f, &c.derived, nevents, 1);

		keep_exported(&fresh.exit_reads, f->name, exported, nevents);
		keep_exported(&fresh.all_reads, f->name, exported, nevents);
		free(exported);
		/* (all reads: an acquire that a wait loop polls is no longer
		 * pending at the exit, but it still decides what the caller
		 * does next: wait_acquire(&a) in a relay) */
		exported = sink_marks(f, &c.derived, nevents, SINK_LOOP, &c.guards);
		for (int i = 0; i < fresh.all_reads.n; i++) {
			struct event *r = fresh.all_reads.v[i];

			if (r->func == f->name ? r->index < nevents && exported[r->index] :
			    pairset_get(&c.origins, r->gid, WAITED_IN_CALLEE) >= 0)
				es_add(&fresh.waited, r);
		}
		free(exported);
		/* The returned value carries a read: one of its own, or a call's
		 * whose callee returns one (get_head() returning READ_ONCE(head),
		 * clear_flag(rcu_dereference(p))). */
		for (int pass = 0; pass < 2; pass++) {
			/* The value returned (pass 0), or, for a function that
			 * returns one, a branch (pass 1): if (READ_ONCE(ready))
			 * return 1; says what the read saw too, without carrying
			 * its value (no dependency through it). */
			int *out = pass ? &fresh.result_tells : &fresh.returns_read;

			if (pass == 1 && !fresh.returns_value)
				break;
			exported = sink_marks(f, &c.derived, nevents, pass ? SINK_TEST : SINK_RETURN, NULL);
			for (int i = 0; i < nevents && !*out; i++)
				*out = exported[i] && c.by_index[i] &&
				       ((c.by_index[i]->kind == EV_ACCESS && c.by_index[i]->marked &&
					 c.by_index[i]->access != ACC_WRITE) ||
					(c.by_index[i]->kind == EV_CALL && c.returns_read[i]));
			free(exported);
		}
		fresh.result_tells |= fresh.returns_read;
		fresh.out_tells |= passed_on_reads(&c);
	}
	/* Replace the old summary, unless the new one is the same: the call
	 * views made of it (callview.c) point into its arrays (a view's
	 * held_at may be the summary's own array, and its lock-set numbers
	 * are those of the summary's sets) and stay valid only while those
	 * do.  A view is made again only when the version moves, so
	 * replacing an unchanged summary left the views of it reading freed
	 * memory: what a recursive component's callers saw of the locks held
	 * in it then depended on what the allocator had put there since (at
	 * -j 2, on the follower's allocations too). */
	{
		struct summary *old = &p->sums[fi];

		held_narrow(&fresh.held, &fresh.all_plain, &old->held, &old->all_plain);
		if (summary_same(&fresh, old)) {
			summary_free(&fresh);
		} else {
			fresh.version = old->version + 1;
			summary_free(old);
			*old = fresh;
		}
	}
done:
	for (int b = 0; b < f->nblocks; b++)
		state_free(&in[b]);
	state_free(&cur);
	free(in);
	free(c.pre_spawn);
	free(c.used);
	free(c.decides);
	free(c.by_index);
	free(c.copies);
	free(c.returns_read);
	guards_free(&c.guards);
	value_tests_free(&c.values);
	held_builder_free(&c.held);
	pairset_free(&c.origins);
	dm_free(&c.derived);
}

/* Marks the functions that some call in the tree reaches. */
void find_called(struct program *p)
{
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];
				struct summary *s;
				const struct other_callee *o;
				int n;

				if (e->kind == EV_CALL && (s = callee_of(p, e, &p->fns[fi]))) {
					p->called[s - p->sums] = 1;
					o = other_callees(p, e, &n);
					for (int k = 0; k < n; k++)
						p->called[o[k].s - p->sums] = 1;
				}
			}
}

/* Every call of the tree whose callee is known, in function order; *N
 * gets their number.  The caller frees the array. */
struct call_edge *call_edges(struct program *p, int *n)
{
	struct call_edge *edges = NULL;
	int cap = 0;

	*n = 0;
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];
				struct summary *cs;
				const struct other_callee *o;
				int others;

				if (e->kind != EV_CALL || !(cs = callee_of(p, e, &p->fns[fi])))
					continue;
				o = other_callees(p, e, &others);
				grow(&edges, &cap, *n + 1 + others, sizeof *edges);
				edges[*n].caller = fi;
				edges[(*n)++].callee = (int)(cs - p->sums);
				for (int k = 0; k < others; k++) {
					edges[*n].caller = fi;
					edges[(*n)++].callee = (int)(o[k].s - p->sums);
				}
			}
	return edges;
}

/* The most rounds over a recursive component before its summaries count
 * as final: recursion through many functions could otherwise grow them
 * for long, and a summary that is still growing by then is nearly
 * complete.  (Summaries only grow, so rounds end when nothing changes.) */
#define MAX_SUMMARY_RUNS 12

/* Summaries, then facts, for the functions of one strongly connected
 * component of the call graph (MEMBERS, N of them), whose callees outside
 * it are all final.  A function that calls no function of its own
 * component is analysed once, facts included; a recursive component is
 * run to a fixpoint first (bounded by MAX_SUMMARY_RUNS rounds), then once
 * more recording facts.  With followers (SP, split.c), the leader records
 * its kinds of facts and hands the component on; a component whose
 * summaries did not settle is run by the leader alone, recording
 * everything (its final runs may still change the summaries, which the
 * followers' runs would not see as they were). */
static void solve_component(struct program *p, const int *members, int n, int recursive,
			    struct split *sp)
{
	int changed = recursive, rounds = 0;
	unsigned emit = split_leader_emit(sp);

	while (changed && rounds++ < MAX_SUMMARY_RUNS) {
		changed = 0;
		for (int i = 0; i < n; i++) {
			unsigned before = p->sums[members[i]].version;

			run_function(p, members[i], 0, 0);
			changed |= p->sums[members[i]].version != before;
		}
	}
	if (changed)
		analysis_cap_hit(CAP_SUMMARY);
	if (changed && sp) {
		split_drain(sp);
		emit = EMIT_ALL;
	}
	for (int i = 0; i < n; i++)
		run_function(p, members[i], emit, 0);
	/* (with followers, the component's views are freed once they have
	 * run it too: split.c) */
	if (emit != EMIT_ALL)
		split_push(sp, members, n);
	else
		for (int i = 0; i < n; i++)
			free_call_views(p, members[i]);
}

/* Computes every function's summary and records the facts.  A function's
 * summary depends only on those of its callees, so the call graph's
 * strongly connected components are solved callees first (Tarjan's
 * algorithm, iterative: call chains can be deep, and it yields the
 * components in that order): most functions are then analysed once.
 * With THREADS > 1 the final runs are split over threads (split.c). */
void solve_summaries(struct program *p, int threads)
{
	int n = p->nfns, nedges, next_index = 0, top = 0, tsp = 0;
	struct call_edge *edges = call_edges(p, &nedges);
	int *out_head = new_heads(n), *out_next = new_heads(nedges);
	int *index = new_heads(n), *low = xcalloc(n + 1, sizeof *low);
	int *calls = xcalloc(n + 1, sizeof *calls), *cursor = xcalloc(n + 1, sizeof *cursor);
	int *tarjan = xcalloc(n + 1, sizeof *tarjan), *members = xcalloc(n + 1, sizeof *members);
	unsigned char *on_stack = xcalloc(n + 1, 1), *self_call = xcalloc(n + 1, 1);
	struct split *sp = split_start(p, threads);

	for (int k = nedges - 1; k >= 0; k--) {
		out_next[k] = out_head[edges[k].caller];
		out_head[edges[k].caller] = k;
		if (edges[k].caller == edges[k].callee)
			self_call[edges[k].caller] = 1;
	}
	for (int root = 0; root < n; root++) {
		if (index[root] >= 0)
			continue;
		index[root] = low[root] = next_index++;
		tarjan[tsp++] = root;
		on_stack[root] = 1;
		cursor[root] = out_head[root];
		calls[top++] = root;
		while (top) {
			int f = calls[top - 1], k = cursor[f];

			if (k >= 0) {
				int g = edges[k].callee;

				cursor[f] = out_next[k];
				if (index[g] < 0) {
					index[g] = low[g] = next_index++;
					tarjan[tsp++] = g;
					on_stack[g] = 1;
					cursor[g] = out_head[g];
					calls[top++] = g;
				} else if (on_stack[g] && index[g] < low[f]) {
					low[f] = index[g];
				}
				continue;
			}
			top--;
			if (top && low[f] < low[calls[top - 1]])
				low[calls[top - 1]] = low[f];
			if (low[f] == index[f]) {
				int m = 0, g;

				do {
					g = tarjan[--tsp];
					on_stack[g] = 0;
					members[m++] = g;
				} while (g != f);
				solve_component(p, members, m, m > 1 || self_call[f], sp);
			}
		}
	}
	split_finish(sp);
	free(edges); free(out_head); free(out_next); free(index); free(low);
	free(calls); free(cursor); free(tarjan); free(members); free(on_stack);
	free(self_call);
}
