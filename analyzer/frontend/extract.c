/* analyzer/frontend/extract.c — the libclang front end, translation-unit level:
 * parse, collect diagnostics and dependencies, find the vocabulary sites
 * (macro expansions and calls named in the profiles), and hand each
 * function definition of the project's own files to extract_stmt.c. */
#define _GNU_SOURCE   /* strcasestr */
#include "extract.h"
#include "extract_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *file_text(struct ectx *x, CXFile f, size_t *size)
{
	for (int i = 0; i < x->ntexts; i++)
		if (clang_File_isEqual(x->texts[i].file, f)) {
			*size = x->texts[i].size;
			return x->texts[i].text;
		}
	grow(&x->texts, &x->textcap, x->ntexts + 1, sizeof *x->texts);
	x->texts[x->ntexts].file = f;
	x->texts[x->ntexts].text = clang_getFileContents(x->tu, f, &x->texts[x->ntexts].size);
	*size = x->texts[x->ntexts].size;
	return x->texts[x->ntexts++].text;
}

/* File location: for a token that came from a macro argument this is where
 * the argument was written; for one from a macro body it is where the macro
 * was expanded.  The whole front end relies on that distinction. */
void loc_of(CXSourceLocation l, CXFile *f, unsigned *line, unsigned *col, unsigned *off)
{
	clang_getFileLocation(l, f, line, col, off);
}

struct kids { CXCursor *v; int n, cap; };

static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData d)
{
	struct kids *k = d;

	(void)parent;
	grow(&k->v, &k->cap, k->n + 1, sizeof *k->v);
	k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

int children(CXCursor c, CXCursor **out)
{
	struct kids k = { 0 };

	clang_visitChildren(c, collect_kid, &k);
	*out = k.v;
	return k.n;
}

char *cursor_file_name(CXCursor c)
{
	CXFile f;
	unsigned line, col, off;
	CXString s;
	char *r;

	loc_of(clang_getCursorLocation(c), &f, &line, &col, &off);
	if (!f)
		return NULL;
	s = clang_getFileName(f);
	r = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* Splits the text of NAME(args) at top-level commas into S's argument
 * ranges.  POS is the offset just after the name.  Returns -1 if the text
 * is not a call-like form. */
int split_args(const char *text, size_t size, unsigned pos, struct site *s)
{
	int depth = 0;
	unsigned i = pos, argstart;

	while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\\' || text[i] == '\r'))
		i++;
	if (i >= size || text[i] != '(') {
		s->nargs = 0;
		s->end = pos;
		return 0;    /* an object-like macro such as cpu_relax */
	}
	argstart = ++i;
	s->nargs = 0;
	for (; i < size; i++) {
		char ch = text[i];

		if (ch == '"' || ch == '\'') {   /* skip literals */
			for (i++; i < size && text[i] != ch; i++)
				if (text[i] == '\\')
					i++;
			continue;
		}
		if (ch == '(' || ch == '[' || ch == '{')
			depth++;
		else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0)
			depth--;
		else if ((ch == ',' && depth == 0) || ch == ')') {
			if (s->nargs < SITE_MAX_ARGS && (ch == ',' || i > argstart || s->nargs > 0)) {
				s->astart[s->nargs] = argstart;
				s->aend[s->nargs] = i;
				s->nargs++;
			}
			argstart = i + 1;
			if (ch == ')') {
				s->end = i + 1;
				return 0;
			}
		}
	}
	return -1;
}

int is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Is C written as NAME(args) with NAME in the vocabulary, in the file
 * itself (not produced by a macro)?  Fills OUT if so.  Covers calls of
 * functions (pthread_mutex_lock, ck_pr_store_int) and builtins such as
 * __atomic_store_n that libclang does not expose as calls. */
int site_from_call(struct ectx *x, CXCursor c, struct site *out)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2;
	unsigned l1, c1, o1, l2, c2, o2, e;
	size_t size;
	const char *text;
	char *name;
	char *defined_in = NULL;
	CXCursor ref;

	loc_of(clang_getRangeStart(r), &f1, &l1, &c1, &o1);
	loc_of(clang_getRangeEnd(r), &f2, &l2, &c2, &o2);
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
	if (split_args(text, size, e, out) < 0 || out->end != o2)
		return 0;
	return 1;
}

/* Records a vocabulary macro expansion (a top-level child of the TU when
 * the detailed preprocessing record is on). */
static void add_macro_site(struct ectx *x, CXCursor c)
{
	CXString name = clang_getCursorSpelling(c);
	CXCursor def = clang_getCursorReferenced(c);
	char *defined_in = clang_Cursor_isNull(def) ? NULL : cursor_file_name(def);
	const struct vocab_entry *v = vocab_find(x->vocab, clang_getCString(name), defined_in);
	CXSourceRange r = clang_getCursorExtent(c);
	struct site s = { 0 };
	unsigned l, col, off, name_end;
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
	if (name_end > size || split_args(text, size, name_end, &s) < 0)
		goto out;
	grow(&x->sites, &x->sitecap, x->nsites + 1, sizeof *x->sites);
	x->sites[x->nsites++] = s;
out:
	clang_disposeString(name);
}

/* The innermost recorded site that contains all of C and is not being
 * expanded already, or NULL. */
const struct site *site_containing(struct ectx *x, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2;
	unsigned l, col, o1, o2;
	int lo = 0, hi = x->nsites;

	if (!x->nsites)
		return NULL;
	loc_of(clang_getRangeStart(r), &f1, &l, &col, &o1);
	loc_of(clang_getRangeEnd(r), &f2, &l, &col, &o2);
	if (!f1 || !f2 || !clang_File_isEqual(f1, f2))
		return NULL;
	/* Sites are sorted by start (outer before inner on ties): the
	 * innermost site covering [o1, o2] is the last covering one that
	 * starts at or before o1.  Find that bound, then walk back; a site
	 * is never longer than a few kilobytes, which bounds the walk. */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (x->sites[mid].start <= o1)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo - 1; i >= 0 && x->sites[i].start + 65536 > o1; i--) {
		const struct site *s = &x->sites[i];

		if (o2 > s->end || !clang_File_isEqual(s->file, f1))
			continue;
		for (int a = 0; a < x->nactive; a++)
			if (x->active[a] == s)
				return NULL;
		return s;
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

char *function_link_key(CXCursor fn)
{
	CXString name = clang_getCursorSpelling(fn);
	char *key;

	if (clang_getCursorLinkage(fn) == CXLinkage_Internal) {
		/* A static function is defined in the file of its definition
		 * (a declaration may stand in a header). */
		CXCursor def = clang_getCursorDefinition(fn);
		char *file = cursor_file_name(clang_Cursor_isNull(def) ? fn : def);

		key = xasprintf("%s:%s", file ? file : "?", clang_getCString(name));
		free(file);
	} else {
		key = xstrdup(clang_getCString(name));
	}
	clang_disposeString(name);
	return key;
}

/* Does one of FN's attributes that libclang shows only as unexposed
 * (__attribute__((constructor)), C11 _Noreturn, [[noreturn]], also
 * through a macro such as URCU_ATTR_CONSTRUCTOR) have a token containing
 * WORD (case-insensitively)? */
int has_attribute_token(struct ectx *x, CXCursor fn, const char *word)
{
	CXCursor *kids;
	int n, found = 0;

	if (!clang_Cursor_hasAttrs(fn))
		return 0;
	n = children(fn, &kids);
	for (int i = 0; i < n && !found; i++) {
		CXToken *toks;
		unsigned ntoks;

		if (clang_getCursorKind(kids[i]) != CXCursor_UnexposedAttr)
			continue;
		clang_tokenize(x->tu, clang_getCursorExtent(kids[i]), &toks, &ntoks);
		for (unsigned t = 0; t < ntoks && !found; t++) {
			CXString sp = clang_getTokenSpelling(x->tu, toks[t]);

			found = strcasestr(clang_getCString(sp), word) != NULL;
			clang_disposeString(sp);
		}
		clang_disposeTokens(x->tu, toks, ntoks);
	}
	free(kids);
	return found;
}

static int is_constructor(struct ectx *x, CXCursor fn)
{
	return has_attribute_token(x, fn, "constructor");
}

static void extract_function(struct ectx *x, CXCursor fn)
{
	CXCursor *kids, body = clang_getNullCursor();
	int n = children(fn, &kids);
	struct function *f;
	CXSourceRange r = clang_getCursorExtent(fn);
	CXFile file;
	unsigned line, col, off;
	CXString name;

	for (int i = 0; i < n; i++)
		if (clang_getCursorKind(kids[i]) == CXCursor_CompoundStmt)
			body = kids[i];
	free(kids);
	if (clang_Cursor_isNull(body))
		return;
	f = facts_add_function(x->facts);
	name = clang_getCursorSpelling(fn);
	f->name = xstrdup(clang_getCString(name));
	clang_disposeString(name);
	f->link_key = function_link_key(fn);
	f->file = cursor_file_name(fn);
	loc_of(clang_getCursorLocation(fn), &file, &line, &col, &off);
	f->line = line;
	f->col = col;
	loc_of(clang_getRangeEnd(r), &file, &line, &col, &off);
	f->end_line = line;

	x->fn = f;
	x->fn_cursor = fn;
	x->nevents = 0;
	x->nbrk = x->ncont = 0;
	for (int i = 0; i < x->nlabels; i++)
		free(x->labels[i].name);
	x->nlabels = 0;
	forget_aliases(x);
	forget_fresh(x);
	x->no_escape = 0;
	x->conditional = 0;
	x->self_store = clang_getNullCursor();
	x->nactive = 0;
	x->collect = NULL;

	f->entry = function_add_block(f);
	f->exit = function_add_block(f);
	x->cur = f->entry;
	if (is_constructor(x, fn)) {
		/* Runs before main(), before any thread: a marker the analysis
		 * reads (dataflow.c, is_constructor). */
		struct event *e = emit(x, EV_LOCAL, fn);

		e->name = xstrdup("constructor");
	}
	analyse_locals(x, body);
	fresh_parameters(x);
	walk_stmt(x, body);
	jump(x, f->exit);
}

/* Second pass over the TU: every function definition of the project's own
 * files (system headers, including kcsan/lkmm.h, are not analysed). */
static enum CXChildVisitResult visit_functions(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ectx *x = d;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (x->too_deep)
		return CXChildVisit_Break;     /* the TU fails: stop here */
	if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
	    !clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
		extract_function(x, c);
	return CXChildVisit_Continue;
}

/* First pass: the macro expansions, so that sites are known (and sorted)
 * before any function body is walked. */
static enum CXChildVisitResult visit_macros(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ectx *x = d;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_MacroExpansion) {
		CXSourceRange r = clang_getCursorExtent(c);
		CXFile f;
		unsigned l, col, o1, o2;

		add_macro_site(x, c);
		loc_of(clang_getRangeStart(r), &f, &l, &col, &o1);
		loc_of(clang_getRangeEnd(r), &f, &l, &col, &o2);
		if (f && !clang_Location_isInSystemHeader(clang_getRangeStart(r))) {
			note_expansion_range(x, f, o1, o2);
			note_macro_host(x, c);
		}
	} else if (clang_getCursorKind(c) == CXCursor_MacroDefinition) {
		note_macro_definition(x, c);
	}
	return CXChildVisit_Continue;
}


static void add_dep(CXFile included, CXSourceLocation *stack, unsigned len, CXClientData d)
{
	struct tu_facts *t = d;
	CXString s = clang_getFileName(included);
	const char *name = clang_getCString(s);

	(void)stack;
	(void)len;
	if (name) {
		grow(&t->deps, &t->depcap, t->ndeps + 1, sizeof *t->deps);
		t->deps[t->ndeps++] = xstrdup(name);
	}
	clang_disposeString(s);
}

static void append(char **buf, const char *s)
{
	char *old = *buf;

	*buf = xasprintf("%s%s", old ? old : "", s);
	free(old);
}

/* 0 if PATH can be read, else the errno that says why not.  libclang only
 * says that it "could not parse" a file it cannot open, which hides the
 * cause (a file deleted since compile_commands.json was written, a
 * permission, a directory named like a source). */
static int unreadable(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err = 0;
	char c;

	if (fd < 0)
		return errno;
	if (read(fd, &c, 1) < 0 && errno != EAGAIN)
		err = errno;
	close(fd);
	return err;
}

int extract_tu(const char *path, const char *directory, char **args, int nargs,
	       const struct vocab *vocab, struct tu_facts *facts)
{
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode rc;
	struct ectx x = { 0 };
	unsigned ndiag;
	int errors = 0;

	(void)directory;
	facts->path = xstrdup(path);
	if ((errors = unreadable(path)) != 0) {
		facts->diagnostics = xasprintf("cannot read '%s': %s\n", path, strerror(errors));
		facts->own_reason = 1;
		clang_disposeIndex(index);
		return -1;
	}
	rc = clang_parseTranslationUnit2(index, path, (const char *const *)args, nargs, NULL, 0,
					 CXTranslationUnit_DetailedPreprocessingRecord |
					 CXTranslationUnit_KeepGoing,
					 &tu);
	if (rc != CXError_Success || !tu) {
		facts->diagnostics = rc == CXError_Crashed
			? xasprintf("%s: libclang crashed while parsing the file\n", path)
			: xasprintf("%s: libclang could not parse the file (error %d)\n", path, rc);
		facts->own_reason = 1;
		clang_disposeIndex(index);
		return -1;
	}
	ndiag = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < ndiag; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);

		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
			append(&facts->diagnostics, clang_getCString(s));
			append(&facts->diagnostics, "\n");
			clang_disposeString(s);
			errors++;
		}
		clang_disposeDiagnostic(d);
	}
	clang_getInclusions(tu, add_dep, facts);
	if (!errors) {
		x.tu = tu;
		x.vocab = vocab;
		x.facts = facts;
		clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_macros, &x);
		if (x.nsites)
			qsort(x.sites, x.nsites, sizeof *x.sites, site_cmp);
		sort_expansions(&x);
		finish_macro_tables(&x);
		clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_functions, &x);
	}
	if (x.too_deep) {
		/* Half a TU would be wrong facts: none, and the TU fails. */
		for (int i = 0; i < facts->nfunctions; i++)
			function_free(&facts->functions[i]);
		facts->nfunctions = 0;
		facts->diagnostics = xasprintf("%s: expressions or statements nested deeper than %d levels\n",
					       path, MAX_NESTING);
		facts->own_reason = 1;
	}
	free(x.brk);
	free(x.cont);
	free(x.active);
	for (int i = 0; i < x.nlabels; i++)
		free(x.labels[i].name);
	free(x.labels);
	forget_locals(&x);
	forget_fresh(&x);
	free(x.fresh);
	forget_aliases(&x);
	free(x.aliases);
	free(x.sites);
	free(x.expansions);
	free_macro_tables(&x);
	free(x.texts);
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(index);
	return 0;
}
