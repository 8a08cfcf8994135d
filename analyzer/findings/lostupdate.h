/* analyzer/findings/lostupdate.h — plain updates that two threads can
 * make at once, no lock held (lostupdate.c). */
#ifndef KCSAN_LOSTUPDATE_H
#define KCSAN_LOSTUPDATE_H

#include "analyzer/analysis/dataflow.h"

/* A plain update (SITE: a read-modify-write, or a write after a read of
 * the object in the same function) and one it races with (OTHER: the same
 * access in another thread, or another update of the object). */
struct lost_update {
	const struct lock_record *site, *other;
	const struct event *read;   /* SITE a write after this read (a
				       test-and-set), not one RMW: else NULL */
};

/* Every such update, one per access, in the order of the analysis'
 * records; their count, *OUT to be freed. */
int lost_updates(const struct analysis *a, struct lost_update **out);

#endif
