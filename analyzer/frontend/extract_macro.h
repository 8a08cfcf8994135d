/* analyzer/frontend/extract_macro.h — the project's own macros whose body
 * uses vocabulary (extract_macro.c): their definitions, their invocations
 * in the TU, and the vocabulary sites found inside such an invocation's
 * expansion. */
#ifndef KCSAN_EXTRACT_MACRO_H
#define KCSAN_EXTRACT_MACRO_H

#include "extract_sites.h"

struct ectx;

/* A macro definition of the TU. */
struct macro_def {
	char *name;
	CXFile file;
	unsigned start, body, end;        /* NAME(params) body: offsets */
	char *first;                      /* the body's first identifier */
	char **params;                    /* the parameters' names */
	int nparams, paramcap;
	struct site *inner;               /* vocabulary used in the body */
	int ninner;
	int project;                      /* not in a system header */
};

/* An invocation of a project macro whose body uses vocabulary: CALL has
 * the invocation's range and arguments in the file (CALL.v is NULL). */
struct macro_host {
	struct site call;
	char *name;
	CXFile def_file;
	unsigned def_off;
	int def;                          /* index in defs, -1 if unknown */
};

struct macro_tables {
	struct macro_def *defs;           /* by name, once finished */
	int ndefs, defcap;
	struct macro_host *hosts;         /* by start, once finished */
	int nhosts, hostcap;
};

/* While the TU's top-level cursors are visited: a macro definition, and
 * an expansion that may invoke a project macro. */
void note_macro_definition(struct ectx *x, CXCursor def);
void note_macro_host(struct ectx *x, CXCursor expansion);
/* Once all are noted: sorts the tables, finds the vocabulary in the
 * project macros' bodies, keeps the invocations of those macros. */
void finish_macro_tables(struct ectx *x);
void free_macro_tables(struct macro_tables *m);
/* If C is the expansion of a vocabulary macro written inside the body of
 * one of the project's macros, emits the primitive and returns 1.  MODE
 * is the enum mode of the use (extract_expr.h). */
int handle_nested_site(struct ectx *x, CXCursor c, int mode);

#endif
