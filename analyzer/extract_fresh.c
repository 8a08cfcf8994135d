/* analyzer/extract_fresh.c — which local pointers hold memory that no
 * other thread can reach yet (fresh from an allocator, and not handed on
 * since), so that the accesses through them are initialisation
 * (",!new," in their uses; dataflow.c, is_new). */
#include "extract_int.h"

#include <stdlib.h>
#include <string.h>

/* Fresh pointers (see struct ectx): N = malloc(...) makes N fresh; the
 * first read of N's value that may hand it on (a store, an argument, a
 * return, a copy) ends it.  In walk order, which is program order except
 * around loops. */
static int fresh_at(struct ectx *x, const char *usr)
{
	for (int i = 0; usr && i < x->nfresh; i++)
		if (strcmp(x->fresh[i], usr) == 0)
			return i;
	return -1;
}

void set_fresh(struct ectx *x, CXCursor var, int on)
{
	CXString s = clang_getCursorUSR(var);
	const char *usr = clang_getCString(s);
	int i = fresh_at(x, usr);

	if (on && i < 0 && usr && *usr) {
		grow(&x->fresh, &x->freshcap, x->nfresh + 1, sizeof *x->fresh);
		x->fresh[x->nfresh++] = xstrdup(usr);
	} else if (!on && i >= 0) {
		free(x->fresh[i]);
		x->fresh[i] = x->fresh[--x->nfresh];
	}
	clang_disposeString(s);
}

int is_fresh(struct ectx *x, CXCursor var)
{
	CXString s = clang_getCursorUSR(var);
	int r = fresh_at(x, clang_getCString(s)) >= 0;

	clang_disposeString(s);
	return r;
}

/* Is VALUE a call of an allocator (memory no other thread can know)? */
int is_allocation(CXCursor value)
{
	static const char *const allocators[] = {
		"malloc", "calloc", "aligned_alloc", "kmalloc", "kzalloc", "kcalloc",
	};
	CXString s;
	int r = 0;

	while (clang_getCursorKind(value) == CXCursor_ParenExpr ||
	       clang_getCursorKind(value) == CXCursor_CStyleCastExpr ||
	       clang_getCursorKind(value) == CXCursor_UnexposedExpr) {
		CXCursor *k;
		int n = children(value, &k);

		if (n == 0) {
			free(k);
			break;
		}
		value = k[n - 1];
		free(k);
	}
	if (clang_getCursorKind(value) != CXCursor_CallExpr)
		return 0;
	s = clang_getCursorSpelling(value);
	for (size_t i = 0; i < sizeof allocators / sizeof allocators[0]; i++)
		if (strcmp(clang_getCString(s), allocators[i]) == 0)
			r = 1;
	clang_disposeString(s);
	return r;
}

/* The local pointer variable that lvalue or pointer C is reached through
 * (n in n->a, n->in.b, n[2], *n, &n[1], (char *)n + 8), or a null cursor. */
CXCursor base_pointer(CXCursor c)
{
	for (int depth = 0; depth < 16; depth++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		CXCursor *kids;
		int n;

		if (k == CXCursor_DeclRefExpr) {
			CXCursor ref = clang_getCursorReferenced(c);

			return clang_getCanonicalType(clang_getCursorType(ref)).kind == CXType_Pointer
				? ref : clang_getNullCursor();
		}
		if (k != CXCursor_MemberRefExpr && k != CXCursor_ArraySubscriptExpr &&
		    k != CXCursor_UnaryOperator && k != CXCursor_ParenExpr &&
		    k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr &&
		    k != CXCursor_BinaryOperator)
			break;
		n = children(c, &kids);
		if (n < 1 || (k == CXCursor_BinaryOperator && n != 2)) {
			free(kids);
			break;
		}
		if (k == CXCursor_BinaryOperator)
			/* p + i, i + p; for address arithmetic done in integers
			 * ((uintptr_t)&map[1] + pad) the left operand */
			c = clang_getCanonicalType(clang_getCursorType(kids[1])).kind == CXType_Pointer
				? kids[1] : kids[0];
		else
			c = k == CXCursor_CStyleCastExpr || k == CXCursor_UnexposedExpr ? kids[n - 1] : kids[0];
		free(kids);
	}
	return clang_getNullCursor();
}

int points_to_fresh(struct ectx *x, CXCursor c)
{
	CXCursor base = base_pointer(c);

	return !clang_Cursor_isNull(base) && is_local(base) && is_fresh(x, base);
}
