/* analyzer/analysis/records.c — what the analysis hands to pairing: the
 * candidates, the links between plain and marked accesses, relays, and
 * the locks held at each access (struct analysis, dataflow.h), each kept
 * once. */
#include "internal.h"

/* A callee's access seen as initialisation through one call is still
 * the callee's access when it is published too early: one finding, not
 * one per call that initialises (see fresh_clone). */
static struct event *original(struct event *e)
{
	return e->orig ? e->orig : e;
}

int add_candidate(struct candidate **arr, int *n, int *cap, struct pairset *seen,
			 struct event *plain, struct event *marked, struct function *fn, int *added)
{
	int i;

	plain = original(plain);
	if ((i = pairset_get(seen, plain->gid, marked->gid)) >= 0) {
		if (added)
			*added = 0;
		return i;
	}
	pairset_put(seen, plain->gid, marked->gid, *n);
	grow(arr, cap, *n + 1, sizeof **arr);
	(*arr)[*n] = (struct candidate){ plain, marked, fn, -1 };
	if (added)
		*added = 1;
	return (*n)++;
}

int add_link(struct link **arr, int *n, int *cap, struct pairset *seen, struct event *plain,
		    struct event *marked, struct event *fence, struct function *fn, int ordered,
		    unsigned how, int *added)
{
	int i;

	plain = original(plain);
	i = pairset_get(seen, plain->gid, marked->gid);
	if (i >= 0) {
		if (fence && !(*arr)[i].fence)
			(*arr)[i].fence = fence;
		(*arr)[i].how |= how;
		if (added)
			*added = 0;
		return i;
	}
	pairset_put(seen, plain->gid, marked->gid, *n);
	grow(arr, cap, *n + 1, sizeof **arr);
	(*arr)[*n] = (struct link){ plain, marked, fence, fn, ordered, how, -1 };
	if (added)
		*added = 1;
	return (*n)++;
}

/* (most reads are tested against no constant: their patterns keep -1 and
 * no range is stored) */
void note_range(struct analysis *a, int *slot, int added, const struct vrange *r)
{
	if (added) {
		if (!r->known)
			return;
		grow(&a->ranges, &a->rangecap, a->nranges + 1, sizeof *a->ranges);
		a->ranges[a->nranges] = *r;
		*slot = a->nranges++;
	} else if (*slot >= 0) {
		if (r->known)
			vrange_join(&a->ranges[*slot], r);
		else
			*slot = -1;
	}
}

void add_lock_word_op(struct analysis *a, struct event *e, struct function *fn, enum lock_word_role role,
		      const long long *held)
{
	if (pairset_get(&a->lock_op_seen, e->gid, (int)role) >= 0)
		return;
	pairset_put(&a->lock_op_seen, e->gid, (int)role, 1);
	grow(&a->lock_ops[role], &a->lock_op_cap[role], a->nlock_ops[role] + 1, sizeof *a->lock_ops[role]);
	a->lock_ops[role][a->nlock_ops[role]++] = (struct lock_word_op){ e, fn, held != NULL, held ? *held : 0 };
}

void add_relay(struct analysis *a, const struct event *from, const struct event *to, const struct function *fn)
{
	int last;

	if (from->oid == to->oid)
		return;
	/* one relay per (F, G) and function: which threads relay matters */
	last = pairset_get(&a->relseen, from->oid, to->oid);
	for (int i = last; i >= 0; i = a->relays[i].same_pair)
		if (a->relays[i].fn == fn) {
			a->relays[i].by_increment &= increments(from);
			return;
		}
	pairset_put(&a->relseen, from->oid, to->oid, a->nrelays);
	grow(&a->relays, &a->relcap, a->nrelays + 1, sizeof *a->relays);
	a->relays[a->nrelays] = (struct relay){ from->object, to->object, from->oid, to->oid, fn, last, increments(from) };
	a->nrelays++;
}

/* Records plain access E made with HELD locks by function FN. */
void record_locks(struct analysis *a, struct event *e, struct function *fn,
			 const struct strset *held, int complete)
{
	struct lock_record *r;
	int seen;

	if (is_new(e))
		return;
	seen = pairset_get(&a->recseen, (int)(fn - a->fns), e->gid);

	/* One record per function and access: an access reached from many
	 * places of one function keeps the locks held at all of them. */
	if (seen == NO_LOCKS_HELD)
		return;
	if (seen >= 0) {
		r = &a->records[seen];
		for (int i = 0; i < r->nlocks; i++)
			if (!ss_has(held, r->locks[i]))
				r->locks[i--] = r->locks[--r->nlocks];
		return;
	}
	/* A record made at a call site (not complete) only lends its locks
	 * to the access (caller_locks); with none held it lends nothing, and
	 * the locks common to all its call sites stay none: remember that
	 * instead of storing it.  (Most records are of this kind, one per
	 * access per caller up the call graph.) */
	if (!complete && held->n == 0) {
		pairset_put(&a->recseen, (int)(fn - a->fns), e->gid, NO_LOCKS_HELD);
		return;
	}
	pairset_put(&a->recseen, (int)(fn - a->fns), e->gid, a->nrecords);
	grow(&a->records, &a->reccap, a->nrecords + 1, sizeof *a->records);
	r = &a->records[a->nrecords++];
	r->e = e;
	r->fn = fn;
	r->locks = xcalloc(held->n + 1, sizeof *r->locks);
	if (held->n)
		memcpy(r->locks, held->v, (size_t)held->n * sizeof *r->locks);
	r->nlocks = held->n;
	r->complete = complete;
}

/* KEY as a string that lives as long as the analysis' results (lock
 * records point at their locks' names).  Under the shared lock when the
 * solver runs in several threads (split.c). */
static const char *keep_key(struct analysis *a, const char *key);

const char *kept_key(struct analysis *a, const char *key)
{
	const char *kept;

	if (!a->shared_lock)
		return keep_key(a, key);
	pthread_mutex_lock(a->shared_lock);
	kept = keep_key(a, key);
	pthread_mutex_unlock(a->shared_lock);
	return kept;
}

static const char *keep_key(struct analysis *a, const char *key)
{
	intptr_t *at = hashmap_get_str(&a->kept_index, key);

	if (at)
		return a->kept[*at];
	grow(&a->kept, &a->keptcap, a->nkept + 1, sizeof *a->kept);
	a->kept[a->nkept] = xstrdup(key);
	/* the map borrows its keys: the copy, which lives with the analysis */
	*hashmap_put_str(&a->kept_index, a->kept[a->nkept], NULL) = a->nkept;
	return a->kept[a->nkept++];
}
