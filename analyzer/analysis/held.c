/* analyzer/analysis/held.c — the locks a function holds at every plain
 * access it reaches, its own and those its callees take (held.h).
 *
 * A function's lock records (records.c) hold the locks it holds itself
 * where it makes or calls towards an access.  A lock the callee takes
 * inside is the callee's: ck_hs_put() takes its single-writer lock for the
 * whole call and calls ck_hs_map_postinsert(), so main() calling
 * ck_hs_put() through set_insert() reaches postinsert's n_entries++
 * holding that lock although main() holds nothing.  The summary keeps the
 * locks held at every plain access the function reaches, on every path
 * (an intersection over all of them), and a root's record of an access
 * reached through a call adds those of the callee.
 *
 * One set per function, not one per access: a lock held over the whole
 * call (a writer operation, a function that locks first and unlocks last)
 * is what it captures, at the cost of the set of a function that locks
 * part of its body only, which holds nothing at every access.  One set
 * per access was tried: kept up every call chain, it took the whole-tree
 * analysis of Open vSwitch from about 15 s to 140 s. */
#include "held.h"
#include "internal.h"

#include <string.h>

/* Is LOCK in HELD or in INNER's set? */
static int holds(const struct strset *held, const struct held_all *inner, const char *lock)
{
	return ss_has(held, lock) || (inner && ss_has(&inner->locks, lock));
}

void held_meet(struct held_all *a, const struct strset *held, const struct held_all *inner)
{
	if (!a->known) {
		a->known = 1;
		for (int k = 0; k < held->n; k++)
			ss_add(&a->locks, held->v[k]);
		for (int k = 0; inner && k < inner->locks.n; k++)
			if (!ss_has(&a->locks, inner->locks.v[k]))
				ss_add(&a->locks, inner->locks.v[k]);
		return;
	}
	for (int k = 0; k < a->locks.n; k++)
		if (!holds(held, inner, a->locks.v[k]))
			a->locks.v[k--] = a->locks.v[--a->locks.n];
}

int held_same(const struct held_all *a, const struct held_all *b)
{
	if (a->known != b->known || a->locks.n != b->locks.n)
		return 0;
	for (int k = 0; k < a->locks.n; k++)
		if (!ss_has(&b->locks, a->locks.v[k]))
			return 0;
	return 1;
}

void held_free(struct held_all *a)
{
	free(a->locks.v);
	memset(a, 0, sizeof *a);
}
