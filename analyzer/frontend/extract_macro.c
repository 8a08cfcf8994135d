/* analyzer/frontend/extract_macro.c — vocabulary macros used inside the body of one
 * of the project's own macros:
 *
 *     #define PUBLISH(f, v) WRITE_ONCE(f, v)
 *     #define for_each_rcu(p, h) for (p = rcu_dereference((h)->next); ...)
 *
 * libclang records only the outermost macro expansion (PUBLISH(flag, 1)),
 * so WRITE_ONCE is no site of the file.  Instead, each project macro's body
 * is scanned for vocabulary names (its "inner sites", offsets in the
 * definition's file), and an expression node inside an invocation of that
 * macro (a "host") is the inner site's expansion when its first token is
 * spelled in the vocabulary macro's definition (or in a macro that
 * definition starts with: smp_store_release -> __kcsan_store_release).
 * Its arguments are the outermost descendants spelled inside the inner
 * site's argument, either in the host macro's body or, for the host's own
 * parameters, where the invocation passes them.
 *
 * Limits: one level of project macro (a vocabulary macro inside a project
 * macro inside another project macro is not seen), and an expansion whose
 * first token is an argument (#define V(x) x = 1) is not recognised. */
#include "extract_int.h"
#include "extract_primitive.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CHAIN 4

static int def_cmp(const void *a, const void *b)
{
	const struct macro_def *p = a, *q = b;

	return strcmp(p->name, q->name);
}

static int host_cmp(const void *a, const void *b)
{
	const struct macro_host *p = a, *q = b;

	if (p->call.start != q->call.start)
		return p->call.start < q->call.start ? -1 : 1;
	return p->call.end > q->call.end ? -1 : p->call.end < q->call.end;
}

static char *trimmed(const char *text, unsigned i, unsigned e)
{
	while (i < e && strchr(" \t\n\r\\", text[i]))
		i++;
	while (e > i && strchr(" \t\n\r\\", text[e - 1]))
		e--;
	return xasprintf("%.*s", (int)(e - i), text + i);
}

void note_macro_definition(struct ectx *x, CXCursor c)
{
	struct macro_tables *m = &x->macros;
	CXSourceRange r = clang_getCursorExtent(c);
	CXString name = clang_getCursorSpelling(c);
	struct macro_def d = { 0 };
	struct site params = { 0 };
	unsigned l, col, i;
	size_t size, nlen = strlen(clang_getCString(name));
	const char *text;

	loc_of(clang_getRangeStart(r), &d.file, &l, &col, &d.start);
	loc_of(clang_getRangeEnd(r), &d.file, &l, &col, &d.end);
	text = d.file ? file_text(x, d.file, &size) : NULL;
	if (!text || d.end > size || d.start + nlen > d.end) {
		clang_disposeString(name);
		return;
	}
	d.name = xstrdup(clang_getCString(name));
	clang_disposeString(name);
	d.body = d.start + (unsigned)nlen;
	if (clang_Cursor_isMacroFunctionLike(c) && split_args(x, d.file, d.body, d.end, d.end, &params) == 0) {
		for (int a = 0; a < params.nargs; a++) {
			char *p = trimmed(text, params.args[a].start, params.args[a].end);
			size_t n = strlen(p);

			if (strcmp(p, "...") == 0) {
				free(p);
				p = xstrdup("__VA_ARGS__");
			} else if (n > 3 && strcmp(p + n - 3, "...") == 0) {
				p[n - 3] = '\0';
			}
			grow(&d.params, &d.paramcap, d.nparams + 1, sizeof *d.params);
			d.params[d.nparams++] = p;
		}
		d.body = params.end;
	}
	free_site(&params);
	for (i = d.body; i < d.end && strchr(" \t\n\r\\", text[i]); i++)
		;
	if (i < d.end && is_ident_char(text[i]) && !(text[i] >= '0' && text[i] <= '9')) {
		unsigned e = i;

		while (e < d.end && is_ident_char(text[e]))
			e++;
		d.first = xasprintf("%.*s", (int)(e - i), text + i);
	}
	d.project = !clang_Location_isInSystemHeader(clang_getRangeStart(r));
	grow(&m->defs, &m->defcap, m->ndefs + 1, sizeof *m->defs);
	m->defs[m->ndefs++] = d;
}

void note_macro_host(struct ectx *x, CXCursor c)
{
	struct macro_tables *m = &x->macros;
	CXCursor def = clang_getCursorReferenced(c);
	CXString name = clang_getCursorSpelling(c);
	CXSourceRange r = clang_getCursorExtent(c);
	struct macro_host h = { 0 };
	unsigned l, col, end;
	size_t size;
	const char *text;

	if (clang_Cursor_isNull(def) || clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
		goto out;
	loc_of(clang_getRangeStart(r), &h.call.file, &h.call.line, &h.call.col, &h.call.start);
	loc_of(clang_getRangeEnd(r), &h.call.file, &l, &col, &end);
	text = h.call.file ? file_text(x, h.call.file, &size) : NULL;
	if (!text || split_args(x, h.call.file, h.call.start + (unsigned)strlen(clang_getCString(name)), end,
				(unsigned)size, &h.call) < 0) {
		free_site(&h.call);
		goto out;
	}
	h.call.end = end;
	loc_of(clang_getCursorLocation(def), &h.def_file, &l, &col, &h.def_off);
	h.name = xstrdup(clang_getCString(name));
	h.def = -1;
	grow(&m->hosts, &m->hostcap, m->nhosts + 1, sizeof *m->hosts);
	m->hosts[m->nhosts++] = h;
out:
	clang_disposeString(name);
}

/* The first definition named NAME, or -1. */
static int find_def(struct ectx *x, const char *name)
{
	struct macro_tables *m = &x->macros;
	int lo = 0, hi = m->ndefs;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (strcmp(m->defs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->ndefs && strcmp(m->defs[lo].name, name) == 0 ? lo : -1;
}

/* The vocabulary entry for macro NAME as the definition in the TU has it. */
static const struct vocab_entry *vocab_macro(struct ectx *x, const char *name)
{
	int d = find_def(x, name);
	const struct vocab_entry *v = NULL;

	if (d >= 0) {
		char *f = file_name_of(x->macros.defs[d].file);

		v = vocab_find(x->vocab, name, f);
		free(f);
	}
	return v;
}

/* The vocabulary macros named in the body of project macro D: its
 * identifiers, as libclang's tokens (so none in a literal or a comment,
 * and no limit on their length). */
static void find_inner_sites(struct ectx *x, struct macro_def *d)
{
	CXToken *toks = NULL;
	unsigned n = 0;

	clang_tokenize(x->tu, clang_getRange(file_offset_loc(x, d->file, d->body),
					     file_offset_loc(x, d->file, d->end)), &toks, &n);
	for (unsigned t = 0; t < n; t++) {
		enum CXTokenKind k = clang_getTokenKind(toks[t]);
		unsigned off = token_offset(x->tu, toks[t]);
		struct site s = { 0 };
		CXString name;

		if ((k != CXToken_Identifier && k != CXToken_Keyword) || off < d->body || off >= d->end)
			continue;
		name = clang_getTokenSpelling(x->tu, toks[t]);
		s.v = vocab_macro(x, clang_getCString(name));
		s.file = d->file;
		s.start = off;
		if (s.v && split_args(x, d->file, off + (unsigned)strlen(clang_getCString(name)), d->end, d->end,
				      &s) == 0) {
			d->inner = xrealloc(d->inner, (d->ninner + 1) * sizeof *d->inner);
			d->inner[d->ninner++] = s;
		} else {
			free_site(&s);
		}
		clang_disposeString(name);
	}
	if (toks)
		clang_disposeTokens(x->tu, toks, n);
}

void finish_macro_tables(struct ectx *x)
{
	struct macro_tables *m = &x->macros;
	int n = 0;

	if (m->ndefs)
		qsort(m->defs, m->ndefs, sizeof *m->defs, def_cmp);
	for (int i = 0; i < m->ndefs; i++)
		if (m->defs[i].project && !vocab_macro(x, m->defs[i].name))
			find_inner_sites(x, &m->defs[i]);
	/* Keep the hosts whose definition uses vocabulary. */
	for (int i = 0; i < m->nhosts; i++) {
		struct macro_host *h = &m->hosts[i];

		for (int d = find_def(x, h->name); d >= 0 && d < m->ndefs && strcmp(m->defs[d].name, h->name) == 0; d++)
			if (clang_File_isEqual(m->defs[d].file, h->def_file) && m->defs[d].start == h->def_off)
				h->def = d;
		if (h->def >= 0 && m->defs[h->def].ninner > 0) {
			m->hosts[n++] = *h;
		} else {
			free(h->name);
			free_site(&h->call);
		}
	}
	m->nhosts = n;
	if (n)          /* qsort wants an array even for no elements */
		qsort(m->hosts, m->nhosts, sizeof *m->hosts, host_cmp);
}

void free_macro_tables(struct macro_tables *m)
{
	for (int i = 0; i < m->ndefs; i++) {
		free(m->defs[i].name);
		free(m->defs[i].first);
		for (int p = 0; p < m->defs[i].nparams; p++)
			free(m->defs[i].params[p]);
		free(m->defs[i].params);
		for (int s = 0; s < m->defs[i].ninner; s++)
			free_site(&m->defs[i].inner[s]);
		free(m->defs[i].inner);
	}
	free(m->defs);
	for (int i = 0; i < m->nhosts; i++) {
		free(m->hosts[i].name);
		free_site(&m->hosts[i].call);
	}
	free(m->hosts);
}

/* The innermost host invocation containing file range [O1, O2] of F. */
static const struct macro_host *host_of(struct ectx *x, CXFile f, unsigned o1, unsigned o2)
{
	struct macro_tables *m = &x->macros;
	const struct macro_host *best = NULL;

	for (int i = 0; i < m->nhosts && m->hosts[i].call.start <= o1; i++)
		if (o2 <= m->hosts[i].call.end && clang_File_isEqual(m->hosts[i].call.file, f))
			best = &m->hosts[i];
	return best;
}

/* Is (F, OFF) inside the body of vocabulary macro NAME, or of a macro its
 * body starts with? */
static int spelled_in_macro(struct ectx *x, const char *name, CXFile f, unsigned off)
{
	struct macro_tables *m = &x->macros;

	for (int depth = 0; name && depth < MAX_CHAIN; depth++) {
		int d = find_def(x, name);
		const char *next = NULL;

		for (; d >= 0 && d < m->ndefs && strcmp(m->defs[d].name, name) == 0; d++) {
			if (clang_File_isEqual(m->defs[d].file, f) && m->defs[d].body <= off && off < m->defs[d].end)
				return 1;
			next = m->defs[d].first;
		}
		name = next;
	}
	return 0;
}

static int occurs(const char *text, unsigned i, unsigned e, const char *ident)
{
	size_t n = strlen(ident);

	for (; i + n <= e; i++)
		if (strncmp(text + i, ident, n) == 0 && (i == 0 || !is_ident_char(text[i - 1])) &&
		    !is_ident_char(text[i + n]))
			return 1;
	return 0;
}

/* Does the token spelled at (F, OFF) belong to argument A of inner site S
 * of host H's macro? */
static int in_inner_arg(struct ectx *x, const struct macro_host *h, const struct site *s, int a,
			CXFile f, unsigned off)
{
	const struct macro_def *d = &x->macros.defs[h->def];
	size_t size;
	const char *text;

	if (clang_File_isEqual(f, d->file) && d->body <= off && off < d->end)
		return s->args[a].start <= off && off < s->args[a].end;
	if (!clang_File_isEqual(f, h->call.file))
		return 0;
	text = file_text(x, d->file, &size);
	for (int j = 0; j < h->call.nargs; j++)
		if (h->call.args[j].start <= off && off < h->call.args[j].end) {
			/* The host's argument j: wherever the body uses its
			 * parameter (the last one if variadic). */
			int p = j < d->nparams ? j : d->nparams - 1;

			return p >= 0 && text && occurs(text, s->args[a].start, s->args[a].end, d->params[p]);
		}
	return 0;
}

/* The argument expressions found for an inner site, one per argument. */
struct roots {
	CXCursor *v;
	CXCursor *in_type;                /* found only in __typeof__ or sizeof */
	int found;
};

static void roots_init(struct roots *r, int nargs)
{
	r->v = xmalloc(((size_t)nargs + 1) * sizeof *r->v);
	r->in_type = xmalloc(((size_t)nargs + 1) * sizeof *r->in_type);
	for (int a = 0; a < nargs; a++)
		r->v[a] = r->in_type[a] = clang_getNullCursor();
	r->found = 0;
}

static void roots_free(struct roots *r)
{
	free(r->v);
	free(r->in_type);
	r->v = r->in_type = NULL;
}

/* The outermost descendants of C that are arguments of inner site S. */
static void find_roots(struct ectx *x, const struct macro_host *h, const struct site *s, CXCursor c,
		       struct roots *r, int in_type, int depth)
{
	CXCursor *kids, init = clang_getNullCursor();
	enum CXCursorKind k = clang_getCursorKind(c);
	int n;

	if (depth > 200)
		return;
	if (k == CXCursor_VarDecl)
		init = clang_Cursor_getVarDeclInitializer(c);
	n = children(c, &kids);
	for (int i = 0; i < n; i++) {
		enum CXCursorKind ck = clang_getCursorKind(kids[i]);
		int type_pos = in_type || (k == CXCursor_CStyleCastExpr && i < n - 1) ||
			       (k == CXCursor_VarDecl && !clang_equalCursors(kids[i], init)) ||
			       k == CXCursor_UnaryExpr;
		CXSourceRange ext = cursor_extent(x, kids[i]);
		CXFile f, fe;
		unsigned off, l, col, end;
		int a = -1;

		if (clang_isExpression(ck) && spelling_loc(x, clang_getRangeStart(ext), &f, &off)) {
			/* An argument ends with an argument token; a node
			 * ending in the macro body ends where the host does. */
			loc_of(clang_getRangeEnd(ext), &fe, &l, &col, &end);
			if (!(fe && clang_File_isEqual(fe, h->call.file) && end == h->call.end))
				for (a = 0; a < s->nargs && !in_inner_arg(x, h, s, a, f, off); a++)
					;
		}
		if (a >= 0 && a < s->nargs) {
			CXCursor *slot = type_pos ? &r->in_type[a] : &r->v[a];

			if (clang_Cursor_isNull(*slot)) {
				*slot = kids[i];
				r->found++;
			}
			continue;
		}
		find_roots(x, h, s, kids[i], r, type_pos, depth + 1);
	}
	free(kids);
}

/* The text of argument A of S with the host's parameters replaced by the
 * texts the invocation passes. */
static char *inner_arg_text(struct ectx *x, const struct macro_host *h, const struct site *s, int a)
{
	const struct macro_def *d = &x->macros.defs[h->def];
	size_t size, csize;
	const char *text = file_text(x, d->file, &size), *call = file_text(x, h->call.file, &csize);
	char *out = xstrdup("");
	unsigned i = s->args[a].start;

	while (text && call && i < s->args[a].end) {
		unsigned e = i;
		char *piece = NULL, *joined;

		if (is_ident_char(text[i]))
			while (e < s->args[a].end && is_ident_char(text[e]))
				e++;
		else
			e = i + 1;
		for (int p = 0; p < d->nparams && is_ident_char(text[i]); p++)
			if (strlen(d->params[p]) == e - i && strncmp(d->params[p], text + i, e - i) == 0 &&
			    p < h->call.nargs)
				piece = trimmed(call, h->call.args[p].start, h->call.args[p].end);
		if (!piece) {
			if (strchr(" \t\n\r\\", text[i]))
				piece = xstrdup("");
			else
				piece = xasprintf("%.*s", (int)(e - i), text + i);
		}
		joined = xasprintf("%s%s", out, piece);
		free(out);
		free(piece);
		out = joined;
		i = e;
	}
	return out;
}

int handle_nested_site(struct ectx *x, CXCursor c, int mode)
{
	struct span sp;
	CXSourceRange ext;
	CXFile f, sf;
	unsigned o1, o2, so;
	const struct macro_host *h;
	const struct macro_def *d;
	const struct site *best = NULL;
	struct roots br = { 0 };
	struct use_of u = { 0 };
	char *args;
	struct arg_list arglist = { 0 };

	if (!x->macros.nhosts)
		return 0;
	cursor_span(x, c, &sp);
	ext = sp.r;
	o1 = sp.o1;
	f = sp.f2;        /* (where the extent ends, as it always was) */
	o2 = sp.o2;
	if (!f || !(h = host_of(x, f, o1, o2)))
		return 0;
	d = &x->macros.defs[h->def];
	if (!spelling_loc(x, clang_getRangeStart(ext), &sf, &so) ||
	    (clang_File_isEqual(sf, f) && so == o1) ||                       /* written in the file */
	    (clang_File_isEqual(sf, d->file) && d->body <= so && so < d->end))  /* the host's own body */
		return 0;
	for (int i = 0; i < d->ninner; i++) {
		const struct site *s = &d->inner[i];
		struct roots r;

		if (site_is_active(x, s) || !spelled_in_macro(x, s->v->name, sf, so))
			continue;
		roots_init(&r, s->nargs);
		find_roots(x, h, s, c, &r, 0, 0);
		if (!best || r.found > br.found) {
			best = s;
			roots_free(&br);
			br = r;
		} else {
			roots_free(&r);
		}
	}
	if (!best)
		return 0;
	for (int a = 0; a < best->nargs; a++)
		if (clang_Cursor_isNull(br.v[a]))
			br.v[a] = br.in_type[a];
	for (int a = 0; a < best->nargs; a++)
		arg_list_add(&arglist, inner_arg_text(x, h, best, a));
	/* (a use without arguments keeps "", as it always has) */
	args = arg_list_text(&arglist);
	if (!args)
		args = xstrdup("");
	arg_list_free(&arglist);
	u.v = best->v;
	u.roots = br.v;
	u.nargs = best->nargs;
	u.args = args;
	u.site = best;
	u.line = h->call.line;
	u.col = h->call.col;
	u.mode = mode;
	if (best->v->op != OP_IGNORE)
		emit_primitive(x, &u, c);
	free(u.args);
	roots_free(&br);
	return 1;
}
