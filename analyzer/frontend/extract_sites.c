/* analyzer/frontend/extract_sites.c — the sites of the vocabulary in the TU's
 * files: every expansion of a vocabulary macro (found before any function
 * is walked, sorted by position) and, on demand, calls and builtins
 * written as NAME(args) with NAME in the vocabulary.  A site knows where
 * each of its arguments is written, which is how the walk finds the
 * argument expressions of a primitive inside its expansion
 * (extract_primitive.c).  The stack of sites being expanded keeps a site
 * from being expanded again inside itself. */
#include "extract_int.h"

#include <stdlib.h>
#include <string.h>

unsigned token_offset(CXTranslationUnit tu, CXToken t)
{
	CXFile f;
	unsigned line, col, off;

	clang_getFileLocation(clang_getTokenLocation(tu, t), &f, &line, &col, &off);
	return off;
}

/* '(', ')' or ',' when token T is that punctuation, else 0. */
static char list_punct(CXTranslationUnit tu, CXToken t)
{
	CXString s;
	const char *p;
	char r = 0;

	if (clang_getTokenKind(t) != CXToken_Punctuation)
		return 0;
	s = clang_getTokenSpelling(tu, t);
	p = clang_getCString(s);
	if (p && p[0] && !p[1] && strchr("(),", p[0]))
		r = p[0];
	clang_disposeString(s);
	return r;
}

static void add_arg(struct site *s, unsigned start, unsigned end)
{
	grow(&s->args, &s->argcap, s->nargs + 1, sizeof *s->args);
	s->args[s->nargs].start = start;
	s->args[s->nargs++].end = end;
}

/* Reads the argument list in tokens TOKS (N of them, the first one just
 * after the name, at offset POS) into S: 1 when done (the list closed, or
 * no list follows the name), 0 when the tokens ran out inside the list, 2
 * when they ran out before anything followed the name, -1 when the list
 * does not close before offset LIMIT.  The preprocessor's rule: only
 * parentheses nest; a comma inside brackets or braces separates
 * arguments (M(a[1, 2]) has two), and comments are no tokens of it. */
static int read_args(CXTranslationUnit tu, CXToken *toks, unsigned n, unsigned pos, unsigned limit,
		     struct site *s)
{
	unsigned i = 0, argstart = 0;
	int depth = 0, empty = 1;

	s->nargs = 0;
	while (i < n && clang_getTokenKind(toks[i]) == CXToken_Comment)
		i++;
	if (i == n)
		return 2;
	if (token_offset(tu, toks[i]) >= limit || list_punct(tu, toks[i]) != '(') {
		s->end = pos;
		return 1;              /* an object-like macro such as cpu_relax */
	}
	argstart = token_offset(tu, toks[i]) + 1;
	for (i++; i < n; i++) {
		unsigned off = token_offset(tu, toks[i]);
		char p;

		if (off >= limit)
			return -1;
		if (clang_getTokenKind(toks[i]) == CXToken_Comment)
			continue;
		p = list_punct(tu, toks[i]);
		if (p == '(') {
			depth++;
		} else if (p == ')' && depth > 0) {
			depth--;
		} else if (p && depth == 0) {     /* ',' or the closing ')' */
			/* NAME() has no argument; NAME(,) has two empty ones */
			if (p == ',' || !empty || s->nargs > 0)
				add_arg(s, argstart, off);
			argstart = off + 1;
			if (p == ')') {
				s->end = off + 1;
				return 1;
			}
			continue;
		}
		empty = 0;
	}
	return 0;
}

/* Splits the argument list that follows a name in file F (POS is the
 * offset just after the name) into S's argument ranges, using libclang's
 * tokens.  The list is read from POS to HINT (where it probably ends: the
 * extent of the cursor), then further while it is not closed, never past
 * LIMIT.  Returns -1 if a list starts but does not close. */
int split_args(struct ectx *x, CXFile f, unsigned pos, unsigned hint, unsigned limit, struct site *s)
{
	unsigned end = hint > pos ? hint : pos;
	int r;

	for (;;) {
		CXToken *toks = NULL;
		unsigned n = 0;

		if (end > limit)
			end = limit;
		clang_tokenize(x->tu, clang_getRange(file_offset_loc(x, f, pos), file_offset_loc(x, f, end)),
			       &toks, &n);
		r = read_args(x->tu, toks, n, pos, limit, s);
		if (toks)
			clang_disposeTokens(x->tu, toks, n);
		if (r == 1 || r == -1)
			return r == 1 ? 0 : -1;
		if (end >= limit)
			break;
		end += end - pos + 256;     /* not seen to close yet: read further */
	}
	if (r == 2) {                       /* nothing follows the name */
		s->nargs = 0;
		s->end = pos;
		return 0;
	}
	return -1;
}

/* Is C written as NAME(args) with NAME in the vocabulary, in the file
 * itself (not produced by a macro)?  Fills OUT if so.  Covers calls of
 * functions (pthread_mutex_lock, ck_pr_store_int) and builtins such as
 * __atomic_store_n that libclang does not expose as calls. */
int site_from_call(struct ectx *x, CXCursor c, struct site *out)
{
	struct span s;
	CXFile f1, f2;
	unsigned l1, c1, o1, o2, e;
	size_t size;
	const char *text;
	char *name;
	char *defined_in = NULL;
	CXCursor ref;

	cursor_span(x, c, &s);
	f1 = s.f1, l1 = s.l1, c1 = s.c1, o1 = s.o1;
	f2 = s.f2, o2 = s.o2;
	if (!f1 || !clang_File_isEqual(f1, f2) || o2 <= o1)
		return 0;
	text = file_text(x, f1, &size);
	if (!text || o2 > size)
		return 0;
	for (e = o1; e < o2 && is_ident_char(text[e]); e++)
		;
	if (e == o1)
		return 0;
	name = xmalloc(e - o1 + 1);
	memcpy(name, text + o1, e - o1);
	name[e - o1] = '\0';
	ref = clang_getCursorReferenced(c);
	if (!clang_Cursor_isNull(ref))
		defined_in = cursor_file_name(ref);
	out->v = vocab_find(x->vocab, name, defined_in);
	free(name);
	free(defined_in);
	if (!out->v)
		return 0;
	out->file = f1;
	out->start = o1;
	out->line = l1;
	out->col = c1;
	out->args = NULL;
	out->nargs = out->argcap = 0;
	if (split_args(x, f1, e, o2, (unsigned)size, out) < 0 || out->end != o2) {
		free_site(out);
		return 0;
	}
	return 1;
}

/* Records a vocabulary macro expansion (a top-level child of the TU when
 * the detailed preprocessing record is on). */
void note_macro_site(struct ectx *x, CXCursor c)
{
	CXString name = clang_getCursorSpelling(c);
	CXCursor def = clang_getCursorReferenced(c);
	char *defined_in = clang_Cursor_isNull(def) ? NULL : cursor_file_name(def);
	const struct vocab_entry *v = vocab_find(x->vocab, clang_getCString(name), defined_in);
	CXSourceRange r = clang_getCursorExtent(c);
	struct site s = { 0 };
	CXFile f;
	unsigned l, col, off, name_end, end;
	size_t size;
	const char *text;

	free(defined_in);
	if (!v)
		goto out;
	loc_of(clang_getRangeStart(r), &s.file, &l, &col, &off);
	if (!s.file || clang_Location_isInSystemHeader(clang_getRangeStart(r)))
		goto out;
	text = file_text(x, s.file, &size);
	if (!text)
		goto out;
	s.v = v;
	s.start = off;
	s.line = l;
	s.col = col;
	name_end = off + (unsigned)strlen(clang_getCString(name));
	loc_of(clang_getRangeEnd(r), &f, &l, &col, &end);
	if (name_end > size || split_args(x, s.file, name_end, end, (unsigned)size, &s) < 0) {
		free_site(&s);
		goto out;
	}
	grow(&x->sites.v, &x->sites.cap, x->sites.n + 1, sizeof *x->sites.v);
	x->sites.v[x->sites.n++] = s;
out:
	clang_disposeString(name);
}

/* The innermost recorded site that contains all of C and is not being
 * expanded already, or NULL. */
const struct site *site_containing(struct ectx *x, CXCursor c)
{
	struct span sp;
	CXFile f1, f2;
	unsigned o1, o2;
	int lo = 0, hi = x->sites.n;

	if (!x->sites.n)
		return NULL;
	cursor_span(x, c, &sp);
	f1 = sp.f1, o1 = sp.o1;
	f2 = sp.f2, o2 = sp.o2;
	if (!f1 || !f2 || !clang_File_isEqual(f1, f2))
		return NULL;
	/* Sites are sorted by start (outer before inner on ties): the
	 * innermost site covering [o1, o2] is the last covering one that
	 * starts at or before o1.  Find that bound, then walk back: only a
	 * site starting at most the longest site's length before o1 can
	 * cover it (no window of a fixed size, which a long invocation
	 * would overrun). */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (x->sites.v[mid].start <= o1)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo - 1; i >= 0 && x->sites.v[i].start + x->sites.longest >= o1; i--) {
		const struct site *s = &x->sites.v[i];

		if (o2 > s->end || !clang_File_isEqual(s->file, f1))
			continue;
		return site_is_active(x, s) ? NULL : s;
	}
	return NULL;
}

static int site_cmp(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

void sort_sites(struct ectx *x)
{
	struct site_table *t = &x->sites;

	if (t->n)
		qsort(t->v, t->n, sizeof *t->v, site_cmp);
	t->longest = 0;
	for (int i = 0; i < t->n; i++)
		if (t->v[i].end - t->v[i].start > t->longest)
			t->longest = t->v[i].end - t->v[i].start;
}

void push_active_site(struct ectx *x, const struct site *s)
{
	struct site_table *t = &x->sites;

	grow(&t->active, &t->activecap, t->nactive + 1, sizeof *t->active);
	t->active[t->nactive++] = s;
}

void pop_active_site(struct ectx *x, const struct site *s)
{
	struct site_table *t = &x->sites;

	if (t->nactive > 0 && t->active[t->nactive - 1] == s)
		t->nactive--;
}

int site_is_active(struct ectx *x, const struct site *s)
{
	for (int a = 0; a < x->sites.nactive; a++)
		if (x->sites.active[a] == s)
			return 1;
	return 0;
}

/* A macro expansion that reads like a call (ACCESS(flag) of a profile) is
 * found again inside its own expansion, as a site of its own: walking it
 * again would recurse without end. */
int site_range_is_active(struct ectx *x, const struct site *s)
{
	for (int a = 0; a < x->sites.nactive; a++) {
		const struct site *o = x->sites.active[a];

		if (o->start == s->start && o->end == s->end && clang_File_isEqual(o->file, s->file))
			return 1;
	}
	return 0;
}

void forget_active_sites(struct ectx *x)
{
	x->sites.nactive = 0;
}

void free_site(struct site *s)
{
	free(s->args);
	s->args = NULL;
	s->nargs = s->argcap = 0;
}

void free_sites(struct site_table *t)
{
	for (int i = 0; i < t->n; i++)
		free_site(&t->v[i]);
	free(t->v);
	free(t->active);
}
