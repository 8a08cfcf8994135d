/* analyzer/analysis/held.h — per function, the locks held at each plain
 * access it reaches, its callees' included (held.c). */
#ifndef KCSAN_HELD_H
#define KCSAN_HELD_H

#include "sets.h"

struct event;

/* A function's distinct sets of locks, numbered: set 0 is the empty one
 * (v[0], present once anything was added).  The names are borrowed. */
struct lock_sets { struct strset *v; int n, cap; };

/* In a summary: per plain access of its all_plain (the same order), the
 * number in SETS of the set of locks held at it on every path through
 * the function, taken there or in a callee.  AT is NULL when no lock is
 * held at any of them (most functions: they keep nothing). */
struct held_locks { struct lock_sets sets; unsigned *at; };

/* Per event number (gid), the set a builder's run met at that access so
 * far.  One table serves every run in turn (the runs that keep locks are
 * the leader's, one at a time): an entry counts only for the run whose
 * stamp it carries, so a run starts with an empty table without clearing
 * it.  (A hash map per run, grown to the tens of thousands of accesses a
 * big function reaches: 0.66 s of the leader's time on Open vSwitch; the
 * table: 0.25 s.) */
struct held_entry { unsigned run, id; };
struct held_table { struct held_entry *v; int cap; unsigned runs; };

/* What a function's run collects: SETS (the numbers its accesses and its
 * calls' translations use) and, during the final pass, per access reached
 * the set held at every place so far, in TABLE under stamp RUN (0 until
 * the first access is met). */
struct held_builder { struct lock_sets sets; struct held_table *table; unsigned run; };

/* The number of the set holding exactly LOCKS in T, added if new. */
unsigned lock_sets_find(struct lock_sets *t, const struct strset *locks);

/* One more place reaches access E holding set ID of B: E keeps what
 * every place holds (an intersection). */
void held_meet(struct held_builder *b, const struct event *e, unsigned id);
/* The run is over: OUT gets B's sets and, parallel to ALL_PLAIN, what
 * each access holds (nothing kept when no access holds a lock).  B is
 * emptied. */
void held_finish(struct held_builder *b, const struct evset *all_plain, struct held_locks *out);
void held_builder_free(struct held_builder *b);
void held_table_free(struct held_table *t);

/* A recursive component's summaries settle: in a function's next run, an
 * access that its last run (OLD, with OLD_PLAIN) reached too keeps only
 * the locks both runs hold at it.  H (with ALL_PLAIN) is the new run's. */
void held_narrow(struct held_locks *h, const struct evset *all_plain, const struct held_locks *old,
		 const struct evset *old_plain);

/* A callee's held sets as one call sees them: the callee's set K, with
 * the caller's LOCKS at the call added, as a set number of the caller's
 * (held_call_set), worked out once per K and call. */
struct held_call { const struct lock_sets *callee; unsigned *mine, none; int n; };
void held_call_begin(struct held_call *hc, const struct lock_sets *callee);
unsigned held_call_set(struct held_call *hc, struct lock_sets *mine, const struct strset *locks, unsigned k);
void held_call_end(struct held_call *hc);

/* Do A and B (summaries with the same all_plain) hold the same locks at
 * the same accesses? */
int held_same(const struct held_locks *a, const struct held_locks *b, int n);
void held_free(struct held_locks *h);

#endif
