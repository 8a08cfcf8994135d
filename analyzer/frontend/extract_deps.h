/* analyzer/frontend/extract_deps.h — the dependency lists (",a,@3,") of
 * locals and marked reads that an address or a value depends on
 * (extract_deps.c).  Their items are written and read by
 * analyzer/model/items.c, which defines their grammar. */
#ifndef KCSAN_EXTRACT_DEPS_H
#define KCSAN_EXTRACT_DEPS_H

#include <stddef.h>

#include "analyzer/model/items.h"

/* A growing string of ",name,name,@3," items. */
struct deps {
	char *buf;
	size_t len, cap;
};

/* Adds ITEM, one item's text (dep_source_text and the like), to D
 * unless it is there (either may be NULL: nothing to add). */
void deps_add(struct deps *d, const char *item);
/* Adds every item of a ",a,@3," list to D (D may be NULL). */
void deps_merge_text(struct deps *d, const char *text);
void deps_merge(struct deps *into, const struct deps *from);
/* Adds to INTO each local and marked read of the list TEXT (not the
 * parameter, fresh-memory, argument or value marks) in ROLE: "~x" (a
 * stored value depends on x: DEP_VALUE), "#2=x" (call argument 2 does:
 * DEP_ARGUMENT, ARG 2). */
void deps_add_role(struct deps *into, const char *text, enum dep_role role, int arg);

#endif
