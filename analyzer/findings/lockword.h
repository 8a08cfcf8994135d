/* analyzer/findings/lockword.h — locks made of a word and released by a
 * relaxed store (lockword.c). */
#ifndef KCSAN_LOCKWORD_H
#define KCSAN_LOCKWORD_H

#include "analyzer/analysis/dataflow.h"

/* A store that releases a lock word without ordering, and a
 * compare-and-swap that takes that lock. */
struct lock_release {
	const struct lock_word_op *store, *take;
};

/* Every such store with the first take found for it, in the order the
 * analysis recorded the stores; their count, *OUT to be freed. */
int lock_word_releases(const struct analysis *a, struct lock_release **out);

#endif
