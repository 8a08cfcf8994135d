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
 * *lock = 0 so until 3f26c207).
 *
 * The critical section is the callers', usually outside the tree (a
 * library's lock), so no data access is paired: the pattern is checked
 * with that side assumed (issue 12, shape 7).  What makes the word a lock
 * is in the tree: a take of it (analysis: LOCK_WORD_TAKE, an acquire, a
 * constant expected and another stored) expecting exactly the value the
 * store writes back, in a function that may run while the store's does. */
#include "lockword.h"

#include <stdlib.h>

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
			    expected == freed && together(a, stores[i].fn, takes[k].fn)) {
				(*out)[n++] = (struct lock_release){ &stores[i], &takes[k] };
				break;
			}
	}
	return n;
}
