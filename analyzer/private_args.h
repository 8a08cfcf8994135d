/* analyzer/private_args.h — which calls may pass a private local on to
 * their callee, directly (an "l:" argument, extract_expr.c) or because
 * they pass on a parameter of their own that may receive one from further
 * up (",#N=$KEY:M," in the call's uses).  The analysis makes a copy of a
 * callee's access seen through such a call (dataflow.c, through_call), so
 * that the caller's own callers can drop it when they pass a private
 * local; elsewhere it keeps the callee's event itself. */
#ifndef KCSAN_PRIVATE_ARGS_H
#define KCSAN_PRIVATE_ARGS_H

#include "facts.h"
#include "fresh.h"

/* Sets priv_args on every call of FNS (NFNS functions): bit N when its
 * argument N may be a private local of some caller.  RESOLVE finds a
 * call's callee (see fresh.h). */
void mark_private_args(struct function *fns, int nfns, resolve_fn resolve, void *ctx);

#endif
