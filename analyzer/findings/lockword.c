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
 * store writes back, in a function that may run while the store's does;
 * and what makes the store a give-back is that it comes after a take: in
 * some function of the tree the take (or a call of its function) runs
 * before the store (or a call of its function), or the store's own
 * function stores only after a test saw the word hold the value the take
 * stores (readers = *lock; if (readers == WLOCK) *lock = 0): only the
 * holder gives back a word it sees held.  The same store in an
 * initialiser (rte_rwlock_init(): rwl->cnt = 0) comes after no take and
 * tests nothing: it sets the word free before anyone holds it.
 *
 * A lock library's functions are each given the word by their callers,
 * often outside the tree: each sees its own parameter's pointee
 * ("p:KEY:N"), two objects.  Those are taken for one word when the
 * pointers are of one declared type and the protocol matches both ways
 * (the take expects what the store writes, and the store's function saw
 * the word hold what the take writes); a field (l->locked) is one object
 * already. */
#include "lockword.h"

#include <stdlib.h>
#include <string.h>

/* Is event E the operation OP itself, or a call of OP's function? */
static int runs_op(const struct event *e, const struct lock_word_op *op)
{
	return e == op->e || (e->kind == EV_CALL && e->target && op->fn->link_key &&
			      strcmp(e->target, op->fn->link_key) == 0);
}

/* Where OP runs in F (itself, or a call of its function): the positions
 * into *OUT (block, index pairs); returns how many. */
static int runs_of(const struct function *f, const struct lock_word_op *op, int (**out)[2])
{
	int n = 0, cap = 0;

	*out = NULL;
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (runs_op(&f->blocks[b].events[i], op)) {
				grow(out, &cap, n + 1, sizeof **out);
				(*out)[n][0] = b;
				(*out)[n++][1] = i;
			}
	return n;
}

/* Does some function run TAKE (itself or through a call) and later, on a
 * path from it, STORE? */
static int gives_back(const struct analysis *a, const struct lock_word_op *store, const struct lock_word_op *take)
{
	int nfns, found = 0;
	const struct function *fns = analysis_functions(a, &nfns);

	for (int g = 0; g < nfns && !found; g++) {
		int (*t)[2], (*s)[2] = NULL;
		int nt = runs_of(&fns[g], take, &t), ns = nt ? runs_of(&fns[g], store, &s) : 0;

		for (int i = 0; i < nt && !found; i++)
			for (int k = 0; k < ns && !found; k++)
				found = event_reaches(&fns[g], t[i][0], t[i][1], s[k][0], s[k][1]);
		free(t);
		free(s);
	}
	return found;
}

/* The declared type of what the pointer parameter through which E
 * accesses its word points to ("!type:T", items.h), or NULL. */
static const char *param_word_type(const struct event *e)
{
	for (int i = 0; i < e->conds.n; i++)
		if (e->conds.v[i].kind == DEP_TYPE)
			return e->conds.v[i].name;
	return NULL;
}

/* Did STORE's function see the word hold the value a take stores
 * (TAKEN) before it gave it back: the holder's give-back? */
static int seen_taken(const struct lock_word_op *store, long long taken)
{
	return store->seen_held && store->held == taken;
}

/* Are STORE and TAKE made on one word: one object, or each function's
 * own pointer parameter to a word of one declared type (a lock library's
 * API: ngx_rwlock_wlock(ngx_atomic_t *lock) and ngx_rwlock_unlock(
 * ngx_atomic_t *lock), whose callers, outside the tree, pass the same
 * word)?  The type is taken only with the protocol matched both ways:
 * the store gives back the value the take expects, after its function
 * saw the word hold the value the take stores (HELD, seen_taken). */
static int same_word(const struct lock_word_op *store, const struct lock_word_op *take, int held)
{
	const char *st, *tt;

	if (take->e->oid == store->e->oid)
		return 1;
	if (!held || !(st = param_word_type(store->e)) || !(tt = param_word_type(take->e)))
		return 0;
	return strcmp(st, tt) == 0;
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
		for (int k = 0; k < ntakes; k++) {
			long long taken;
			int held;

			if (!event_constant(takes[k].e, 1, &expected) || expected != freed ||
			    !event_constant(takes[k].e, 0, &taken))
				continue;
			held = seen_taken(&stores[i], taken);
			if (same_word(&stores[i], &takes[k], held) && run_together(a, stores[i].fn, takes[k].fn) &&
			    (held || gives_back(a, &stores[i], &takes[k]))) {
				(*out)[n++] = (struct lock_release){ &stores[i], &takes[k], held };
				break;
			}
		}
	}
	return n;
}
