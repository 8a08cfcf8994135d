/* analyzer/findings/locksets.h — the locks held at plain accesses, as
 * pairing asks about them (locksets.c).  Pairing runs in one thread: the
 * answers kept between questions are emptied by locksets_forget(). */
#ifndef KCSAN_LOCKSETS_H
#define KCSAN_LOCKSETS_H

#include "analyzer/analysis/dataflow.h"

/* The N-th lock R's access holds (its own first, then those the callers
 * that reached it hold), or NULL past the last. */
const char *effective_lock(const struct analysis *a, const struct lock_record *r, int n);
/* Does a lock one of X and Y holds keep the other from running at the
 * same time (counting their callers' locks)? */
int shares_a_lock(const struct analysis *a, const struct lock_record *x, const struct lock_record *y);
/* Is every plain access of object OID that may run concurrently made
 * holding one common lock?  CACHE: per object, -1 not known yet. */
int under_common_lock(const struct analysis *a, signed char *cache, int oid);
/* Do marked accesses X and Y run inside critical sections of one lock? */
int same_critical_section(const struct analysis *a, const struct event *x, const struct event *y);
/* X and Y, two accesses of one field object each holding a lock but no
 * common one: are they taken for two instances, each under its own lock? */
int other_instances(const struct analysis *a, const struct lock_record *x, const struct lock_record *y);
/* Are plain accesses X and Y always kept apart by locks? */
int always_under_one_lock(const struct analysis *a, const struct event *x, const struct event *y);
/* Frees the answers kept between questions. */
void locksets_forget(void);

#endif
