/* analyzer/frontend/extract_model.h — which memory model a translation
 * unit's volatile accesses follow (extract_model.c). */
#ifndef KCSAN_EXTRACT_MODEL_H
#define KCSAN_EXTRACT_MODEL_H

#include "libclang.h"

/* First pass over the TU's top-level cursors: does top-level declaration C
 * declare a C11 atomic object or type (an _Atomic variable, field or
 * typedef, or an array of them)?  Cheap; the caller stops asking once one
 * answered yes. */
int declares_c11_atomic(CXCursor c);

/* Is the access of lvalue C (stripped, as lvalue_access has it) marked by
 * an explicit cast to a pointer to volatile, the READ_ONCE idiom
 * (*(volatile T *)&x, ((volatile struct s *)p)->f)? */
int is_volatile_cast_access(CXCursor c);

#endif
