/* analyzer/frontend/extract_expr.h — the walk of expressions
 * (extract_expr.c): the accesses, calls and values of an expression, and
 * the events they become. */
#ifndef KCSAN_EXTRACT_EXPR_H
#define KCSAN_EXTRACT_EXPR_H

#include "libclang.h"
#include "analyzer/model/facts.h"

struct ectx;

/* How the value of an expression is used. */
enum mode { M_READ, M_WRITE, M_RMW, M_ADDR };

void walk_expr(struct ectx *x, CXCursor c, enum mode m);
/* Is call C __builtin_expect (likely(), unlikely()), whose value is its
 * first argument's? */
int is_expect_call(CXCursor c);
/* T var = INIT; — like an assignment to the local. */
void walk_initializer(struct ectx *x, CXCursor var, CXCursor init);
/* Walks lvalue C as an access of mode M; returns the access event it made
 * of the lvalue itself, or NULL when it names no object (extract_asm.c
 * makes such an access the asm's). */
struct event *walk_lvalue(struct ectx *x, CXCursor c, enum mode m);
/* A new event of kind KIND in the current block, at C's location. */
struct event *emit(struct ectx *x, enum ev_kind kind, CXCursor at);
/* A marked read's value may feed an address: records it ("@N") in the
 * current dependency collector. */
void note_marked_read(struct ectx *x, const struct event *e);

#endif
