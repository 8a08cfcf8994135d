/* analyzer/private_args.c — which calls may pass a private local on to
 * their callee (see private_args.h).  A parameter may receive a private
 * local when some call of its function passes one for it, or passes on a
 * parameter of its own that may: a fixpoint over the call graph, which
 * only grows, so it ends after at most as many rounds as the longest chain
 * of such calls. */
#include "private_args.h"

#include <stdlib.h>
#include <string.h>

/* The arguments of CALL that are private locals ("l:..." among its
 * '\x1f'-separated argument objects), as bits. */
static unsigned private_arguments(const struct event *call)
{
	unsigned bits = 0;
	const char *a = call->args;

	for (int n = 0; a && n < 32; n++) {
		if (strncmp(a, "l:", 2) == 0)
			bits |= 1u << n;
		a = strchr(a, '\x1f');
		if (a)
			a++;
	}
	return bits;
}

/* The arguments of CALL, made in function KEY whose parameters PARAMS may
 * receive a private local, that pass one of those parameters on
 * (",#N=$KEY:M," in its uses), as bits. */
static unsigned forwarded_arguments(const struct event *call, const char *key, unsigned params)
{
	unsigned bits = 0;
	size_t kl = strlen(key);

	for (const char *u = call->uses; u && (u = strstr(u, ",#")) != NULL; u++) {
		char *end;
		long n = strtol(u + 2, &end, 10);

		if (end == u + 2 || n < 0 || n >= 32 || end[0] != '=' || end[1] != '$' ||
		    strncmp(end + 2, key, kl) != 0 || end[2 + kl] != ':')
			continue;
		if (params >> (atoi(end + 3 + kl) & 31) & 1)
			bits |= 1u << n;
	}
	return bits;
}

void mark_private_args(struct function *fns, int nfns, resolve_fn resolve, void *ctx)
{
	unsigned *params = xcalloc((size_t)nfns + 1, sizeof *params);
	int changed = 1;

	while (changed) {
		changed = 0;
		for (int fi = 0; fi < nfns; fi++)
			for (int b = 0; b < fns[fi].nblocks; b++)
				for (int i = 0; i < fns[fi].blocks[b].nevents; i++) {
					struct event *e = &fns[fi].blocks[b].events[i];
					int callee;

					if (e->kind != EV_CALL)
						continue;
					e->priv_args = private_arguments(e) |
						       forwarded_arguments(e, fns[fi].link_key, params[fi]);
					if (!e->priv_args || !e->target ||
					    (callee = resolve(ctx, e->target, fns[fi].file)) < 0 ||
					    (params[callee] | e->priv_args) == params[callee])
						continue;
					params[callee] |= e->priv_args;
					changed = 1;
				}
	}
	free(params);
}
