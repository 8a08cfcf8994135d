/* analyzer/frontend/extract_guards.h — the conditions on a function's
 * parameters that its events run under, and the constant arguments of its
 * calls (extract_guards.c). */
#ifndef KCSAN_EXTRACT_GUARDS_H
#define KCSAN_EXTRACT_GUARDS_H

#include "extract_int.h"

/* The value of integer constant expression C in *V: 1, or 0 when C is no
 * such expression.  Only literals, enumerators and their negation are
 * evaluated: asking libclang to evaluate every argument would cost. */
int integer_constant(CXCursor c, long long *v);
/* The same for any expression C that clang folds to an integer (sizeof(long)
 * == 8 too), asked of libclang whatever C is: for the fewer places where
 * that is worth its cost (a statement's condition, extract_stmt.c). */
int evaluates_to_integer(CXCursor c, long long *v);

/* "#N=%C" when call argument ARG (number N) is an integer constant
 * expression C (a literal, an enumerator), else NULL.  The caller frees
 * it. */
char *constant_argument(CXCursor arg, int n);

/* Entering the then (THEN_BRANCH) or else branch of an if whose condition
 * is COND: 1 when COND compares a parameter with a constant, and the
 * branch's guard is now in force until guards_leave_branch; else 0. */
int branch_guards_enter(struct ectx *x, CXCursor cond, int then_branch);
void branch_guards_leave(struct ectx *x);
/* E was just emitted: the guards in force are its. */
void branch_guards_note_event(struct ectx *x, const struct event *e);
/* At the end of the function: adds each event's guards to its uses,
 * but those on a parameter the function assigns, and forgets them. */
void branch_guards_apply(struct ectx *x);
/* At the start of a function, and at the end of the TU. */
void branch_guards_forget(struct ectx *x);
void branch_guards_free(struct ectx *x);

#endif
