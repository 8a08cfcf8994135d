/* analyzer/analysis/fresh.h — which plain accesses initialise memory fresh from an
 * allocator (struct event.fresh_init), over the whole tree: the front end
 * marks them (extract_fresh.c), some only on the condition that a function
 * of the tree is an allocator wrapper, which this decides. */
#ifndef KCSAN_FRESH_H
#define KCSAN_FRESH_H

#include "analyzer/model/facts.h"

/* How a call of function KEY made from function FROM is resolved:
 * the index in the function array, or -1 when no function of the tree
 * has that key. */
typedef int (*resolve_fn)(void *ctx, const char *key, const struct function *from);

/* Sets fresh_init on every event of FNS (NFNS functions) made through
 * fresh memory: uses ",!new," (an allocator's memory), or ",!new:KEY,"
 * (the value a call of KEY returned) when KEY is an allocator wrapper: a
 * function that returns fresh memory on every path that returns
 * something other than a null pointer, and does so on at least one.
 * Also sets, for the callers' view of a callee (callview.c,
 * through_call), fresh_param on the accesses made through a pointer
 * parameter before it is handed on (",!newarg:N,"), and fresh_args on
 * the calls that pass fresh memory (",#N=!new," or ",#N=!new:KEY,").
 * An access made through pointer parameter N before it is handed on
 * (",!newarg:N,") initialises too when its function publishes that
 * parameter: a marked write stores it (",~!newarg:N,") or a call passes it
 * to a parameter that the callee publishes (",#M=!newarg:N,").  And sets
 * hands_on_fresh on the marked writes that store a pointer the front end
 * follows as fresh memory (",~!new,", ",~!new:KEY,", ",~!newarg:N,",
 * ",~!kept:@E:A,"): the writes that publish what was initialised. */
void mark_fresh_inits(struct function *fns, int nfns, resolve_fn resolve, void *ctx);

#endif
