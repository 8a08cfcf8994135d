/* analyzer/findings/external.h — memory shared with an agent outside the
 * tree (external.c). */
#ifndef KCSAN_EXTERNAL_H
#define KCSAN_EXTERNAL_H

#include "analyzer/analysis/dataflow.h"
#include "analyzer/model/vocab.h"

/* Does vocabulary V declare any memory external (a profile line NAME
 * external none)?  When it does not, external_memory() is never true. */
int vocab_declares_external(const struct vocab *v);

/* The profile line that declares the memory E accesses shared with an
 * agent outside the tree (another process, the kernel, a device), or
 * NULL: E's object is a field of a struct or union declared so (by its
 * tag, or by the typedef name of an anonymous one), that field itself
 * ("TYPE.FIELD"), a global variable of that name, or memory reached
 * through the result of a function declared so (mmap, a driver's
 * map_ring()), when E is an event of FN's own body. */
const struct vocab_entry *external_memory(const struct vocab *v, const struct function *fn,
					  const struct event *e);

#endif
