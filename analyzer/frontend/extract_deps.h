/* analyzer/frontend/extract_deps.h — the ",a,@3," lists of locals and
 * marked reads that an address or a value depends on (extract_deps.c). */
#ifndef KCSAN_EXTRACT_DEPS_H
#define KCSAN_EXTRACT_DEPS_H

#include <stddef.h>

/* A growing string of ",name,name,@3," items. */
struct deps {
	char *buf;
	size_t len, cap;
};

/* Adds ITEM to D (either may be NULL: nothing to add). */
void deps_add(struct deps *d, const char *item);
/* Adds every item of a ",a,@3," list to D (D may be NULL). */
void deps_merge_text(struct deps *d, const char *text);
void deps_merge(struct deps *into, const struct deps *from);
/* Adds to INTO each local and marked read of the list TEXT (not the
 * parameter, fresh-memory, argument or value marks), written PREFIX ITEM:
 * "~x" (a stored value depends on x), "#2=x" (call argument 2 does). */
void deps_add_prefixed(struct deps *into, const char *text, const char *prefix);

#endif
