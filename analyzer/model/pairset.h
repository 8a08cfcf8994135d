/* analyzer/model/pairset.h — a map from a pair of numbers (two events, two
 * objects) to an index: the analysis records facts about pairs by the ten
 * thousand, and must find a duplicate without scanning what it has.  A
 * thin layer over the one hash map (hashmap.h). */
#ifndef KCSAN_PAIRSET_H
#define KCSAN_PAIRSET_H

#include "hashmap.h"

struct pairset {
	struct hashmap map;
};

/* The value stored for (A, B), or -1.  A and B are non-negative. */
int pairset_get(const struct pairset *s, int a, int b);

/* Stores VAL for (A, B), replacing any earlier value. */
void pairset_put(struct pairset *s, int a, int b, int val);

void pairset_free(struct pairset *s);

#endif
