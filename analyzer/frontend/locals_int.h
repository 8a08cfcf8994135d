/* analyzer/frontend/locals_int.h — the points-to sets of the locals of the
 * function being walked, shared by the files that build them from its body
 * (extract_locals.c), solve them (locals_solve.c) and answer the front
 * end's questions with them (extract_pointee.c).  The rest of the front
 * end sees only extract_locals.h. */
#ifndef KCSAN_LOCALS_INT_H
#define KCSAN_LOCALS_INT_H

#include "extract_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Atoms: 0 is "other"; 1 + 2i the address of variable i; 2 + 2i the
 * value parameter variable i came in with. */
#define OTHER 0
#define ADDR(i) (1 + 2 * (i))
#define PARAM(i) (2 + 2 * (i))

/* Constraints between nodes A and B (a node is a variable or a value of
 * an expression): A gets what B holds (COPY), what the memory B points to
 * holds (LOAD); the memory A points to gets what B holds (STORE); the
 * addresses A holds escape (ESC); anything may be stored into the memory
 * A points to (CLOBBER: a call given that memory). */
enum { C_COPY, C_LOAD, C_STORE, C_ESC, C_CLOBBER };

struct lvar {
	CXCursor decl;
	unsigned hash;
	char *usr, *name;
	int param;                 /* argument index, or -1 */
};

struct constraint { int kind, a, b; };

struct locals {
	struct lvar *vars;
	int nvars, varcap;
	int words;                 /* 64-bit words per set */
	uint64_t *sets;            /* node n's set at n * words; nodes
				      0 .. nvars-1 are the variables */
	int nnodes, nodecap;
	struct constraint *cs;
	int ncs, cscap;
	unsigned char *esc;        /* per variable: its address escapes */
	int *addr;                 /* per variable: node of its address, or -1 */
	int other;                 /* node holding "other", or -1 */
	uint64_t *query;           /* scratch sets for resolve */
	int nquery;
	int changed;
};

static inline uint64_t *set_of(struct locals *l, int node)
{
	return l->sets + (size_t)node * l->words;
}

static inline int has_bit(const uint64_t *s, int atom)
{
	return (s[atom / 64] >> (atom % 64)) & 1;
}

static inline void set_bit(struct locals *l, int node, int atom)
{
	uint64_t *s = set_of(l, node), bit = 1ull << (atom % 64);

	if (!(s[atom / 64] & bit)) {
		s[atom / 64] |= bit;
		l->changed = 1;
	}
}

static inline CXCursor skip_parens(CXCursor c)
{
	CXCursor *k;
	int n;

	while (clang_getCursorKind(c) == CXCursor_ParenExpr ||
	       (clang_getCursorKind(c) == CXCursor_UnexposedExpr && (n = children(c, &k), free(k), n == 1))) {
		n = children(c, &k);
		c = k[0];
		free(k);
	}
	return c;
}

static inline int is_array(CXCursor c)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));

	return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray;
}

static inline int is_pointer(CXCursor c)
{
	return clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer || is_array(c);
}

/* extract_locals.c */
/* The variable declared by DECL, or -1. */
int locals_find_var(struct locals *l, CXCursor decl);
/* The variable expression C (a DeclRefExpr) names, or -1. */
int locals_var_of(struct locals *l, CXCursor c);

/* locals_solve.c */
/* Calls FN for each atom of set S (WORDS long); stops early when FN
 * returns nonzero, and returns that. */
int locals_each_atom(const uint64_t *s, int words, int (*fn)(void *, int), void *arg);
/* Makes every set hold what the constraints say, and finds the locals
 * whose address escapes. */
void locals_solve(struct locals *l);

#endif
