/* analyzer/findings/external.c — memory shared with an agent outside the
 * tree (issue 12, shape 7).
 *
 * A ring that the kernel reads through mmap(), shared memory between
 * processes, a device's descriptors: one side of the protocol is not C in
 * the tree, so no pairing finds it, and a producer that publishes its
 * slots with a relaxed index store, or a consumer that reads them after a
 * relaxed index load, is never reported.  A profile line
 *
 *     NAME  external  none
 *
 * says which memory this is, and the writer-side and reader-side patterns
 * on it are then checked with the missing side assumed (pairing.c): the
 * agent reads what the tree publishes as the LKMM's other side would, and
 * publishes what the tree reads.  NAME is a struct or union (its tag, or
 * the typedef name of an anonymous one: every field), one field of it
 * ("TYPE.FIELD"), a global variable, or a function whose result points to
 * such memory (the memory reached through a local it was stored in). */
#include "external.h"

#include <stdlib.h>
#include <string.h>

int vocab_declares_external(const struct vocab *v)
{
	for (size_t i = 0; i < v->count; i++)
		if (v->entries[i].op == OP_EXTERNAL)
			return 1;
	return 0;
}

static const struct vocab_entry *declared(const struct vocab *v, const char *name, size_t len)
{
	char *s = xasprintf("%.*s", (int)len, name);
	const struct vocab_entry *d = vocab_find_contract(v, s, NULL, OP_EXTERNAL);

	free(s);
	return d;
}

/* The declaration of object KEY by its record, field or variable name:
 * "c:@S@TAG@FI@FIELD" (also @SA@, @U@, @UA@ for anonymous structs and
 * unions, named by their typedef), a declared function's result
 * (object_external_name) or "c:@NAME". */
static const struct vocab_entry *declared_object(const struct vocab *v, const char *key)
{
	static const char *records[] = { "c:@S@", "c:@SA@", "c:@U@", "c:@UA@" };
	const struct vocab_entry *d;
	const char *name;
	size_t len;

	for (size_t i = 0; i < sizeof records / sizeof *records; i++) {
		size_t n = strlen(records[i]);
		const char *rec = key + n, *fi, *field;
		char *both;

		if (strncmp(key, records[i], n) != 0 || !(fi = strstr(rec, "@FI@")))
			continue;
		field = fi + 4;
		both = xasprintf("%.*s.%.*s", (int)(fi - rec), rec, (int)strcspn(field, "@[]"), field);
		d = vocab_find_contract(v, both, NULL, OP_EXTERNAL);
		free(both);
		return d ? d : declared(v, rec, (size_t)(fi - rec));
	}
	/* (memory a declared function returns: extract_object.c,
	 * external_result) */
	if ((name = object_external_name(key, &len)) != NULL)
		return declared(v, name, len);
	/* (a global variable: no '@' after its name, as items.c has it) */
	if (strncmp(key, "c:@", 3) == 0 && key[3] != '@' && !strchr(key + 3, '@'))
		return declared(v, key + 3, strcspn(key + 3, "[]"));
	return NULL;
}

/* The event of index K of F, or NULL. */
static const struct event *event_at(const struct function *f, int k)
{
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (f->blocks[b].events[i].index == k)
				return &f->blocks[b].events[i];
	return NULL;
}

/* The declaration of a call of event index K of F, whose result E's
 * address is computed from. */
static const struct vocab_entry *declared_result(const struct vocab *v, const struct function *f, int k)
{
	const struct event *call = k >= 0 ? event_at(f, k) : NULL;

	if (!call || call->kind != EV_CALL || !call->name)
		return NULL;
	return vocab_find_contract(v, call->name, NULL, OP_EXTERNAL);
}

/* The declaration of a function whose result E's address (E of F's own
 * body) is computed from, directly or through locals. */
static const struct vocab_entry *declared_source(const struct vocab *v, const struct function *f,
						 const struct event *e)
{
	struct deriv_map m = { 0 };
	const struct vocab_entry *d = NULL;

	compute_derived(f, &m);
	for (int k = 0; k < e->deps.n && !d; k++) {
		const struct dep_item *item = &e->deps.v[k];
		const struct derived *l;

		if (item->role != DEP_ADDRESS)
			continue;
		if (item->kind == DEP_EVENT)
			d = declared_result(v, f, item->n);
		else if (item->kind == DEP_LOCAL && (l = dm_get(&m, item->local)) != NULL)
			for (int i = 0; i < l->n && !d; i++)
				d = declared_result(v, f, l->reads[i]);
	}
	dm_free(&m);
	return d;
}

const struct vocab_entry *external_memory(const struct vocab *v, const struct function *fn,
					  const struct event *e)
{
	const struct vocab_entry *d = e->object ? declared_object(v, e->object) : NULL;

	if (!d && fn && e->func && fn->name && strcmp(e->func, fn->name) == 0 && !e->orig)
		d = declared_source(v, fn, e);
	return d;
}
