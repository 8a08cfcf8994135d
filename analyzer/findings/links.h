/* analyzer/findings/links.h — finding the other side of a writer or
 * reader pattern among the analysis' links (links.c).  Pairing runs in
 * one thread: the search's scratch is kept until links_forget(). */
#ifndef KCSAN_LINKS_H
#define KCSAN_LINKS_H

#include "analyzer/analysis/dataflow.h"

/* Who reads flag F (PUBLISH's object) and then accesses D (DATA's
 * object; written, when NEED_WRITE), in another activation than FN's,
 * outside PUBLISH's critical sections?  NULL for no one. */
const struct link *find_consumer(const struct analysis *a, const struct function *fn,
				 const struct event *publish, const struct event *data, int need_write);
/* Who accesses D (writes it, when NEED_WRITE) and then publishes F
 * (CONSUME's object)?  RANGE: the values of the reader's read of F on
 * which its access runs, NULL for all. */
const struct link *find_producer(const struct analysis *a, const struct function *fn,
				 const struct event *consume, const struct event *data, int need_write,
				 const struct vrange *range);
/* Frees the search's scratch. */
void links_forget(void);

#endif
