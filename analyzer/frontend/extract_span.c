/* analyzer/frontend/extract_span.c — where a cursor's extent lies in the
 * files, and where a location's token is spelled, asked of libclang once
 * per cursor (location) and function.
 *
 * Why.  The walks ask the same nodes again and again: every expression is
 * looked up among the vocabulary's sites (site_containing), the macro
 * hosts (handle_nested_site) and the calls written as NAME(args)
 * (site_from_call), once by the locals' pass and again by the events'
 * walk, and a binary operator is read from the text between its operands'
 * extents.  An extent costs libclang a descent to the expression's first
 * and last tokens and a relex of the last one; a file location, a search
 * of the line table; a spelling location, a tokenize.  These were the
 * largest part of the front end's own time.
 *
 * Each is a pure function of the cursor or location within one TU, so
 * the first answer is kept and given again.  What invalidates it: the TU
 * (cursors and locations point into it), hence free_spans with the TU;
 * answers are also dropped at the start of every function (forget_spans),
 * which keeps the memory to one function's nodes.  A key is a 64-bit mix
 * of the cursor's (location's) fields, and the entry holds the whole
 * cursor: on the rare collision of two keys the answer is simply asked
 * of libclang again. */
#include "extract_int.h"

#include <stdlib.h>
#include <string.h>

/* (cursor_span compares whole cursors with memcmp: no padding) */
_Static_assert(sizeof(CXCursor) == sizeof(enum CXCursorKind) + sizeof(int) + 3 * sizeof(void *),
	       "CXCursor has padding");

struct span_entry {
	CXCursor c;
	struct span s;
};

struct spelling_entry {
	CXSourceLocation l;
	CXFile f;
	unsigned off;
	int found;
};

/* A cursor's key for the hash map (below 2^64 - 1, which the map does
 * not take): its fields mixed, the node (data[1]) first.  Cheap rather
 * than strong: the map spreads keys itself, and equal keys of different
 * cursors are told apart by the entry (cursor_span). */
static uint64_t cursor_key(CXCursor c)
{
	uint64_t h = (uint64_t)(uintptr_t)c.data[1];

	h = (h ^ (uint64_t)(uintptr_t)c.data[0]) * 0x9E3779B97F4A7C15ULL;
	h = (h ^ (uint64_t)(uintptr_t)c.data[2]) * 0x9E3779B97F4A7C15ULL;
	h ^= (uint64_t)c.kind << 32 | (unsigned)c.xdata;
	return h >> 1;
}

static void compute_span(CXCursor c, struct span *s)
{
	s->r = clang_getCursorExtent(c);
	loc_of(clang_getRangeStart(s->r), &s->f1, &s->l1, &s->c1, &s->o1);
	loc_of(clang_getRangeEnd(s->r), &s->f2, &s->l2, &s->c2, &s->o2);
}

void cursor_span(struct ectx *x, CXCursor c, struct span *out)
{
	struct span_memo *m = &x->spans;
	int added;
	intptr_t *slot = hashmap_put(&m->by_cursor, cursor_key(c), &added);
	struct span_entry *e;

	if (!added) {
		e = &m->spans[*slot];
		if (memcmp(&e->c, &c, sizeof c) != 0) {     /* another cursor, same hash */
			compute_span(c, out);
			return;
		}
		*out = e->s;
		return;
	}
	grow(&m->spans, &m->spancap, m->nspans + 1, sizeof *m->spans);
	*slot = m->nspans;
	e = &m->spans[m->nspans++];
	e->c = c;
	compute_span(c, &e->s);
	*out = e->s;
}

CXSourceRange cursor_extent(struct ectx *x, CXCursor c)
{
	struct span s;

	cursor_span(x, c, &s);
	return s.r;
}

/* A location's key and equality, field by field: the struct has padding.
 * (Within a TU the pointers are the same for every location.) */
static uint64_t loc_key(CXSourceLocation l)
{
	uint64_t h = ((uint64_t)(uintptr_t)l.ptr_data[0] ^ (uint64_t)(uintptr_t)l.ptr_data[1]) * 0x9E3779B97F4A7C15ULL;

	return (h ^ l.int_data) >> 1;
}

static int same_loc(CXSourceLocation a, CXSourceLocation b)
{
	return a.ptr_data[0] == b.ptr_data[0] && a.ptr_data[1] == b.ptr_data[1] && a.int_data == b.int_data;
}

/* The tokenize behind spelling_loc (extract_text.c says why). */
static int compute_spelling(struct ectx *x, CXSourceLocation l, CXFile *f, unsigned *off)
{
	CXToken *toks = NULL;
	unsigned ntoks = 0, line, col;

	*f = NULL;
	*off = 0;
	clang_tokenize(x->tu, clang_getRange(l, l), &toks, &ntoks);
	if (ntoks > 0)
		clang_getFileLocation(clang_getTokenLocation(x->tu, toks[0]), f, &line, &col, off);
	if (toks)
		clang_disposeTokens(x->tu, toks, ntoks);
	return *f != NULL;
}

int spelling_of_loc(struct ectx *x, CXSourceLocation l, CXFile *f, unsigned *off)
{
	struct span_memo *m = &x->spans;
	int added;
	intptr_t *slot = hashmap_put(&m->by_loc, loc_key(l), &added);
	struct spelling_entry *e;

	if (!added) {
		e = &m->spellings[*slot];
		if (!same_loc(e->l, l))
			return compute_spelling(x, l, f, off);
		*f = e->f;
		*off = e->off;
		return e->found;
	}
	grow(&m->spellings, &m->spellingcap, m->nspellings + 1, sizeof *m->spellings);
	*slot = m->nspellings;
	e = &m->spellings[m->nspellings++];
	e->l = l;
	e->found = compute_spelling(x, l, &e->f, &e->off);
	*f = e->f;
	*off = e->off;
	return e->found;
}

void forget_spans(struct span_memo *m)
{
	hashmap_free(&m->by_cursor);
	hashmap_free(&m->by_loc);
	m->nspans = 0;
	m->nspellings = 0;
}

void free_spans(struct span_memo *m)
{
	forget_spans(m);
	free(m->spans);
	free(m->spellings);
	m->spans = NULL;
	m->spellings = NULL;
	m->spancap = m->spellingcap = 0;
}
