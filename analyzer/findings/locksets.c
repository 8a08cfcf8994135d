/* analyzer/findings/locksets.c — what the locks held at plain accesses say
 * to pairing (locksets.h): whether a lock keeps two accesses apart, every
 * plain access of an object holds one lock, two marked accesses run in
 * one critical section, or two accesses stand for two instances each
 * under its own lock.  The per-event answers asked for every link a
 * search tries are kept until locksets_forget(). */
#include "locksets.h"

#include <stdlib.h>
#include <string.h>

/* The locks a record's access holds, counting those its own function
 * holds when the record was made at a call site. */
static int holds(const struct analysis *a, const struct lock_record *r, const char *lock)
{
	int n;
	const char *const *callers = analysis_caller_locks(a, r->e->gid, &n);

	for (int i = 0; i < r->nlocks; i++)
		if (strcmp(r->locks[i], lock) == 0)
			return 1;
	for (int i = 0; i < n; i++)
		if (strcmp(callers[i], lock) == 0)
			return 1;
	return 0;
}

/* The N-th lock R's access holds (its own first, then those the callers
 * that reached it hold), or NULL past the last. */
const char *effective_lock(const struct analysis *a, const struct lock_record *r, int n)
{
	int ncallers;
	const char *const *callers = analysis_caller_locks(a, r->e->gid, &ncallers);

	if (n < r->nlocks)
		return r->locks[n];
	n -= r->nlocks;
	return n < ncallers ? callers[n] : NULL;
}

/* Does lock L (held by X's access) keep Y's access from running at the
 * same time?  An exclusive lock does against any holder of it; a shared
 * (read) lock against an exclusive holder, and against a shared holder
 * only when both accesses are reads. */
/* (OWN_ONLY: by Y's record's own locks alone, record_holds; else
 * counting the locks of Y's callers too, holds.) */
static int excludes(const struct analysis *a, const char *l, const struct lock_record *x,
		    const struct lock_record *y, int own_only)
{
	char *shared;
	int r;

	if (object_is_shared(l)) {
		const char *base = object_unshared(l);

		return (own_only ? record_holds(y, base) : holds(a, y, base)) ||
		       ((own_only ? record_holds(y, l) : holds(a, y, l)) &&
			x->e->access == ACC_READ && y->e->access == ACC_READ);
	}
	shared = object_shared(l);
	r = own_only ? record_holds(y, l) || record_holds(y, shared) : holds(a, y, l) || holds(a, y, shared);
	free(shared);
	return r;
}

int shares_a_lock(const struct analysis *a, const struct lock_record *x, const struct lock_record *y)
{
	const char *l;

	for (int i = 0; (l = effective_lock(a, x, i)); i++)
		if (excludes(a, l, x, y, 0))
			return 1;
	return 0;
}

/* Is every plain access of object OID that may run concurrently made
 * holding one common lock (counting the locks of its callers)? */
/* Does LOCK (exclusive, or shared for reads) guard every access of OID? */
static int held_by_all(const struct analysis *a, int oid, const char *lock)
{
	const char *base = object_unshared(lock);
	char *shared = object_shared(base);
	int all = 1, n;
	const struct lock_record *records = analysis_records(a, &n);

	for (int i = analysis_first(a, PLAIN_RECORDS_OF_OBJECT, oid); i >= 0 && all;
	     i = analysis_next(a, PLAIN_RECORDS_OF_OBJECT, i)) {
		const struct lock_record *r = &records[i];

		if (!holds(a, r, base) && !(r->e->access == ACC_READ && holds(a, r, shared)))
			all = 0;
	}
	free(shared);
	return all;
}

/* CACHE (per object: -1 not known yet) keeps the answers: the question
 * comes back for every candidate on the object. */
int under_common_lock(const struct analysis *a, signed char *cache, int oid)
{
	const struct lock_record *first;
	const char *l;
	int head, n;

	if (oid < 0)
		return 0;
	if (cache[oid] >= 0)
		return cache[oid];
	cache[oid] = 0;
	if ((head = analysis_first(a, PLAIN_RECORDS_OF_OBJECT, oid)) < 0)
		return 0;
	first = &analysis_records(a, &n)[head];
	for (int i = 0; (l = effective_lock(a, first, i)); i++)
		if (held_by_all(a, oid, l))
			return cache[oid] = 1;
	return 0;
}

/* Do marked accesses A and B run inside critical sections of one common
 * lock?  Then the lock orders everything around them. */
int same_critical_section(const struct analysis *a, const struct event *x, const struct event *y)
{
	int n;
	const struct lock_record *records = analysis_records(a, &n);

	for (int i = analysis_first(a, RECORDS_OF_EVENT, x->gid); i >= 0; i = analysis_next(a, RECORDS_OF_EVENT, i)) {
		const struct lock_record *rx = &records[i];

		if (rx->nlocks == 0)
			continue;
		for (int k = analysis_first(a, RECORDS_OF_EVENT, y->gid); k >= 0;
		     k = analysis_next(a, RECORDS_OF_EVENT, k))
			if (shares_a_lock(a, rx, &records[k]))
				return 1;
	}
	return 0;
}

/* Do complete records X and Y hold a lock that keeps them apart (an
 * exclusive lock held by both, or a shared one with both accesses
 * reads)? */
static int records_exclude(const struct analysis *a, const struct lock_record *x, const struct lock_record *y)
{
	for (int i = 0; i < x->nlocks; i++)
		if (excludes(a, x->locks[i], x, y, 1))
			return 1;
	return 0;
}

/* Is lock L a field of the struct type whose field object is DATA
 * ("c:@S@acct@FI@in_lock" for "c:@S@acct@FI@balance")? */
static int lock_in_same_struct(const char *l, const char *data)
{
	const char *fi = strstr(data, "@FI@");

	l = object_unshared(l);
	return fi && strncmp(l, data, (size_t)(fi - data) + 4) == 0;
}

/* X and Y, two accesses of one field object (one object for every
 * instance of the struct type), each hold a lock but no common one: are
 * they taken for accesses of two instances, each guarded by its own lock
 * (two lists, each under its own global mutex)?  Not when a lock is a
 * field of the same struct: that is a lock inside the object, and two of
 * them on one field (deposit under in_lock, withdraw under out_lock) do
 * not exclude each other.  Nor when a lock is a single-writer group's
 * (WRITER_LOCK_PREFIX): a contract between operations, which guards no
 * instance. */
static int instance_lock(const char *l, const char *data)
{
	return !lock_in_same_struct(l, data) && strncmp(l, WRITER_LOCK_PREFIX, strlen(WRITER_LOCK_PREFIX)) != 0;
}

int other_instances(const struct analysis *a, const struct lock_record *x, const struct lock_record *y)
{
	const char *l;

	if (!x->e->object || !strstr(x->e->object, "@FI@"))
		return 0;
	for (int i = 0; (l = effective_lock(a, x, i)); i++)
		if (!instance_lock(l, x->e->object))
			return 0;
	for (int i = 0; (l = effective_lock(a, y, i)); i++)
		if (!instance_lock(l, x->e->object))
			return 0;
	return 1;
}

/* Pairing's per-event answers of instance_locked (pairing runs in one
 * thread; emptied by locksets_forget()): (gid, 0) -> 0 or 1. */
static struct pairset instance_locked_cache;

/* ... and of always_under_one_lock: (gid of X, gid of Y) -> 0 or 1.
 * Without it and COMPLETE_RECORDS_OF_EVENT, once the locks callees hold
 * were counted (held.c), Open vSwitch's pairing took 104 s instead of
 * 1.5. */
static struct pairset one_lock_cache;

/* Is plain access E, on a field, made holding a lock of its own in every
 * complete record (each way the analysis reached it), each such lock one
 * that guards an instance (not a lock inside the struct, not a
 * single-writer contract: instance_lock)?  At least one record needed. */
static int instance_locked(const struct analysis *a, const struct event *e)
{
	int n, r = pairset_get(&instance_locked_cache, e->gid, 0), known = 0;
	const struct lock_record *records = analysis_records(a, &n);
	const char *l;

	if (r >= 0)
		return r;
	r = e->object && strstr(e->object, "@FI@") != NULL;
	/* (what a record holds depends on its own locks alone, its callers'
	 * being the access's: one record per set of them is enough) */
	for (int i = analysis_first(a, COMPLETE_RECORDS_OF_EVENT, e->gid); i >= 0 && r;
	     i = analysis_next(a, COMPLETE_RECORDS_OF_EVENT, i)) {
		known = 1;
		r = record_locked(a, &records[i]);
		for (int k = 0; r && (l = effective_lock(a, &records[i], k)); k++)
			r = instance_lock(l, e->object);
	}
	r = r && known;
	pairset_put(&instance_locked_cache, e->gid, 0, r);
	return r;
}

/* Are plain accesses X and Y always kept apart by locks: does every
 * complete record of one (each way the analysis reached it, with its
 * callers' locks) exclude every complete record of the other, or does
 * each hold locks of its own, on a field (instance_locked: two lists,
 * each under its own mutex, whose nodes are one field object)?  Then they
 * never run at the same time on one instance, and the pair is no race
 * whatever the rest of the object does (W21: both accesses under one
 * lock); the same instance under two unrelated locks is the lockset
 * rule's data race, not an ordering bug.  Without a complete record of
 * each, nothing is known.  (Asked for every link a search tries: the
 * answer per pair of accesses is kept, and each access's complete records
 * are compared once per lock set, COMPLETE_RECORDS_OF_EVENT.) */
int always_under_one_lock(const struct analysis *a, const struct event *x, const struct event *y)
{
	int n, apart = pairset_get(&one_lock_cache, x->gid, y->gid);
	const struct lock_record *records = analysis_records(a, &n);

	if (apart >= 0)
		return apart;
	/* (a common lock keeps them apart, and different ones are two
	 * instances' locks: either way) */
	apart = instance_locked(a, x) && instance_locked(a, y);
	if (!apart) {
		int xi = analysis_first(a, COMPLETE_RECORDS_OF_EVENT, x->gid);
		int yi = analysis_first(a, COMPLETE_RECORDS_OF_EVENT, y->gid);

		apart = xi >= 0 && yi >= 0;
		for (int i = xi; i >= 0 && apart; i = analysis_next(a, COMPLETE_RECORDS_OF_EVENT, i))
			for (int k = yi; k >= 0 && apart; k = analysis_next(a, COMPLETE_RECORDS_OF_EVENT, k))
				apart = records_exclude(a, &records[i], &records[k]);
	}
	pairset_put(&one_lock_cache, x->gid, y->gid, apart);
	return apart;
}

void locksets_forget(void)
{
	pairset_free(&instance_locked_cache);
	pairset_free(&one_lock_cache);
}
