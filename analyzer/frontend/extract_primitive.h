/* analyzer/frontend/extract_primitive.h — the uses of vocabulary primitives
 * and the events they become (extract_primitive.c). */
#ifndef KCSAN_EXTRACT_PRIMITIVE_H
#define KCSAN_EXTRACT_PRIMITIVE_H

#include "extract_expr.h"
#include "extract_sites.h"

/* Where and how a primitive is written, for emit_primitive. */
struct use_of {
	const struct vocab_entry *v;
	CXCursor *roots;        /* argument expressions (null cursors if unseen) */
	int nargs;
	char *args;             /* argument texts separated by U+001F, or NULL */
	const struct site *site;/* the macro site being expanded, or NULL */
	int discarded;
	unsigned line, col;
	int mode;               /* enum mode of the use, for OP_ACCESS */
};

/* Walks the arguments of primitive U (written at C) and emits its event. */
void emit_primitive(struct ectx *x, struct use_of *u, CXCursor c);
/* Site S (a macro expansion or a call written in the file) whose
 * expansion or call is C, used in mode M. */
void handle_site(struct ectx *x, const struct site *s, CXCursor c, enum mode m);
/* A primitive V called inside a macro of the project's own: call C's
 * children are its arguments. */
void handle_call_in_macro(struct ectx *x, const struct vocab_entry *v, CXCursor c);
/* An atomic builtin (__c11_atomic_*, __atomic_*) that no site covers:
 * one whose name a macro pasted (mimalloc's mi_atomic(load_explicit)) or
 * that project macros nest too deep for the sites to see.  KIDS are C's N
 * children.  Emits its event and returns 1 when C is one the vocabulary
 * knows, else returns 0. */
int handle_atomic_builtin(struct ectx *x, CXCursor c, CXCursor *kids, int n);
/* The argument expressions of site S inside C, its expansion or call: for
 * each argument, the outermost descendant of C written inside its range
 * (a null cursor when none is).  To be freed. */
CXCursor *site_arg_roots(struct ectx *x, const struct site *s, CXCursor c);

#endif
