/* analyzer/frontend/extract_compare.h — the constant a marked write stores
 * and the comparison a branch makes of a read's value with a constant
 * (extract_compare.c). */
#ifndef KCSAN_EXTRACT_COMPARE_H
#define KCSAN_EXTRACT_COMPARE_H

#include "extract_int.h"

/* "~%V" when VALUE, the value a marked write stores, is the constant V (an
 * integer constant expression, an enumerator, a null pointer: 0), else
 * NULL.  The caller frees it. */
char *stored_constant_item(CXCursor value);

/* "=%V" when ARG, what a compare-and-swap expects to find (profile key
 * cmp=N), is the constant V, or the address of a local that holds V
 * wherever the function sets it (do expected = 0; while (!cas(&w,
 * &expected, 1, ...))); else NULL.  The caller frees it. */
char *expected_constant_item(struct ectx *x, CXCursor arg);

/* "~!step:K" when VALUE, what a compare-and-swap stores, is the value it
 * expects (EXPECTED: a local, or the address of one) plus the constant K
 * (old + 1, old - 1, 1 + old): the CAS counts, like an atomic add (the
 * increment-if-not-zero of a reference count).  Else NULL.  The caller
 * frees it. */
char *cas_step_item(struct ectx *x, CXCursor value, CXCursor expected);

/* "~!step:K" when VALUE, what a write of OBJECT stores, is what a read of
 * OBJECT returned plus the constant K (not 0): WRITE_ONCE(s->seq, s->seq
 * + 1), WRITE_ONCE(seq, READ_ONCE(seq) + 1), or through a local defined
 * once as such (sn = s->seq + 1; atomic_store(&s->seq, sn)).  The write
 * counts, like an increment: a sequence's bump.  Else NULL.  The caller
 * frees it. */
char *store_step_item(struct ectx *x, CXCursor value, const char *object);

/* The "^SoV:SOURCE" item of condition COND, whose branch goes to the
 * block's successor number TRUE_SUCC when it holds (-1: not known), when
 * COND compares the value of one marked read with a constant; else NULL.
 * FROM is the index of the first event emitted for COND.  The caller
 * frees it. */
char *compare_item(struct ectx *x, CXCursor cond, int true_succ, int from);

#endif
