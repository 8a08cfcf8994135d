/* analyzer/analysis/held.h — per function, the locks held at each plain
 * access it reaches, its callees' included (held.c). */
#ifndef KCSAN_HELD_H
#define KCSAN_HELD_H

#include "analyzer/model/facts.h"
#include "sets.h"

/* Access E is reached holding LOCKS (N of them; kept keys) on every path. */
struct held_entry { const struct event *e; int n; const char **locks; };

/* Entries by access, with a slot table by the access's gid. */
struct heldmap { struct held_entry *v; int n, cap; int *slot; int nslot; };

/* One more place of the function reaches access E holding HELD and, in
 * the callee it calls there, EXTRA's locks (NULL: none): E's entry keeps
 * what every place holds. */
void held_note(struct heldmap *m, const struct event *e, const struct strset *held,
	       const struct held_entry *extra);
/* E's entry in M, or NULL (E reached holding nothing, or not at all). */
const struct held_entry *held_find(const struct heldmap *m, const struct event *e);
/* Drops the entries that hold nothing, once the function's run is over. */
void held_compact(struct heldmap *m);
/* Do A and B hold the same locks at the same accesses? */
int held_same(const struct heldmap *a, const struct heldmap *b);
void held_free(struct heldmap *m);

#endif
