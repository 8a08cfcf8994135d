/* analyzer/frontend/extract_text.c — what an expression looks like and which
 * operator it applies, whether or not it was written in the file.
 *
 * The front end reads operators and display text from the file where that
 * is possible (cheap, and the user's own spelling).  A node that comes out
 * of a macro body has no text there: its file location is the macro's
 * invocation.  libclang 14 has no clang_Cursor_getBinaryOpcode (and its
 * pretty printer prints declarations only), so for such nodes:
 *   - a unary operator is read where its first token is spelled (libclang
 *     keeps the start of an extent unexpanded, so that is the macro body);
 *   - a binary operator is "=" exactly when its left operand is an lvalue
 *     that C did not convert to a value (see is_bare_lvalue);
 *   - display text is rebuilt from the AST (render). */
#include "extract_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The entry of the files read so far that is file F, or NULL.  Called for
 * nearly every expression, with a TU's hundred-odd headers read: the file
 * asked for last, then the same CXFile (a pointer compare), and only then
 * clang_File_isEqual, which also matches another name of the same file
 * (it compares unique ids) and is what decides for a file not yet seen. */
static struct file_text *known_file(struct source_text *st, CXFile f)
{
	if (st->last < st->nfiles && st->files[st->last].file == f)
		return &st->files[st->last];
	for (int i = 0; i < st->nfiles; i++)
		if (st->files[i].file == f) {
			st->last = i;
			return &st->files[i];
		}
	for (int i = 0; i < st->nfiles; i++)
		if (clang_File_isEqual(st->files[i].file, f))
			return &st->files[i];
	return NULL;
}

/* The entry of file F, its text read when it is new (once per TU:
 * libclang keeps the text). */
static struct file_text *file_entry(struct ectx *x, CXFile f)
{
	struct source_text *st = &x->text;
	struct file_text *ft = known_file(st, f);

	if (!ft) {
		grow(&st->files, &st->filecap, st->nfiles + 1, sizeof *st->files);
		ft = &st->files[st->nfiles++];
		memset(ft, 0, sizeof *ft);
		ft->file = f;
		ft->text = clang_getFileContents(x->tu, f, &ft->size);
	}
	return ft;
}

const char *file_text(struct ectx *x, CXFile f, size_t *size)
{
	struct file_text *ft = file_entry(x, f);

	*size = ft->size;
	return ft->text;
}

/* A location at byte OFF of file F, for clang_tokenize.
 *
 * clang_getLocationForOffset finds the file by a linear search of all the
 * TU's source entries (clang's SourceManager::translateFile), and with the
 * detailed preprocessing record every macro expansion is one: on a large
 * TU it cost more than the tokenizing it served.  So each file's start is
 * asked once (per TU: a CXFile is the TU's), and a location in the file is
 * that start moved by OFF, as clang's SourceLocation::getLocWithOffset
 * moves the raw encoding libclang keeps in int_data.  clang_tokenize lexes
 * at spelling locations, so this plain file location gives the tokens the
 * library's own answer gives (which may be a macro argument's expansion
 * of the same spot).  Every result is checked: one that is not F at OFF
 * (past the end of the file, or an encoding this does not know) is
 * replaced by the library's. */
CXSourceLocation file_offset_loc(struct ectx *x, CXFile f, unsigned off)
{
	struct file_text *ft = file_entry(x, f);
	CXSourceLocation l;
	CXFile lf;
	unsigned line, col, loff;

	if (!ft->start_known) {
		ft->start = clang_getLocationForOffset(x->tu, f, 0);
		ft->start_known = 1;
	}
	l = ft->start;
	l.int_data += off;
	clang_getFileLocation(l, &lf, &line, &col, &loff);
	if (!lf || !clang_File_isEqual(lf, f) || loff != off)
		return clang_getLocationForOffset(x->tu, f, off);
	return l;
}

/* Where the token at L is spelled: in a macro's definition for a token
 * of its body, where it was written for an argument.  libclang 14's
 * clang_getSpellingLocation returns the file location instead, but
 * clang_tokenize lexes at the true spelling location, and the token it
 * returns has a plain file location. */
int spelling_loc(struct ectx *x, CXSourceLocation l, CXFile *f, unsigned *off)
{
	return spelling_of_loc(x, l, f, off);     /* asked once (extract_span.c) */
}

/* Is the token at L written in the file at its file location (plain
 * source, or a macro argument), rather than in some macro's body? */
int written_in_file(struct ectx *x, CXSourceLocation l)
{
	CXFile fs, ff;
	unsigned line, col, os, of;

	if (!spelling_loc(x, l, &fs, &os))
		return 0;
	clang_getFileLocation(l, &ff, &line, &col, &of);
	return ff && clang_File_isEqual(fs, ff) && os == of;
}

/* The unary operator of C, read where its first token is spelled: for a
 * prefix operator that token is the operator, even inside a macro body
 * (libclang keeps the start of an extent unexpanded).  A postfix operator
 * (the operand comes first) is ++ or --, which are the same here. */
static void unary_op(struct ectx *x, CXCursor c, CXCursor operand, char *op, size_t oplen)
{
	CXFile f, fo;
	unsigned off, ooff;
	size_t size, k = 0;
	const char *text;

	spelling_loc(x, clang_getRangeStart(cursor_extent(x, c)), &f, &off);
	spelling_loc(x, clang_getRangeStart(cursor_extent(x, operand)), &fo, &ooff);
	text = f ? file_text(x, f, &size) : NULL;
	if (!text || off >= size)
		return;
	if (strncmp(text + off, "__extension__", 13) == 0 || strncmp(text + off, "__real", 6) == 0 ||
	    strncmp(text + off, "__imag", 6) == 0) {
		snprintf(op, oplen, "__ext");
		return;
	}
	if (fo && clang_File_isEqual(f, fo) && off == ooff) {
		snprintf(op, oplen, "++");          /* postfix */
		return;
	}
	while (off + k < size && k < oplen - 1 && strchr("&*+-!~", text[off + k]) &&
	       !(k == 1 && text[off] != text[off + 1]))   /* "*&x": one operator */
		k++;
	memcpy(op, text + off, k);
	op[k] = '\0';
}

/* Can C (not stripped) be the left operand of an assignment?  In C every
 * binary operator but = converts an lvalue left operand to its value (an
 * implicit cast, UnexposedExpr in libclang), so an lvalue left operand
 * that is not converted means "=". */
static int is_bare_lvalue(struct ectx *x, CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		CXCursor *kids, ref;
		int n;
		char op[8] = "";

		switch (k) {
		case CXCursor_DeclRefExpr:
			ref = clang_getCursorReferenced(c);
			return clang_getCursorKind(ref) == CXCursor_VarDecl ||
			       clang_getCursorKind(ref) == CXCursor_ParmDecl;
		case CXCursor_MemberRefExpr:
		case CXCursor_ArraySubscriptExpr:
		case CXCursor_CompoundLiteralExpr:
			return 1;
		case CXCursor_ParenExpr:
		case CXCursor_UnaryOperator:
			n = children(c, &kids);
			if (n != 1) {
				free(kids);
				return 0;
			}
			if (k == CXCursor_UnaryOperator) {
				unary_op(x, c, kids[0], op, sizeof op);
				free(kids);
				return strcmp(op, "*") == 0;
			}
			c = kids[0];
			free(kids);
			break;
		default:
			return 0;
		}
	}
}

void ast_operator(struct ectx *x, CXCursor c, CXCursor *kids, int n, char *op, size_t oplen)
{
	op[0] = '\0';
	if (n == 1)
		unary_op(x, c, kids[0], op, oplen);
	else if (n == 2 && is_bare_lvalue(x, kids[0]))
		snprintf(op, oplen, "=");
}

void note_expansion_range(struct ectx *x, CXFile f, unsigned start, unsigned end)
{
	grow(&x->text.exps, &x->text.expcap, x->text.nexp + 1, sizeof *x->text.exps);
	x->text.exps[x->text.nexp].file = f;
	x->text.exps[x->text.nexp].start = start;
	x->text.exps[x->text.nexp++].end = end;
}

static int exp_cmp(const void *a, const void *b)
{
	const struct expansion_range *p = a, *q = b;

	return p->start < q->start ? -1 : p->start > q->start;
}

void sort_expansions(struct ectx *x)
{
	struct source_text *st = &x->text;

	if (st->nexp)
		qsort(st->exps, st->nexp, sizeof *st->exps, exp_cmp);
	st->longest = 0;
	for (int i = 0; i < st->nexp; i++)
		if (st->exps[i].end > st->exps[i].start && st->exps[i].end - st->exps[i].start > st->longest)
			st->longest = st->exps[i].end - st->exps[i].start;
}

/* Is the extent [O1, O2) of C (in file F) the text of C?  Not when C
 * starts in a macro body (its start is then the invocation), nor when it
 * ends in one: libclang then moves the end to the end of the invocation,
 * which starts before O1 (q->next out of M(q) would read "q)"). */
int extent_is_text(struct ectx *x, CXCursor c, CXFile f, unsigned o1, unsigned o2)
{
	int lo = 0, hi = x->text.nexp;

	if (!written_in_file(x, clang_getRangeStart(cursor_extent(x, c))))
		return 0;
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (x->text.exps[mid].start < o1)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo - 1; i >= 0 && x->text.exps[i].start + x->text.longest >= o1; i--)
		if (x->text.exps[i].end == o2 && clang_File_isEqual(x->text.exps[i].file, f))
			return 0;
	return 1;
}

/* The token spelled at the start of C (a literal, a name), or "?". */
static char *first_token(struct ectx *x, CXCursor c)
{
	CXFile f;
	unsigned off, e;
	size_t size;
	const char *text;

	spelling_loc(x, clang_getRangeStart(cursor_extent(x, c)), &f, &off);
	text = f ? file_text(x, f, &size) : NULL;
	if (!text || off >= size)
		return xstrdup("?");
	for (e = off; e < size && e - off < 64 && (isalnum((unsigned char)text[e]) || text[e] == '_' || text[e] == '.'); e++)
		;
	return e > off ? xasprintf("%.*s", (int)(e - off), text + off) : xstrdup("?");
}

static char *spelled(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");

	clang_disposeString(s);
	return r;
}

/* C rendered from the AST, for an expression that a macro wrote (so that
 * it has no text of its own in the file): names, members, subscripts,
 * unary operators and literals; anything else is "...". */
static char *render(struct ectx *x, CXCursor c, int depth)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor *kids;
	int n = children(c, &kids);
	char *r = NULL, *a, *b, op[8];

	if (depth > 12) {
		r = xstrdup("...");
	} else if (k == CXCursor_DeclRefExpr) {
		r = spelled(c);
	} else if (k == CXCursor_MemberRefExpr && n >= 1) {
		int arrow = clang_getCanonicalType(clang_getCursorType(kids[0])).kind == CXType_Pointer;

		a = render(x, kids[0], depth + 1);
		b = spelled(clang_getCursorReferenced(c));
		r = xasprintf("%s%s%s", a, arrow ? "->" : ".", b);
		free(a);
		free(b);
	} else if (k == CXCursor_ArraySubscriptExpr && n == 2) {
		a = render(x, kids[0], depth + 1);
		b = render(x, kids[1], depth + 1);
		r = xasprintf("%s[%s]", a, b);
		free(a);
		free(b);
	} else if (k == CXCursor_UnaryOperator && n == 1) {
		op[0] = '\0';
		unary_op(x, c, kids[0], op, sizeof op);
		a = render(x, kids[0], depth + 1);
		if (strcmp(op, "__ext") == 0)
			r = xstrdup(a);
		else if (strcmp(op, "*") == 0 && a[0] == '&')
			r = xstrdup(a + 1);              /* *(T *)&x: x */
		else
			r = xasprintf("%s%s", op, a);
		free(a);
	} else if (k == CXCursor_ParenExpr && n == 1) {
		enum CXCursorKind ik = clang_getCursorKind(kids[0]);

		a = render(x, kids[0], depth + 1);
		/* (x) in a macro body: the parentheses say nothing to the user. */
		r = ik == CXCursor_DeclRefExpr || ik == CXCursor_MemberRefExpr || ik == CXCursor_ParenExpr ||
		    ik == CXCursor_ArraySubscriptExpr || ik == CXCursor_UnexposedExpr ? xstrdup(a)
										   : xasprintf("(%s)", a);
		free(a);
	} else if ((k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr) && n >= 1) {
		r = render(x, kids[n - 1], depth + 1);
	} else if (k == CXCursor_IntegerLiteral || k == CXCursor_FloatingLiteral ||
		   k == CXCursor_CharacterLiteral) {
		r = first_token(x, c);
	} else if (k == CXCursor_CallExpr && n >= 1) {
		a = render(x, kids[0], depth + 1);
		r = xasprintf("%s(...)", a);
		free(a);
	} else {
		r = xstrdup("...");
	}
	free(kids);
	return r;
}

char *ast_text(struct ectx *x, CXCursor c)
{
	return render(x, c, 0);
}

/* Reads the operator of a unary or binary operator node from the file:
 * the text between the operands, when the operands are written there.  A
 * node out of a macro body (SET(x, v) ((x) = (v))) has no such text: its
 * operator comes from the AST and the macro's own text (extract_text.c). */
void operator_of(struct ectx *x, CXCursor c, CXCursor *kids, int n, char *op, size_t oplen)
{
	struct span cs, os;
	CXFile f, fo;
	unsigned start, ostart, oend;
	size_t size, k = 0;
	const char *text = NULL;

	op[0] = '\0';
	cursor_span(x, c, &cs);
	f = cs.f1;
	start = cs.o1;
	if (f && n >= 1)
		text = file_text(x, f, &size);
	if (!text)
		goto ast;
	if (n == 2) {
		/* Binary: scan back from the right operand over spaces.  If
		 * that operand is a macro argument, what precedes it is the
		 * "(" or "," of the invocation, and nothing is found. */
		struct span right;

		cursor_span(x, kids[1], &right);
		fo = right.f1;
		ostart = right.o1;
		if (!fo || !clang_File_isEqual(f, fo) || ostart > size || ostart == 0 ||
		    !written_in_file(x, clang_getRangeStart(right.r))) {
			/* The right operand comes from a macro (p | FLAG): scan
			 * forward from the end of the left one instead. */
			cursor_span(x, kids[0], &os);
			fo = os.f2;
			oend = os.o2;
			if (!fo || !clang_File_isEqual(f, fo) || oend >= size)
				goto ast;
			unsigned i = oend;
			while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
				i++;
			while (i < size && strchr("=!<>&|+-*/%^", text[i]) && k < oplen - 1)
				op[k++] = text[i++];
			op[k] = '\0';
			goto ast;
		}
		unsigned i = ostart;
		while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r'))
			i--;
		unsigned e = i;
		while (i > 0 && strchr("=!<>&|+-*/%^", text[i - 1]) && e - i < oplen - 1)
			i--;
		memcpy(op, text + i, e - i);
		op[e - i] = '\0';
		goto ast;
	}
	/* Unary: prefix if the operator precedes the operand. */
	cursor_span(x, kids[0], &os);
	ostart = os.o1;
	fo = os.f2;
	oend = os.o2;
	if (!fo || !clang_File_isEqual(f, fo) || !written_in_file(x, clang_getRangeStart(cs.r)))
		goto ast;
	if (start < ostart) {
		for (unsigned i = start; i < ostart && k < oplen - 1 && strchr("&*+-!~", text[i]); i++)
			op[k++] = text[i];
	} else {
		for (unsigned i = oend; i < size && k < oplen - 1 && strchr("+-", text[i]); i++)
			op[k++] = text[i];
	}
	op[k] = '\0';
ast:
	if (!op[0])
		ast_operator(x, c, kids, n, op, oplen);
}

void free_source_text(struct source_text *st)
{
	free(st->files);
	free(st->exps);
}
