/* analyzer/model/facts.c — building and freeing the fact structures (facts.h). */
#define _GNU_SOURCE
#include "facts.h"
#include "hashmap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	fputs("kcsan-scan: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		oom();
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	va_end(ap);
	return s;
}

char *read_stream(FILE *f, size_t *len)
{
	size_t n = 0, cap = 4096, got;
	char *text = xmalloc(cap);

	while ((got = fread(text + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0)
			text = xrealloc(text, cap *= 2);
	}
	if (ferror(f)) {
		free(text);
		return NULL;
	}
	text[n] = '\0';
	if (len)
		*len = n;
	return text;
}

void grow(void *arr, int *cap, int need, size_t elem)
{
	void **a = arr;

	if (need <= *cap)
		return;
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 8;
	*a = xrealloc(*a, (size_t)*cap * elem);
}

void push_successors(const struct function *f, int b, unsigned char *seen, int *list, int *n)
{
	for (int i = 0; i < f->blocks[b].nsucc; i++)
		if (!seen[f->blocks[b].succ[i]]) {
			seen[f->blocks[b].succ[i]] = 1;
			list[(*n)++] = f->blocks[b].succ[i];
		}
}

struct function *facts_add_function(struct tu_facts *t)
{
	grow(&t->functions, &t->cap, t->nfunctions + 1, sizeof *t->functions);
	memset(&t->functions[t->nfunctions], 0, sizeof *t->functions);
	return &t->functions[t->nfunctions++];
}

int function_add_block(struct function *f)
{
	grow(&f->blocks, &f->cap, f->nblocks + 1, sizeof *f->blocks);
	memset(&f->blocks[f->nblocks], 0, sizeof *f->blocks);
	return f->nblocks++;
}

struct event *block_add_event(struct block *b)
{
	grow(&b->events, &b->cap, b->nevents + 1, sizeof *b->events);
	memset(&b->events[b->nevents], 0, sizeof *b->events);
	return &b->events[b->nevents++];
}

void block_add_edge(struct function *f, int from, int to)
{
	struct block *b = &f->blocks[from];

	for (int i = 0; i < b->nsucc; i++)
		if (b->succ[i] == to)
			return;
	grow(&b->succ, &b->succcap, b->nsucc + 1, sizeof *b->succ);
	b->succ[b->nsucc++] = to;
}

static void event_free(struct event *e)
{
	free(e->object);
	free(e->display);
	free(e->name);
	free(e->target);
	free(e->defines);
	free(e->uses);
	free(e->args);
	free(e->file);
	dep_list_free(&e->deps);
	dep_list_free(&e->conds);
	arg_list_free(&e->argv);
}

/* The number of local NAME in F, numbering it when new (BY_NAME maps the
 * names seen so far to their numbers). */
static int local_number(struct function *f, struct hashmap *by_name, const char *name)
{
	int added;
	intptr_t *n = hashmap_put_str(by_name, name, &added);

	if (added)
		*n = f->nlocals++;
	return (int)*n;
}

void function_number_locals(struct function *f)
{
	struct hashmap by_name = { 0 };

	f->nlocals = 0;
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			struct event *e = &f->blocks[b].events[i];

			e->def_local = e->sink == SINK_LOCAL ? local_number(f, &by_name, e->defines) : -1;
			for (int k = 0; k < e->deps.n; k++)
				if (e->deps.v[k].kind == DEP_LOCAL)
					e->deps.v[k].local = local_number(f, &by_name, e->deps.v[k].name);
			/* (a test's comparison of a local: analysis/valuetests.c) */
			for (int k = 0; k < e->conds.n; k++)
				if (e->conds.v[k].role == DEP_COMPARE && e->conds.v[k].kind == DEP_LOCAL)
					e->conds.v[k].local = local_number(f, &by_name, e->conds.v[k].name);
		}
	hashmap_free(&by_name);
}

/* Moves the conditions, constant arguments, constants stored, tests'
 * comparisons, a compare-and-swap's step, the mark of a C11 volatile
 * object, the re-reads of a marked read's lvalue, the declared type of
 * what a pointer parameter points to and the mark of a field of a type
 * made for sharing from E's deps to E's conds: none says what an address
 * depends on. */
static void split_conds(struct event *e)
{
	int k = 0;

	for (int i = 0; i < e->deps.n; i++) {
		struct dep_item *d = &e->deps.v[i];

		if (d->role == DEP_GUARD || d->role == DEP_COMPARE || d->kind == DEP_CONST || d->kind == DEP_STEP ||
		    d->kind == DEP_VOLATILE || d->kind == DEP_REREAD || d->kind == DEP_TYPE ||
		    d->kind == DEP_SHARED_TYPE) {
			grow(&e->conds.v, &(int){ e->conds.n }, e->conds.n + 1, sizeof *e->conds.v);
			e->conds.v[e->conds.n++] = *d;
		} else {
			e->deps.v[k++] = *d;
		}
	}
	e->deps.n = k;
}

void event_parse_items(struct event *e)
{
	dep_list_parse(e->uses, &e->deps);
	split_conds(e);
	arg_list_parse(e->args, &e->argv);
	object_ref_parse(e->object, &e->obj);
	e->sink = value_sink_parse(e->defines);
	e->def_local = -1;
	free(e->uses);
	free(e->args);
	e->uses = e->args = NULL;
}

void function_free(struct function *f)
{
	for (int i = 0; i < f->nblocks; i++) {
		for (int j = 0; j < f->blocks[i].nevents; j++)
			event_free(&f->blocks[i].events[j]);
		free(f->blocks[i].events);
		free(f->blocks[i].succ);
	}
	free(f->blocks);
	free(f->name);
	free(f->link_key);
	free(f->file);
	free(f->tu);
}

void facts_forget_functions(struct tu_facts *t)
{
	for (int i = 0; i < t->nfunctions; i++)
		function_free(&t->functions[i]);
	t->nfunctions = 0;
	for (int i = 0; i < t->nskipped; i++) {
		free(t->skipped[i].link_key);
		free(t->skipped[i].file);
	}
	t->nskipped = 0;
}

void facts_free(struct tu_facts *t)
{
	facts_forget_functions(t);
	free(t->functions);
	free(t->skipped);
	for (int i = 0; i < t->ndeps; i++)
		free(t->deps[i]);
	free(t->deps);
	free(t->hashes);
	free(t->path);
	free(t->diagnostics);
	memset(t, 0, sizeof *t);
}

/* "c:@S@urcu_workqueue@FI@futex[]" -> "urcu_workqueue.futex[]": the names
 * in a USR (globals, struct and union tags, fields), for the messages of
 * an object that has no source text of its own (reached through a
 * function's parameter).  Other keys are returned as they are. */
char *readable_object(const char *key)
{
	const char *suffix;
	char *out, *tok, *save = NULL, *copy, *last = NULL;
	size_t len = 0;
	int named = 0;

	if (strncmp(key, "c:", 2) != 0)
		return xstrdup(strncmp(key, "t:", 2) == 0 ? key + 2 : key);
	suffix = strchr(key, '[') ? strchr(key, '[') : key + strlen(key);
	copy = xasprintf("%.*s", (int)(suffix - key - 2), key + 2);
	out = xmalloc(strlen(key) + 2);
	for (tok = strtok_r(copy, "@", &save); tok; tok = strtok_r(NULL, "@", &save)) {
		int marker = strcmp(tok, "S") == 0 || strcmp(tok, "U") == 0 || strcmp(tok, "FI") == 0 ||
			     strcmp(tok, "SA") == 0 || strcmp(tok, "UA") == 0 || strcmp(tok, "F") == 0;

		if (named && !marker)
			len += (size_t)sprintf(out + len, "%s%s", len ? "." : "", tok);
		named = marker;
		last = tok;
	}
	/* c:@flag, c:file.c@counter: a global is the last name. */
	if (!len || (last && strcmp(out + len - strlen(last), last) != 0))
		len += (size_t)sprintf(out + len, "%s%s", len ? "." : "", last ? last : key);
	strcpy(out + len, suffix);
	free(copy);
	return out;
}
