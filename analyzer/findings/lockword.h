/* analyzer/findings/lockword.h — locks made of a word and released by a
 * relaxed store (lockword.c). */
#ifndef KCSAN_LOCKWORD_H
#define KCSAN_LOCKWORD_H

#include "analyzer/analysis/dataflow.h"

/* A store that releases a lock word without ordering, and a
 * compare-and-swap that takes that lock.  HELD_TEST: the store's function
 * saw the word hold the value the take stores before it gave it back. */
struct lock_release {
	const struct lock_word_op *store, *take;
	int held_test;
};

/* Every such store with the first take found for it, in the order the
 * analysis recorded the stores; their count, *OUT to be freed. */
int lock_word_releases(const struct analysis *a, struct lock_release **out);

#endif
