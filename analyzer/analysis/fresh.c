/* analyzer/analysis/fresh.c — allocator wrappers and initialisation of fresh
 * memory, tree-wide (see fresh.h).
 *
 * The front end records, on each "?ret" event (a return of a value), what
 * the returned value is in terms of fresh memory: "!new" (memory from
 * malloc and the like, not handed on yet), "!new:KEY" (what function KEY
 * returned), "!null".  A function is an allocator wrapper when each of
 * its returns is one of these, with every KEY an allocator wrapper too,
 * and at least one is not "!null".  Wrappers call wrappers, and a wrapper
 * may be defined in another file than its callers: a fixpoint over the
 * tree, from "no function is a wrapper" up. */
#include "fresh.h"

#include <stdlib.h>
#include <string.h>

/* Calls FN for each item of the ",a,!new:k,b," list USES that starts with
 * PREFIX, with the rest of the item (copied: keys are not short). */
static int each_item(const char *uses, const char *prefix, int (*fn)(const char *, void *), void *arg)
{
	size_t pl = strlen(prefix);
	int r = 0;

	for (const char *p = uses; p && *p; ) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n >= pl && strncmp(p, prefix, pl) == 0) {
			char *item = xmalloc(n - pl + 1);

			memcpy(item, p + pl, n - pl);
			item[n - pl] = '\0';
			r |= fn(item, arg);
			free(item);
		}
		p = e ? e + 1 : NULL;
	}
	return r;
}

struct ctx {
	struct function *fns;
	const char *file;             /* of the function whose event is read */
	const unsigned char *wrapper; /* per function: an allocator wrapper */
	resolve_fn resolve;
	void *rctx;
};

/* Is the value that a call of KEY returned fresh memory? */
static int is_wrapper_key(const char *key, void *arg)
{
	struct ctx *c = arg;
	int fi = c->resolve(c->rctx, key, c->file);

	return fi >= 0 && c->wrapper[fi];
}

static int has_item(const char *uses, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = uses; p && (p = strstr(p, item)) != NULL; p += n)
		if (p > uses && p[-1] == ',' && p[n] == ',')
			return 1;
	return 0;
}

/* Does FN return fresh memory on every path that returns something other
 * than a null pointer (and on one at least)?  From what its "?ret" events
 * say, and which functions are wrappers so far. */
static int returns_fresh(struct ctx *c, const struct function *fn)
{
	int fresh = 0;

	c->file = fn->file;
	for (int b = 0; b < fn->nblocks; b++)
		for (int i = 0; i < fn->blocks[b].nevents; i++) {
			const struct event *e = &fn->blocks[b].events[i];

			if (e->kind != EV_LOCAL || !e->defines || strcmp(e->defines, "?ret") != 0)
				continue;
			if (has_item(e->uses, "!new") || each_item(e->uses, "!new:", is_wrapper_key, c))
				fresh = 1;
			else if (!has_item(e->uses, "!null"))
				return 0;
		}
	return fresh;
}

/* "N": parameter N, for fresh_param. */
static int param_number(const char *item, void *arg)
{
	*(int *)arg = 1 + atoi(item);
	return 1;
}

struct arg_ctx { struct ctx *c; unsigned bits; };

/* "N=!new" or "N=!new:KEY" (after "#"): argument N points into fresh
 * memory, for fresh_args. */
static int fresh_argument(const char *item, void *arg)
{
	struct arg_ctx *a = arg;
	char *end;
	long n = strtol(item, &end, 10);

	if (end == item || n < 0 || n >= 32)
		return 0;
	if (strcmp(end, "=!new") == 0 || (strncmp(end, "=!new:", 6) == 0 && is_wrapper_key(end + 6, a->c)))
		a->bits |= 1u << n;
	return 0;
}

void mark_fresh_inits(struct function *fns, int nfns, resolve_fn resolve, void *rctx)
{
	unsigned char *wrapper = xcalloc((size_t)nfns + 1, 1);
	struct ctx c = { fns, NULL, wrapper, resolve, rctx };
	int changed = 1;

	/* Only grows (a wrapper's returns stay fresh once its callees are
	 * wrappers): at most one round per function, far fewer in practice. */
	while (changed) {
		changed = 0;
		for (int fi = 0; fi < nfns; fi++)
			if (!wrapper[fi] && returns_fresh(&c, &fns[fi])) {
				wrapper[fi] = 1;
				changed = 1;
			}
	}
	for (int fi = 0; fi < nfns; fi++) {
		c.file = fns[fi].file;
		for (int b = 0; b < fns[fi].nblocks; b++)
			for (int i = 0; i < fns[fi].blocks[b].nevents; i++) {
				struct event *e = &fns[fi].blocks[b].events[i];

				struct arg_ctx a = { &c, 0 };

				e->fresh_init = e->uses && (has_item(e->uses, "!new") ||
							    each_item(e->uses, "!new:", is_wrapper_key, &c));
				e->fresh_param = 0;
				each_item(e->uses, "!newarg:", param_number, &e->fresh_param);
				if (e->kind == EV_CALL)
					each_item(e->uses, "#", fresh_argument, &a);
				e->fresh_args = a.bits;
			}
	}
	free(wrapper);
}
