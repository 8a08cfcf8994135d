/* analyzer/model/pairset.h — a map from a pair of numbers (two events, two
 * objects) to an index: the analysis records facts about pairs by the ten
 * thousand, and must find a duplicate without scanning what it has.  A
 * thin layer over the one hash map (hashmap.h). */
#ifndef KCSAN_PAIRSET_H
#define KCSAN_PAIRSET_H

#include "hashmap.h"

/* How a set keeps its pairs (set before the first pairset_put; a zeroed
 * set is PAIRSET_FLAT).  A grouped set keeps one small map per value of
 * the number it groups by: where the analysis asks about many pairs that
 * share that number in a row (every access a call brings in, for one
 * function; every pending access, for one marked write), they are found
 * in one small map that stays in the cache, instead of one probe each at
 * random into a map of millions of pairs. */
enum pairset_layout { PAIRSET_FLAT, PAIRSET_BY_FIRST, PAIRSET_BY_SECOND };

struct pairset {
	struct hashmap map;           /* flat: the pairs; grouped: group -> index in groups */
	enum pairset_layout layout;
	struct hashmap *groups;       /* grouped: the other number -> value */
	int ngroups, groupcap;
	int last_key;                 /* the group asked last (-1: none yet) */
	struct hashmap *last;
};

/* The value stored for (A, B), or -1.  A and B are non-negative. */
int pairset_get(const struct pairset *s, int a, int b);

/* Stores VAL for (A, B), replacing any earlier value. */
void pairset_put(struct pairset *s, int a, int b, int val);

void pairset_free(struct pairset *s);

#endif
