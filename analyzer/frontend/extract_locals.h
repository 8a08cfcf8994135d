/* analyzer/frontend/extract_locals.h — what the front end asks about the
 * locals of the function being walked: which stay private to it, and where
 * its local pointers point.  The points-to sets behind the answers
 * (struct locals, locals_int.h) are built by extract_locals.c when a
 * function's walk starts, solved by locals_solve.c and read by
 * extract_pointee.c. */
#ifndef KCSAN_EXTRACT_LOCALS_H
#define KCSAN_EXTRACT_LOCALS_H

#include "libclang.h"

struct ectx;
struct locals;

/* Before walking function body BODY: which locals' addresses escape, and
 * what each local pointer may point to. */
void analyse_locals(struct ectx *x, CXCursor body);
void forget_locals(struct ectx *x);
/* Does the address of the local variable named USR escape to where
 * another thread could use it? */
int local_escapes(struct ectx *x, const char *usr);
/* "l:FUNCTION:v" when pointer expression C can point only into locals of
 * this function whose address does not escape (&v, an array v, p = &v
 * and its copies, (&v)->a, &v.a[2]); NULL otherwise. */
char *private_pointee(struct ectx *x, CXCursor c);
/* Is lvalue C part of such a local (v.a, (&v)->a, p->a with p = &v)? */
int private_lvalue(struct ectx *x, CXCursor c);

#endif
