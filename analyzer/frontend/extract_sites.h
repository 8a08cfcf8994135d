/* analyzer/frontend/extract_sites.h — where the vocabulary is used in the
 * TU's files (extract_sites.c): macro invocations and calls written as
 * NAME(args), and the sites whose expansion is being walked now. */
#ifndef KCSAN_EXTRACT_SITES_H
#define KCSAN_EXTRACT_SITES_H

#include "libclang.h"
#include "analyzer/model/vocab.h"

struct ectx;

/* Where one argument of NAME(args) is written: [start, end), from just
 * after the "(" or "," before it to the "," or ")" after it. */
struct arg_range {
	unsigned start, end;
};

/* A use of a vocabulary name in the source: a macro expansion or a call
 * (or builtin) written as NAME(args).  Offsets are in the file.  The site
 * owns ARGS (free_site). */
struct site {
	const struct vocab_entry *v;
	CXFile file;
	unsigned start, end;                 /* whole site, [start, end) */
	struct arg_range *args;              /* as many as the use has */
	int nargs, argcap;
	unsigned line, col;
};

/* The sites of the TU, and the stack of those being expanded. */
struct site_table {
	struct site *v;                   /* by start, once sorted */
	int n, cap;
	unsigned longest;                 /* the longest site's length */
	const struct site **active;       /* sites being expanded (nested) */
	int nactive, activecap;
};

/* Records the vocabulary macro expansion C (a top-level cursor of the TU). */
void note_macro_site(struct ectx *x, CXCursor c);
/* Sorts the sites, once all are recorded (site_containing needs it). */
void sort_sites(struct ectx *x);
/* The innermost recorded site that contains all of C and is not being
 * expanded already, or NULL. */
const struct site *site_containing(struct ectx *x, CXCursor c);
/* Is C written as NAME(args) with NAME in the vocabulary, in the file
 * itself?  Fills OUT if so (then free_site(OUT) once done with it). */
int site_from_call(struct ectx *x, CXCursor c, struct site *out);
/* Splits the argument list that follows a name in file F (POS is the
 * offset just after the name) into S's argument ranges, by libclang's
 * tokens; no list (an object-like macro) is no argument.  HINT is where
 * the list probably ends, LIMIT where it must have ended.  Returns -1 if
 * a list starts but does not close. */
int split_args(struct ectx *x, CXFile f, unsigned pos, unsigned hint, unsigned limit, struct site *s);
/* The file offset of token T. */
unsigned token_offset(CXTranslationUnit tu, CXToken t);
/* Frees what site S owns (its argument ranges). */
void free_site(struct site *s);

/* The stack of sites being expanded: a site is not expanded again inside
 * its own expansion. */
void push_active_site(struct ectx *x, const struct site *s);
/* Pops S if it is on top. */
void pop_active_site(struct ectx *x, const struct site *s);
/* Is S itself being expanded? */
int site_is_active(struct ectx *x, const struct site *s);
/* Is a site with S's range being expanded (S found afresh as a call)? */
int site_range_is_active(struct ectx *x, const struct site *s);
/* At the start of a function: nothing is being expanded. */
void forget_active_sites(struct ectx *x);
void free_sites(struct site_table *t);

#endif
