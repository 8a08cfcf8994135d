/* analyzer/frontend/extract_deps.c — the ",a,@3," lists an access or a value
 * carries in its "uses": the locals (and marked reads, as "@N") that its
 * address or value is computed from, so that the analysis can tell an
 * address dependency on a marked read (rcu_dereference style: ordered)
 * from an independent read (not ordered).  Items are added once each. */
#include "extract_int.h"
#include "extract_deps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void deps_add(struct deps *d, const char *item)
{
	size_t n = item ? strlen(item) : 0;

	if (!d || !item)
		return;
	if (d->buf && n > 0 && dep_list_text_has(d->buf, item, n))
		return;
	if (d->len + n + 3 > d->cap) {
		d->cap = (d->len + n + 3) * 2;
		d->buf = xrealloc(d->buf, d->cap);
		if (d->len == 0)
			d->buf[0] = '\0';
	}
	if (d->len == 0) {
		d->buf[0] = ',';
		d->len = 1;
	}
	memcpy(d->buf + d->len, item, n);
	d->len += n;
	d->buf[d->len++] = ',';
	d->buf[d->len] = '\0';
}

static void add_item(const char *item, void *into)
{
	deps_add(into, item);
}

/* Adds every item of the list TEXT to INTO. */
void deps_merge_text(struct deps *into, const char *text)
{
	if (into && text)
		dep_list_each(text, add_item, into);
}

void deps_merge(struct deps *into, const struct deps *from)
{
	deps_merge_text(into, from->buf);
}

void deps_add_role(struct deps *into, const char *text, enum dep_role role, int arg)
{
	if (into && text)
		dep_list_each_value(text, role, arg, add_item, into);
}
