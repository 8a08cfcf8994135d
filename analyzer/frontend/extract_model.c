/* analyzer/frontend/extract_model.c — which memory model a translation
 * unit's volatile accesses follow.
 *
 * The analysis follows the Linux-kernel memory model, in which a volatile
 * access is a marked one: READ_ONCE() and WRITE_ONCE() are volatile
 * accesses, and kernel-style code (liburcu's CMM_LOAD_SHARED, CK's
 * ck_pr_md_load, DPDK's volatile ring indexes) marks its shared accesses
 * that way on purpose.
 *
 * C11 says otherwise: volatile makes no access atomic, and two conflicting
 * volatile accesses from two threads are a data race.  A code base that
 * declares C11 atomic objects has taken C11's object model: it marks a
 * shared object by declaring it _Atomic, and an object it declares
 * volatile beside them is not marked (mimalloc's volatile function
 * pointers, fixed by making them atomics, next to their _Atomic
 * arguments).  So in a translation unit that declares C11 atomics
 * (_Atomic objects, fields or typedefs, which <stdatomic.h> brings too),
 * an object declared volatile is plain.
 *
 * A volatile cast stays marked in every TU: *(volatile T *)&x marks one
 * access, on purpose, in the way the compilers and ThreadSanitizer
 * (-tsan-distinguish-volatile) treat as marked. */
#include "extract_int.h"
#include "extract_model.h"

static int is_atomic_type(CXType t)
{
	while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		t = clang_getArrayElementType(t);
	return t.kind == CXType_Atomic || clang_getCanonicalType(t).kind == CXType_Atomic;
}

/* Visitor over a struct or union: a field of atomic type, in it or in a
 * struct or union nested in it, sets *D. */
static enum CXChildVisitResult atomic_field(CXCursor c, CXCursor parent, CXClientData d)
{
	int *found = d;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_FieldDecl && is_atomic_type(clang_getCursorType(c))) {
		*found = 1;
		return CXChildVisit_Break;
	}
	return k == CXCursor_StructDecl || k == CXCursor_UnionDecl
		? CXChildVisit_Recurse : CXChildVisit_Continue;
}

int declares_c11_atomic(CXCursor c)
{
	int found = 0;

	switch (clang_getCursorKind(c)) {
	case CXCursor_VarDecl:
		return is_atomic_type(clang_getCursorType(c));
	case CXCursor_TypedefDecl:
		return is_atomic_type(clang_getTypedefDeclUnderlyingType(c));
	case CXCursor_StructDecl:
	case CXCursor_UnionDecl:
		clang_visitChildren(c, atomic_field, &found);
		return found;
	default:
		return 0;
	}
}

/* The pointer operand of a dereference, member access through -> or
 * subscript, without parentheses (but not without casts). */
static CXCursor dereferenced_pointer(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor base = clang_getNullCursor();

	if (k == CXCursor_UnaryOperator || k == CXCursor_MemberRefExpr ||
	    k == CXCursor_ArraySubscriptExpr)
		base = first_child(c);
	while (!clang_Cursor_isNull(base) &&
	       (clang_getCursorKind(base) == CXCursor_ParenExpr ||
		/* implicit conversions (array to pointer) are unexposed */
		clang_getCursorKind(base) == CXCursor_UnexposedExpr))
		base = first_child(base);
	return base;
}

int is_volatile_cast_access(CXCursor c)
{
	CXCursor p = dereferenced_pointer(c);
	CXType t;

	if (clang_Cursor_isNull(p) || clang_getCursorKind(p) != CXCursor_CStyleCastExpr)
		return 0;
	t = clang_getCanonicalType(clang_getCursorType(p));
	return t.kind == CXType_Pointer && clang_isVolatileQualifiedType(clang_getPointeeType(t));
}
