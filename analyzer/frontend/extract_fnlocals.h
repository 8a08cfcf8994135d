/* analyzer/frontend/extract_fnlocals.h — calls through a local function
 * pointer that only ever holds named functions (extract_fnlocals.c). */
#ifndef KCSAN_EXTRACT_FNLOCALS_H
#define KCSAN_EXTRACT_FNLOCALS_H

#include "libclang.h"

struct ectx;

/* A local function pointer of the function being walked and the
 * functions stored in it (their link keys).  UNKNOWN: something else was
 * stored in it too (a parameter, a field, a call's result) or its address
 * was taken, so the functions listed may not be all. */
struct fn_local {
	char *usr;
	char **targets;
	int n, cap;
	int unknown;
};

struct fn_local_table {
	struct fn_local *v;
	int n, cap;
	CXCursor body;      /* the function being walked */
	int found;          /* v holds its locals (found on first need) */
};

/* Before walking function body BODY: its local function pointers and what
 * is stored in them, anywhere in the body, are found when a call through
 * a local first asks (most functions make none: no second walk). */
void find_function_locals(struct ectx *x, CXCursor body);
void forget_function_locals(struct ectx *x);

/* When CALLEE (a call's first child) is a local function pointer (f,
 * (*f)) that holds only named functions, and at least one: its entry;
 * NULL otherwise. */
const struct fn_local *function_local_called(struct ectx *x, CXCursor callee);

#endif
