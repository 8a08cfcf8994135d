/* analyzer/frontend/extract_span.h — where a cursor's extent lies in the
 * files, and where a location's token is spelled, each asked of libclang
 * once per function (extract_span.c). */
#ifndef KCSAN_EXTRACT_SPAN_H
#define KCSAN_EXTRACT_SPAN_H

#include "libclang.h"
#include "analyzer/model/hashmap.h"

struct ectx;

/* Cursor C's extent (clang_getCursorExtent) and loc_of of its start and
 * end. */
struct span {
	CXSourceRange r;
	CXFile f1, f2;
	unsigned l1, c1, o1;
	unsigned l2, c2, o2;
};

struct span_entry;
struct spelling_entry;

/* The answers kept for the function being walked. */
struct span_memo {
	struct hashmap by_cursor;        /* cursor hash -> index in spans */
	struct span_entry *spans;
	int nspans, spancap;
	struct hashmap by_loc;           /* location hash -> index in spellings */
	struct spelling_entry *spellings;
	int nspellings, spellingcap;
};

/* C's span, as libclang gives it. */
void cursor_span(struct ectx *x, CXCursor c, struct span *out);
/* C's extent: clang_getCursorExtent(C). */
CXSourceRange cursor_extent(struct ectx *x, CXCursor c);
/* spelling_loc's answer for L (extract_text.h): where the token at L is
 * spelled; 0 if nowhere. */
int spelling_of_loc(struct ectx *x, CXSourceLocation l, CXFile *f, unsigned *off);

/* Forgets every answer: at the start of each function (the memory stays
 * bounded by one function's cursors), and with the TU (its cursors and
 * locations point into it). */
void forget_spans(struct span_memo *m);
void free_spans(struct span_memo *m);

#endif
