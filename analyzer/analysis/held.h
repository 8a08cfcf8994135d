/* analyzer/analysis/held.h — per function, the locks held at every plain
 * access it reaches, its callees' included (held.c). */
#ifndef KCSAN_HELD_H
#define KCSAN_HELD_H

#include "sets.h"

/* The locks held at every plain access a function reaches, on every path:
 * known once one access has been seen (an intersection from there on). */
struct held_all { struct strset locks; int known; };

/* One more place reaches a plain access holding HELD and, in the callee
 * it calls there, INNER's locks (NULL: none): A keeps what every place
 * holds. */
void held_meet(struct held_all *a, const struct strset *held, const struct held_all *inner);
/* Do A and B hold the same locks? */
int held_same(const struct held_all *a, const struct held_all *b);
void held_free(struct held_all *a);

#endif
