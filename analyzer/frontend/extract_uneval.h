/* analyzer/frontend/extract_uneval.h — operands that are never evaluated
 * (extract_uneval.c). */
#ifndef KCSAN_EXTRACT_UNEVAL_H
#define KCSAN_EXTRACT_UNEVAL_H

#include "libclang.h"

/* Is CALL one of the builtins that do not evaluate their operand
 * (__builtin_constant_p)? */
int unevaluated_call(CXCursor call);
/* When expression C (children KIDS, N of them) has operands that are not
 * evaluated (__builtin_offsetof's type, a compound literal's type,
 * _Generic's controlling expression and unselected associations): sets
 * WALK[i] for the children that are, and returns 1; else returns 0. */
int evaluated_operands(CXCursor c, CXCursor *kids, int n, unsigned char *walk);

#endif
