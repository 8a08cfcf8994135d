/* analyzer/frontend/extract_noreturn.h — calls that never return
 * (extract_noreturn.c). */
#ifndef KCSAN_EXTRACT_NORETURN_H
#define KCSAN_EXTRACT_NORETURN_H

#include "libclang.h"

struct ectx;

/* Does CALL never return (exit, abort, a function declared noreturn)? */
int never_returns(struct ectx *x, CXCursor call);

#endif
