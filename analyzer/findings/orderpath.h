/* analyzer/findings/orderpath.h — whether some path of a function runs
 * from one point to another with nothing between that orders two accesses
 * (orderpath.c): the question each order of a sequence lock asks. */
#ifndef KCSAN_ORDERPATH_H
#define KCSAN_ORDERPATH_H

#include "analyzer/analysis/dataflow.h"

/* Which order is asked for: a read before a later read (LOADS) or a write
 * before a later write (STORES), between FIRST and SECOND, the two
 * accesses (either may be a callee's, whose call is the point). */
struct order_ask {
	int stores;                  /* 0: load->load, 1: store->store */
	const struct event *first, *second;
};

/* A point of a function: block B, and K, the place of an event in it; K
 * is -1 for the start of block B, and B's event count for its end. */
struct point {
	int b, k;
};

/* The point of F's own event E in *P; 0 when E is not one of F's own (a
 * callee's, seen through a call). */
int point_of(const struct function *f, const struct event *e, struct point *p);

/* F's entry, before its first event. */
struct point entry_point(const struct function *f);

/* Is there a path of F from point FROM to point TO (TO NULL: to any way
 * out of F) on which no event between them may order Q's accesses?  Some
 * path, not every one: a barrier has to be on each.  A path that comes
 * back to FROM is its next execution, whose paths are the same: it ends
 * there. */
int unordered_path(const struct function *f, struct point from, const struct point *to, const struct order_ask *q);

/* Does access E order itself by its marking: as an acquire (what follows
 * after it), as a release (what came before it before it), fully? */
int acquire_or_stronger(const struct event *e);
int release_or_stronger(const struct event *e);
int fully_ordered(const struct event *e);

#endif
