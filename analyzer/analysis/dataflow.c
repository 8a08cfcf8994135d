/* analyzer/analysis/dataflow.c — ordering analysis (see dataflow.h).
 *
 * Per function, a forward dataflow over the CFG keeps:
 *   pend_plain  plain accesses not yet ordered by a barrier (may: union);
 *               a marked write or RMW reached with one pending is a
 *               writer-side candidate (docs/design.md §5: the access may become
 *               visible after the flag);
 *   pend_reads  marked reads not yet ordered before later reads; a plain
 *               read reached with one pending, whose address does not
 *               depend on it, is a reader-side candidate;
 *   seen_*      every plain access / marked read so far, ordered or not,
 *               for pairing (who publishes D through F, who reads F then D);
 *   killed      what has been ordered on every path since entry (must:
 *               intersection), which becomes the function's summary;
 *   locks       locks held on every path (must), for the lockset rule;
 *   threads     whether other threads run: none yet (the entry of main()),
 *               running (after pthread_create), or joined (after
 *               pthread_join); a state is "quiet" when none runs;
 *   calm        no thread was ever created, on every path (main() and
 *               constructors until their first thread creation): plain
 *               accesses made then are initialisation, never pending.
 * Thread creation is pthread_create or a call of a function that creates
 * threads (create_thread(fn, arg) wrappers, see count_instances).
 * A call applies the callee's summary: its exposed marked writes and plain
 * reads are checked against the caller's pending sets, then its orderings
 * and its own pending accesses flow into the caller.  Summaries are
 * iterated over the whole tree until they stop changing.
 */
#define _GNU_SOURCE   /* qsort_r */
#include "internal.h"

static int key_cmp(const void *a, const void *b, void *prog)
{
	const struct program *p = prog;

	return strcmp(p->fns[*(const int *)a].link_key, p->fns[*(const int *)b].link_key);
}

struct analysis *analyse(struct function *fns, int nfns)
{
	return analyse_threads(fns, nfns, 1);
}

struct analysis *analyse_threads(struct function *fns, int nfns, int threads)
{
	struct analysis *out = xcalloc(1, sizeof *out);
	struct program p = { 0 };
	int *order = xcalloc(nfns + 1, sizeof *order), nstarts;
	struct start_edge *starts;

	analysis_caps_reset();
	/* The pair sets asked millions of times (pairset.h), grouped by the
	 * number their askers hold fixed: a marked write against every
	 * pending access (writer_check), a plain access against every read
	 * seen (reader_check), a function against every access a call
	 * brings in (record_locks). */
	out->pseen.layout = PAIRSET_BY_SECOND;
	out->cseen.layout = PAIRSET_BY_FIRST;
	out->recseen.layout = PAIRSET_BY_FIRST;
	p.fns = fns;
	p.nfns = nfns;
	p.out = out;
	p.sums = xcalloc(nfns + 1, sizeof *p.sums);
	p.keys = xcalloc(nfns + 1, sizeof *p.keys);
	p.key_fn = xcalloc(nfns + 1, sizeof *p.key_fn);
	p.called = xcalloc(nfns + 1, sizeof *p.called);
	for (int i = 0; i < nfns; i++)
		order[i] = i;
	qsort_r(order, nfns, sizeof *order, key_cmp, &p);
	for (int i = 0; i < nfns; i++) {
		p.keys[i] = fns[order[i]].link_key;
		p.key_fn[i] = order[i];
	}
	scope_program_globals(&p);
	number_events(&p);
	cache_callees(&p);
	find_exclusive_files(&p);
	mark_fresh_inits(fns, nfns, function_index, &p);
	find_called(&p);
	find_fork_children(&p);
	find_private_params(&p);
	out->instances = xcalloc(nfns + 1, 1);
	out->fns = fns;
	out->nfns = nfns;
	starts = find_starts(&p, &nstarts);
	find_owner_only_fields(&p);
	find_thread_roots(&p);
	count_instances(&p, starts, nstarts);
	note_creations(&p, starts, nstarts);
	free(starts);
	find_quiet_entries(&p);
	find_guarded_functions(&p);
	solve_summaries(&p, threads);
	/* a clone is made by the callee's activation, in its file */
	out->owned_events = carry_to_clones(&p, out->owned_events, &out->nowned_events, 1, &(unsigned char){ 0 });
	find_claimed_accesses(&p);
	out->event_file = carry_to_clones(&p, out->event_file, &out->nevent_files, sizeof(int), &(int){ -1 });
	find_phases(&p);
	build_indexes(out, p.next_gid);
	build_tallies(out);
	for (int i = 0; i < nfns; i++)
		summary_free(&p.sums[i]);
	free(p.created);
	hashmap_free(&p.objects);
	free(p.fnptrs);
	hashmap_free(&p.clones);
	hashmap_free(&p.canon);
	hashmap_free(&p.clone_root);
	held_table_free(&p.held_table);
	for (int i = 0; i < p.ncanon; i++)
		free(p.canon_keys[i]);
	free(p.canon_keys);
	for (int i = 0; i < p.nviews; i++)
		free_view_chain(p.views[i]);
	free(p.views);
	free(p.others);
	free(p.sums);
	free(p.keys);
	free(p.key_fn);
	free(p.called);
	free(p.callee);
	free(p.callee_from);
	free(p.private_args);
	free(p.started);
	free(p.creates);
	free(p.joins);
	free(p.fork_child);
	free(p.guarded);
	hashmap_free(&p.fn_by_name);
	free(p.entry_calm);
	free(p.entry_quiet);
	free(order);
	return out;
}
