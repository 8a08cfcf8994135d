/* analyzer/frontend/extract_uneval.c — operands that are never evaluated, so that
 * they are not taken for accesses: the type operand of __builtin_offsetof
 * (container_of(ptr, __typeof__(*pos), member) names the type through an
 * expression), the type of a compound literal, the controlling expression
 * and the associations _Generic does not select, and the operand of
 * __builtin_constant_p.  (sizeof and _Alignof, casts to __typeof__ types and
 * declarations of __typeof__ type are handled where they are walked.) */
#include "extract_int.h"
#include "extract_uneval.h"

#include <string.h>

int unevaluated_call(CXCursor call)
{
	CXString s = clang_getCursorSpelling(call);
	const char *name = clang_getCString(s);
	int r = name && (strcmp(name, "__builtin_constant_p") == 0 ||
			 strcmp(name, "__builtin_object_size") == 0 ||
			 strcmp(name, "__builtin_dynamic_object_size") == 0);

	clang_disposeString(s);
	return r;
}

static int same_type(CXCursor a, CXCursor b)
{
	return clang_equalTypes(clang_getCanonicalType(clang_getCursorType(a)),
				clang_getCanonicalType(clang_getCursorType(b)));
}

int evaluated_operands(CXCursor c, CXCursor *kids, int n, unsigned char *walk)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	int member = -1;

	if (k == CXCursor_CompoundLiteralExpr) {
		/* (T){ ... }: only the initialiser, the last child */
		for (int i = 0; i < n; i++)
			walk[i] = i == n - 1;
		return 1;
	}
	if (k == CXCursor_GenericSelectionExpr) {
		/* The controlling expression (the first child) is not evaluated,
		 * and only the selected association is.  libclang does not say
		 * which one that is: the associations of the result's type are
		 * walked (several when they share that type). */
		for (int i = 0; i < n; i++)
			walk[i] = i > 0 && clang_isExpression(clang_getCursorKind(kids[i])) && same_type(kids[i], c);
		return 1;
	}
	if (k != CXCursor_UnexposedExpr ||
	    clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Void)
		return 0;
	/* __builtin_offsetof(T, a.b[i]): libclang 14 shows an UnexposedExpr
	 * whose children are T's TypeRef or, for __typeof__(expr), that
	 * expression, then the field designators (MemberRef) and the index
	 * expressions, which alone are evaluated.  (A designated initialiser,
	 * the other UnexposedExpr with MemberRef children, has type void.) */
	for (int i = 0; i < n && member < 0; i++)
		if (clang_getCursorKind(kids[i]) == CXCursor_MemberRef)
			member = i;
	if (member < 0)
		return 0;
	for (int i = 0; i < n; i++)
		walk[i] = i > member && clang_isExpression(clang_getCursorKind(kids[i]));
	return 1;
}
