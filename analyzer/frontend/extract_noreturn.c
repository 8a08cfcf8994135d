/* analyzer/frontend/extract_noreturn.c — calls that never return: exit, abort,
 * __builtin_unreachable, __assert_fail, pthread_exit and any function
 * declared noreturn.  The control-flow graph ends its path at such a call
 * (extract_expr.c, walk_call): what follows it is unreachable, and the
 * path does not reach the function's exit either.  (A function of the tree
 * whose every path ends so is known only to the analysis, which reads it
 * from the function's summary: dataflow.c, apply_call.) */
#include "extract_int.h"
#include "extract_noreturn.h"

#include <stdlib.h>
#include <string.h>

/* Declared noreturn in glibc anyway (the attribute is what is checked
 * first); named for headers that do not say so. */
static const char *const known[] = {
	"exit", "_exit", "_Exit", "quick_exit", "abort", "__builtin_unreachable", "__builtin_trap",
	"__assert_fail", "__assert_perror_fail", "pthread_exit",
};

/* C11 _Noreturn and [[noreturn]] are declaration attributes, which
 * libclang shows only as unexposed attributes: their tokens tell. */
static int has_noreturn_attribute(struct ectx *x, CXCursor fn)
{
	return has_attribute_token(x, fn, "noreturn");
}

int never_returns(struct ectx *x, CXCursor call)
{
	CXCursor fn = clang_getCursorReferenced(call);
	CXString s;
	int r = 0;

	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return 0;                 /* a call through a pointer */
	s = clang_getCursorSpelling(fn);
	for (size_t i = 0; i < sizeof known / sizeof known[0] && !r; i++)
		r = strcmp(clang_getCString(s), known[i]) == 0;
	clang_disposeString(s);
	if (!r) {
		/* __attribute__((noreturn)), glibc's way, is part of the
		 * function's type */
		s = clang_getTypeSpelling(clang_getCursorType(fn));
		r = strstr(clang_getCString(s), "__attribute__((noreturn))") != NULL;
		clang_disposeString(s);
	}
	return r || has_noreturn_attribute(x, fn);
}
