/* analyzer/analysis/sets.h — the sets of the dataflow, kept sorted by the
 * events' tree-wide numbers (gid): membership is a binary search and
 * union a merge (see sets.c). */
#ifndef KCSAN_SETS_H
#define KCSAN_SETS_H

struct event;

/* Events. */
struct evset { struct event **v; int n, cap; };
/* Plain accesses, each with the explicit barrier that ordered it. */
struct fenced { struct event *plain, *fence; };
struct fset { struct fenced *v; int n, cap; };
/* Small numbers (function indexes), sorted. */
struct intset { int *v; int n, cap; };
/* Lock names, in the order added (borrowed strings). */
struct strset { char **v; int n, cap; };
/* An exposed event of a callee, with what is ordered before it on every
 * path from the callee's entry. */
struct exposed { struct event *e; unsigned killed_before; };
struct xset { struct exposed *v; int n, cap; };

/* Is E in S?  es_add adds E (1 when it was not there yet); es_union adds
 * every event of FROM (1 when INTO grew); es_copy makes TO equal FROM;
 * es_remove_at removes the I-th; es_same: do A and B hold the same events? */
int es_has(const struct evset *s, const struct event *e);
/* The position of E in S, or -1. */
int es_index(const struct evset *s, const struct event *e);
int es_add(struct evset *s, struct event *e);
int es_union(struct evset *into, const struct evset *from);
void es_copy(struct evset *to, const struct evset *from);
void es_remove_at(struct evset *s, int i);
int es_same(const struct evset *a, const struct evset *b);
/* Sorts S's events by number and drops repeats (after appending to it). */
void es_sort_unique(struct evset *s);

/* Adds plain access P ordered by fence F (1 when P was not there yet);
 * fs_fence: the fence that ordered P, or NULL. */
int fs_add(struct fset *s, struct event *p, struct event *f);
struct event *fs_fence(const struct fset *s, const struct event *p);

/* Adds E, with KILLED ordered before it, unless it is there (keeping the
 * orderings every path has: the intersection); xs_same: do A and B hold
 * the same events with the same orderings? */
void xs_add(struct xset *s, struct event *e, unsigned killed);
/* xs_add of every element of FROM (in any order), with KILLED added to
 * its orderings, in one merge. */
void xs_union(struct xset *into, const struct xset *from, unsigned killed);
int xs_same(const struct xset *a, const struct xset *b);

/* Lock names: is K held?  ss_add adds it; ss_remove_lock releases K,
 * whether it is held for writing or for reading ("shared:K"). */
int ss_has(const struct strset *s, const char *k);
void ss_add(struct strset *s, char *k);
void ss_remove_lock(struct strset *s, const char *k);

/* Numbers: is_add adds K (1 when it was not there); is_union adds every
 * number of FROM (1 when INTO grew); is_same: do A and B hold the same? */
int is_add(struct intset *s, int k);
int is_union(struct intset *into, const struct intset *from);
int is_same(const struct intset *a, const struct intset *b);

#endif
