/* analyzer/analysis/valuetests.h — which values a marked read may have
 * returned where a block runs, as far as the branches tested it against
 * constants (the "^SoV:SOURCE" items of the test events, items.h).
 *
 * A write that stores a constant publishes only to the readers that go on
 * when they read that constant: a cleanup that stores -1 into mp_fd tells
 * nothing to a loop that runs its body while mp_fd >= 0, and the data
 * that loop reads was never published to it by that store (pairing.c).
 * This module computes, per block, the range of values each tested read
 * can have had for the block to run:
 *   - a branch whose condition compares the value of one read with a
 *     constant (extract_compare.c) restricts the blocks that only its
 *     "holds" successor reaches, and those that only its other successor
 *     reaches, to the values that make the comparison hold, or fail;
 *   - "only reaches" is dominance: the successor has the branch as its one
 *     predecessor, and the block cannot be reached from the function's
 *     entry without passing that successor (the body of a do loop, run
 *     once before its test, is not restricted).
 * A block no such branch restricts allows every value. */
#ifndef KCSAN_VALUETESTS_H
#define KCSAN_VALUETESTS_H

#include "analyzer/model/facts.h"

/* A set of values: the integers from LO to HI but NE (when HAS_NE); every
 * value when !KNOWN. */
struct vrange {
	long long lo, hi, ne;
	unsigned char known, has_ne;
};

/* Every value. */
struct vrange vrange_any(void);
/* Does R hold V? */
int vrange_allows(const struct vrange *r, long long v);
/* R becomes a set that holds every value of R and of O (the values in
 * neither may be kept out or not: a range, one hole at most). */
void vrange_join(struct vrange *r, const struct vrange *o);

/* The event index of the marked read whose value comparison item D (a
 * DEP_COMPARE of the test event at position I of block B of the
 * function) compares, or -1.  Supplied by the caller, who knows the
 * locals. */
typedef int (*compared_read_fn)(void *ctx, int b, int i, const struct dep_item *d);

struct value_tests {
	struct value_test { int read; struct vrange range; } **v;   /* per block */
	int *n, *cap;
	int nblocks;
};

/* Computes the value tests of every block of F (nothing is allocated when
 * F compares no read with a constant).  The caller frees them with
 * value_tests_free. */
void value_tests_compute(const struct function *f, compared_read_fn read_of, void *ctx, struct value_tests *out);

/* The values the read of index READ can have had where block B runs. */
struct vrange value_tests_at(const struct value_tests *t, int b, int read);

void value_tests_free(struct value_tests *t);

#endif
