/* analyzer/frontend/extract_fnlocals.c — calls through a local function
 * pointer that only ever holds named functions:
 *
 *     void (*test_to_do)(void) = NULL;
 *     if (strcmp(argv[1], "--smoketest") == 0) test_to_do = smoketest;
 *     else if (...) test_to_do = tree_stress_test;
 *     ...
 *     test_to_do();
 *
 * (perfbook's torture harnesses pick their test from the command line
 * this way).  The call reaches one of the functions stored, so walk_call
 * (extract_expr.c) writes it as alternative direct calls, one branch per
 * function.  Without this, the test picked is a function that nothing
 * calls: the analysis takes it for an entry point any thread may run, and
 * what it does before it starts its threads looks concurrent with them
 * (W20 of docs/history/real-code-reviews.md).
 *
 * The stores are collected over the whole body before it is walked, so a
 * store written after the call (in a loop) counts too.  A null pointer
 * stored adds nothing (calling it would crash); anything else stored, or
 * the pointer's address taken, makes the set unknown and the call stays a
 * call through a pointer. */
#include "extract_int.h"

#include <stdlib.h>
#include <string.h>

/* Is T a pointer to a function? */
static int is_function_pointer(CXType t)
{
	CXType c = clang_getCanonicalType(t);
	enum CXTypeKind k;

	if (c.kind != CXType_Pointer)
		return 0;
	k = clang_getCanonicalType(clang_getPointeeType(c)).kind;
	return k == CXType_FunctionProto || k == CXType_FunctionNoProto;
}

static struct fn_local *entry_of(struct ectx *x, const char *usr)
{
	for (int i = 0; usr && i < x->fnlocals.n; i++)
		if (strcmp(x->fnlocals.v[i].usr, usr) == 0)
			return &x->fnlocals.v[i];
	return NULL;
}

/* The entry of the local function pointer that lvalue C names, or NULL. */
static struct fn_local *named_local(struct ectx *x, CXCursor c)
{
	char *usr;
	struct fn_local *l;

	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	usr = usr_of(clang_getCursorReferenced(c));
	l = entry_of(x, usr);
	free(usr);
	return l;
}

/* Records that VALUE is stored into L. */
static void stored(struct fn_local *l, CXCursor value)
{
	char *key;

	if (is_null_constant(value))
		return;
	if (!(key = function_named(value))) {
		l->unknown = 1;
		return;
	}
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->targets[i], key) == 0) {
			free(key);
			return;
		}
	grow(&l->targets, &l->cap, l->n + 1, sizeof *l->targets);
	l->targets[l->n++] = key;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct ectx *x = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor *kids;
	int n;
	char op[8];
	struct fn_local *l;

	(void)parent;
	if (k == CXCursor_VarDecl && is_function_pointer(clang_getCursorType(c))) {
		char *usr = usr_of(c);

		if (!usr || entry_of(x, usr)) {
			free(usr);
			return CXChildVisit_Recurse;
		}
		grow(&x->fnlocals.v, &x->fnlocals.cap, x->fnlocals.n + 1, sizeof *x->fnlocals.v);
		l = &x->fnlocals.v[x->fnlocals.n++];
		memset(l, 0, sizeof *l);
		l->usr = usr;
		/* the initialiser: the declaration's expression child (the
		 * others are the type's parameter declarations) */
		n = children(c, &kids);
		for (int i = 0; i < n; i++)
			if (clang_isExpression(clang_getCursorKind(kids[i])))
				stored(l, kids[i]);
		free(kids);
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator) {
		n = children(c, &kids);
		operator_of(x, c, kids, n, op, sizeof op);
		if (k == CXCursor_BinaryOperator && n == 2 && strcmp(op, "=") == 0 && (l = named_local(x, kids[0])))
			stored(l, kids[1]);
		else if (k == CXCursor_CompoundAssignOperator && n == 2 && (l = named_local(x, kids[0])))
			l->unknown = 1;
		else if (k == CXCursor_UnaryOperator && n == 1 && strcmp(op, "&") == 0 &&
			 (l = named_local(x, kids[0])))
			l->unknown = 1;     /* stored through a pointer to it */
		free(kids);
	}
	return CXChildVisit_Recurse;
}

void find_function_locals(struct ectx *x, CXCursor body)
{
	forget_function_locals(x);
	x->fnlocals.body = body;
	x->fnlocals.found = 0;
}

void forget_function_locals(struct ectx *x)
{
	for (int i = 0; i < x->fnlocals.n; i++) {
		for (int k = 0; k < x->fnlocals.v[i].n; k++)
			free(x->fnlocals.v[i].targets[k]);
		free(x->fnlocals.v[i].targets);
		free(x->fnlocals.v[i].usr);
	}
	x->fnlocals.n = 0;
}

const struct fn_local *function_local_called(struct ectx *x, CXCursor callee)
{
	CXCursor c = strip(callee), *kids;
	struct fn_local *l;
	int n;

	/* (*f)(): the function is what f points to */
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
		n = children(c, &kids);
		c = n == 1 ? kids[0] : c;
		free(kids);
	}
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr ||
	    !is_function_pointer(clang_getCursorType(clang_getCursorReferenced(c))))
		return NULL;
	if (!x->fnlocals.found) {
		clang_visitChildren(x->fnlocals.body, visit, x);
		x->fnlocals.found = 1;
	}
	l = named_local(x, c);
	return l && !l->unknown && l->n > 0 ? l : NULL;
}
