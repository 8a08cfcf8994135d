/* analyzer/analysis/guards.h — which marked reads decide whether a block runs.
 *
 * Message passing is "if (READ_ONCE(flag)) r = data;" or "while
 * (!READ_ONCE(flag)) ; r = data;": the read of data runs only once the
 * flag's value said so.  A read of data that runs whatever the flag's
 * value was (a statistics counter read earlier, a futex tested on a
 * branch that has ended) is not guarded by it, and an acquire on that
 * flag would fix nothing.  This module computes, per basic block, the
 * values (marked reads and call results, by event index) that it is
 * guarded by:
 *   - a block is guarded by the values a branch condition ("?test")
 *     depends on when it runs only on some of that branch's outcomes:
 *     reachable from the branch without passing its immediate
 *     post-dominator (the point where the branches meet again);
 *   - everything reachable from a loop whose condition ("?loop") depends
 *     on a value is guarded by it: the loop waits for that value.
 */
#ifndef KCSAN_GUARDS_H
#define KCSAN_GUARDS_H

#include "analyzer/model/facts.h"

struct guards {
	int **v;        /* per block: the event indexes guarding it */
	int *n, *cap;
	int nblocks;
	int *ipdom;     /* immediate post-dominators, -1 for none */
	int entry;
};

/* The event indexes (marked reads, calls) whose values test event TEST
 * depends on: appends them to *OUT (capacity *CAP) and returns how many
 * there are in all.  Supplied by the caller, who knows the locals. */
typedef int (*test_deps_fn)(void *ctx, const struct event *test, int **out, int *cap);

/* Computes the guards of every block of F.  The caller frees them with
 * guards_free. */
void guards_compute(const struct function *f, test_deps_fn deps, void *ctx, struct guards *out);

/* Is block B guarded by the value of event INDEX? */
int guards_has(const struct guards *g, int b, int index);

/* Does block B run on every path from the function's entry to its exit
 * (it post-dominates the entry)? */
int guards_always_runs(const struct guards *g, int b);

void guards_free(struct guards *g);

#endif
