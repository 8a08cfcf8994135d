/* analyzer/findings/storebuffer.h — a store then a load of another object
 * on each of two threads, crosswise, with no full barrier between them
 * (store buffering; storebuffer.c). */
#ifndef KCSAN_STOREBUFFER_H
#define KCSAN_STOREBUFFER_H

#include "analyzer/analysis/dataflow.h"

/* One side: FN stores STORE's object, then loads LOAD's (another object)
 * and tests what it read. */
struct sb_side {
	const struct function *fn;
	const struct event *store, *load;
	int ordered;        /* a full barrier (or what may be one) between */
};

/* A side with nothing ordering its store before its load (SITE) and the
 * crosswise side it meets (OTHER: a store of what
 * SITE loads, then a load of what SITE stores), in functions that may run
 * at the same time. */
struct store_buffering {
	struct sb_side site, other;
};

/* Every such pair, one per side (its first crosswise partner); their
 * count, *OUT to be freed. */
int store_bufferings(const struct analysis *a, struct store_buffering **out);

#endif
