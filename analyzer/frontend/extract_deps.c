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

/* Is ITEM (N characters) one of the items of ",a,@3," list BUF?  Items
 * hold paths (link keys of static functions): no copy into a buffer of
 * fixed size, which cut long items and then matched their prefixes. */
static int has_item(const char *buf, const char *item, size_t n)
{
	for (const char *p = buf; (p = strstr(p, item)) != NULL; p++)
		if (p > buf && p[-1] == ',' && p[n] == ',')
			return 1;
	return 0;
}

void deps_add(struct deps *d, const char *item)
{
	size_t n = item ? strlen(item) : 0;

	if (!d || !item)
		return;
	if (d->buf && n > 0 && has_item(d->buf, item, n))
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

/* Adds every item of the ",a,@3," list TEXT to INTO. */
void deps_merge_text(struct deps *into, const char *text)
{
	char *copy, *tok, *save = NULL;

	if (!into || !text)
		return;
	copy = xstrdup(text);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		deps_add(into, tok);
	free(copy);
}

void deps_merge(struct deps *into, const struct deps *from)
{
	deps_merge_text(into, from->buf);
}

/* Adds to INTO each local and marked read of the list TEXT (not the
 * parameter, fresh-memory, argument or value marks), written PREFIX ITEM:
 * "~x" (a stored value depends on x), "#2=x" (call argument 2 does). */
void deps_add_prefixed(struct deps *into, const char *text, const char *prefix)
{
	char *copy, *tok, *save = NULL;

	if (!text)
		return;
	copy = xstrdup(text);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (tok[0] != '$' && tok[0] != '!' && tok[0] != '#' && tok[0] != '~') {
			char *item = xasprintf("%s%s", prefix, tok);

			deps_add(into, item);
			free(item);
		}
	free(copy);
}
