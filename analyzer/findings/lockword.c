/* analyzer/findings/lockword.c — locks made of a word and released by a
 * relaxed store.
 *
 * A lock word is taken by a compare-and-swap with acquire that expects the
 * free value and stores another (if (*lock == 0 && cmp_set(lock, 0,
 * WLOCK)) return;) and given back by a store of the free value.  That
 * store must order the critical section before it: everything its
 * function's callers did while they held the lock (LKMM: a release, or a
 * full barrier before it).  A relaxed store (a volatile assignment,
 * WRITE_ONCE) with nothing since its function's entry ordering the
 * earlier reads and writes lets the section's accesses become visible
 * after the next holder took the lock (nginx's ngx_rwlock_unlock() stored
 * *lock = 0 so until 3f26c207; that library is not found, though: its
 * word is each function's own parameter and nothing in its file takes and
 * then gives it back, docs/limitations.md).
 *
 * The critical section is the callers', usually outside the tree (a
 * library's lock), so no data access is paired: the pattern is checked
 * with that side assumed (issue 12, shape 7).  What makes the word a lock
 * is in the tree: a take of it (analysis: LOCK_WORD_TAKE, an acquire, a
 * constant expected and another stored) expecting exactly the value the
 * store writes back, in a function that may run while the store's does;
 * and what makes the store a give-back is that it comes after a take: in
 * some function of the tree the take (or a call of its function) runs
 * before the store (or a call of its function).  The same store in an
 * initialiser (rte_rwlock_init(): rwl->cnt = 0) comes after no take and
 * sets the word free before anyone holds it. */
#include "lockword.h"

#include <stdlib.h>
#include <string.h>

/* Is event E the operation OP itself, or a call of OP's function? */
static int runs_op(const struct event *e, const struct lock_word_op *op)
{
	return e == op->e || (e->kind == EV_CALL && e->target && op->fn->link_key &&
			      strcmp(e->target, op->fn->link_key) == 0);
}

/* Does some function run TAKE (itself or through a call) and later, on a
 * path from it, STORE? */
static int gives_back(const struct analysis *a, const struct lock_word_op *store, const struct lock_word_op *take)
{
	int nfns;
	const struct function *fns = analysis_functions(a, &nfns);

	for (int g = 0; g < nfns; g++) {
		const struct function *f = &fns[g];

		for (int tb = 0; tb < f->nblocks; tb++)
			for (int ti = 0; ti < f->blocks[tb].nevents; ti++) {
				if (!runs_op(&f->blocks[tb].events[ti], take))
					continue;
				for (int sb = 0; sb < f->nblocks; sb++)
					for (int si = 0; si < f->blocks[sb].nevents; si++)
						if (runs_op(&f->blocks[sb].events[si], store) &&
						    ((sb == tb && si > ti) || successors_reach(f, tb, sb)))
							return 1;
			}
	}
	return 0;
}

/* May F and G (or two activations of F) run at the same time? */
static int together(const struct analysis *a, const struct function *f, const struct function *g)
{
	return f == g ? runs_concurrently_with_itself(a, f) : may_run_concurrently(a, f, g);
}

int lock_word_releases(const struct analysis *a, struct lock_release **out)
{
	int nstores, ntakes, n = 0;
	const struct lock_word_op *stores = analysis_lock_word_ops(a, LOCK_WORD_STORE, &nstores);
	const struct lock_word_op *takes = analysis_lock_word_ops(a, LOCK_WORD_TAKE, &ntakes);

	*out = NULL;
	if (!nstores || !ntakes)
		return 0;
	*out = xcalloc((size_t)nstores, sizeof **out);
	for (int i = 0; i < nstores; i++) {
		long long freed, expected;

		if (!event_constant(stores[i].e, 0, &freed))
			continue;
		for (int k = 0; k < ntakes; k++)
			if (takes[k].e->oid == stores[i].e->oid && event_constant(takes[k].e, 1, &expected) &&
			    expected == freed && together(a, stores[i].fn, takes[k].fn) &&
			    gives_back(a, &stores[i], &takes[k])) {
				(*out)[n++] = (struct lock_release){ &stores[i], &takes[k] };
				break;
			}
	}
	return n;
}
