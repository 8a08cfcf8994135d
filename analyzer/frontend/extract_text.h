/* analyzer/frontend/extract_text.h — the TU's source text (extract_text.c):
 * the files' contents, the ranges of the macro expansions written in them,
 * and what an expression looks like and which operator it applies,
 * whether or not it was written in the file. */
#ifndef KCSAN_EXTRACT_TEXT_H
#define KCSAN_EXTRACT_TEXT_H

#include "libclang.h"

#include <stddef.h>

struct ectx;

struct file_text {
	CXFile file;
	const char *text;               /* libclang's copy: not freed here */
	size_t size;
	CXSourceLocation start;         /* offset 0 (file_offset_loc) */
	int start_known;
};

/* A top-level macro expansion in the file, [start, end). */
struct expansion_range {
	CXFile file;
	unsigned start, end;
};

struct source_text {
	struct file_text *files;        /* the files read so far */
	int nfiles, filecap;
	int last;                       /* the one file_text found last */
	struct expansion_range *exps;   /* every expansion, by start once sorted */
	int nexp, expcap;
	unsigned longest;               /* the longest expansion's length */
};

/* The text of file F (NULL if libclang has none); *SIZE its length. */
const char *file_text(struct ectx *x, CXFile f, size_t *size);
void free_source_text(struct source_text *st);
/* A location at byte OFF of file F for clang_tokenize, which lexes there
 * as at clang_getLocationForOffset's (faster: see extract_text.c). */
CXSourceLocation file_offset_loc(struct ectx *x, CXFile f, unsigned off);

void note_expansion_range(struct ectx *x, CXFile f, unsigned start, unsigned end);
void sort_expansions(struct ectx *x);
/* Is the extent [O1, O2) of C (in file F) the text of C, not a macro's? */
int extent_is_text(struct ectx *x, CXCursor c, CXFile f, unsigned o1, unsigned o2);

/* Where the token at L is spelled (a macro body or the file); 0 if
 * nowhere. */
int spelling_loc(struct ectx *x, CXSourceLocation l, CXFile *f, unsigned *off);
/* Is the token at L written in the file at its file location? */
int written_in_file(struct ectx *x, CXSourceLocation l);
/* C as text rebuilt from its AST (for what a macro body wrote). */
char *ast_text(struct ectx *x, CXCursor c);
/* The operator of unary or binary operator C (children KIDS, N of them)
 * written in a macro body: for a binary one "=" or "" (another operator),
 * for a unary one "&", "*", "++", "-", ... ("" if unknown). */
void ast_operator(struct ectx *x, CXCursor c, CXCursor *kids, int n, char *op, size_t oplen);
/* The operator of unary or binary operator C (children KIDS, N of them):
 * "&", "*", "++", "=", "+=", "==", ... ("" if unknown). */
void operator_of(struct ectx *x, CXCursor c, CXCursor *kids, int n, char *op, size_t oplen);

#endif
