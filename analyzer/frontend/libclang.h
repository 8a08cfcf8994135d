/*
 * libclang.h — the libclang API as the analyzer calls it: through a table
 * of function pointers filled at the first call (libclang.c), instead of
 * linking libclang into kcsan-scan.
 *
 * Why: libclang pulls in libLLVM, whose relocations take ~25 ms at every
 * start of a program linked with it.  Only `scan` parses C; `run`, `cc`
 * and `report` -- run once per test process or per compiled file -- do
 * not pay for it, and `kcsan-scan run`'s start-up is part of the time to
 * a program's first report.
 *
 * Include this instead of <clang-c/Index.h>.  Every clang_* function the
 * project calls is listed in KCSAN_LIBCLANG_FUNCS and is a macro below for
 * the table's pointer, whose type is that of the header's declaration: the
 * compiler still checks every call.  A function missing from the list is
 * a link error ("undefined reference to clang_..."): add it to both.
 */
#ifndef KCSAN_LIBCLANG_H
#define KCSAN_LIBCLANG_H

#include <clang-c/Index.h>

#define KCSAN_LIBCLANG_FUNCS(X) \
	X(clang_Cursor_Evaluate) \
	X(clang_Cursor_getArgument) \
	X(clang_Cursor_getNumArguments) \
	X(clang_Cursor_getStorageClass) \
	X(clang_Cursor_getVarDeclInitializer) \
	X(clang_Cursor_hasAttrs) \
	X(clang_Cursor_isMacroFunctionLike) \
	X(clang_Cursor_isNull) \
	X(clang_EvalResult_dispose) \
	X(clang_EvalResult_getAsLongLong) \
	X(clang_EvalResult_getKind) \
	X(clang_File_isEqual) \
	X(clang_Location_isInSystemHeader) \
	X(clang_Type_visitFields) \
	X(clang_createIndex) \
	X(clang_defaultDiagnosticDisplayOptions) \
	X(clang_disposeDiagnostic) \
	X(clang_disposeIndex) \
	X(clang_disposeString) \
	X(clang_disposeTokens) \
	X(clang_disposeTranslationUnit) \
	X(clang_equalCursors) \
	X(clang_equalTypes) \
	X(clang_formatDiagnostic) \
	X(clang_getArrayElementType) \
	X(clang_isConstQualifiedType) \
	X(clang_Type_getValueType) \
	X(clang_getTypeDeclaration) \
	X(clang_getArraySize) \
	X(clang_getCString) \
	X(clang_getCanonicalType) \
	X(clang_getCursorDefinition) \
	X(clang_getCursorExtent) \
	X(clang_getCursorKind) \
	X(clang_getCursorLinkage) \
	X(clang_getCursorLocation) \
	X(clang_getCursorPrettyPrinted) \
	X(clang_getCursorReferenced) \
	X(clang_getCursorSemanticParent) \
	X(clang_getCursorSpelling) \
	X(clang_getCursorTLSKind) \
	X(clang_getCursorType) \
	X(clang_getCursorUSR) \
	X(clang_getDiagnostic) \
	X(clang_getDiagnosticSeverity) \
	X(clang_getFileContents) \
	X(clang_getFileLocation) \
	X(clang_getFileName) \
	X(clang_getInclusions) \
	X(clang_getLocationForOffset) \
	X(clang_getNullCursor) \
	X(clang_getNumDiagnostics) \
	X(clang_getPointeeType) \
	X(clang_getRange) \
	X(clang_getRangeEnd) \
	X(clang_getRangeStart) \
	X(clang_getSpellingLocation) \
	X(clang_getTokenKind) \
	X(clang_getTokenLocation) \
	X(clang_getTokenSpelling) \
	X(clang_getTranslationUnitCursor) \
	X(clang_getTypeSpelling) \
	X(clang_getTypedefDeclUnderlyingType) \
	X(clang_hashCursor) \
	X(clang_isCursorDefinition) \
	X(clang_isExpression) \
	X(clang_isStatement) \
	X(clang_isVolatileQualifiedType) \
	X(clang_parseTranslationUnit2) \
	X(clang_tokenize) \
	X(clang_visitChildren)

/* The table: clang_X's pointer is member clang_X_fn. */
struct kcsan_libclang {
#define KCSAN_LIBCLANG_MEMBER(f) __typeof__(f) *f##_fn;
	KCSAN_LIBCLANG_FUNCS(KCSAN_LIBCLANG_MEMBER)
#undef KCSAN_LIBCLANG_MEMBER
};

extern struct kcsan_libclang kcsan_libclang_table;
extern int kcsan_libclang_loaded;

/* Loads libclang and fills the table, once (thread-safe); on failure
 * prints why and exits with status 2: nothing can be parsed without it. */
void kcsan_libclang_load(void);

static inline struct kcsan_libclang *kcsan_libclang(void)
{
	if (__builtin_expect(!__atomic_load_n(&kcsan_libclang_loaded, __ATOMIC_ACQUIRE), 0))
		kcsan_libclang_load();
	return &kcsan_libclang_table;
}

#define clang_Cursor_Evaluate (*kcsan_libclang()->clang_Cursor_Evaluate_fn)
#define clang_Cursor_getArgument (*kcsan_libclang()->clang_Cursor_getArgument_fn)
#define clang_Cursor_getNumArguments (*kcsan_libclang()->clang_Cursor_getNumArguments_fn)
#define clang_Cursor_getStorageClass (*kcsan_libclang()->clang_Cursor_getStorageClass_fn)
#define clang_Cursor_getVarDeclInitializer (*kcsan_libclang()->clang_Cursor_getVarDeclInitializer_fn)
#define clang_Cursor_hasAttrs (*kcsan_libclang()->clang_Cursor_hasAttrs_fn)
#define clang_Cursor_isMacroFunctionLike (*kcsan_libclang()->clang_Cursor_isMacroFunctionLike_fn)
#define clang_Cursor_isNull (*kcsan_libclang()->clang_Cursor_isNull_fn)
#define clang_EvalResult_dispose (*kcsan_libclang()->clang_EvalResult_dispose_fn)
#define clang_EvalResult_getAsLongLong (*kcsan_libclang()->clang_EvalResult_getAsLongLong_fn)
#define clang_EvalResult_getKind (*kcsan_libclang()->clang_EvalResult_getKind_fn)
#define clang_File_isEqual (*kcsan_libclang()->clang_File_isEqual_fn)
#define clang_Location_isInSystemHeader (*kcsan_libclang()->clang_Location_isInSystemHeader_fn)
#define clang_Type_visitFields (*kcsan_libclang()->clang_Type_visitFields_fn)
#define clang_createIndex (*kcsan_libclang()->clang_createIndex_fn)
#define clang_defaultDiagnosticDisplayOptions (*kcsan_libclang()->clang_defaultDiagnosticDisplayOptions_fn)
#define clang_disposeDiagnostic (*kcsan_libclang()->clang_disposeDiagnostic_fn)
#define clang_disposeIndex (*kcsan_libclang()->clang_disposeIndex_fn)
#define clang_disposeString (*kcsan_libclang()->clang_disposeString_fn)
#define clang_disposeTokens (*kcsan_libclang()->clang_disposeTokens_fn)
#define clang_disposeTranslationUnit (*kcsan_libclang()->clang_disposeTranslationUnit_fn)
#define clang_equalCursors (*kcsan_libclang()->clang_equalCursors_fn)
#define clang_equalTypes (*kcsan_libclang()->clang_equalTypes_fn)
#define clang_formatDiagnostic (*kcsan_libclang()->clang_formatDiagnostic_fn)
#define clang_getCString (*kcsan_libclang()->clang_getCString_fn)
#define clang_getCanonicalType (*kcsan_libclang()->clang_getCanonicalType_fn)
#define clang_getCursorDefinition (*kcsan_libclang()->clang_getCursorDefinition_fn)
#define clang_getCursorExtent (*kcsan_libclang()->clang_getCursorExtent_fn)
#define clang_getCursorKind (*kcsan_libclang()->clang_getCursorKind_fn)
#define clang_getCursorLinkage (*kcsan_libclang()->clang_getCursorLinkage_fn)
#define clang_getCursorLocation (*kcsan_libclang()->clang_getCursorLocation_fn)
#define clang_getCursorPrettyPrinted (*kcsan_libclang()->clang_getCursorPrettyPrinted_fn)
#define clang_getCursorReferenced (*kcsan_libclang()->clang_getCursorReferenced_fn)
#define clang_getCursorSemanticParent (*kcsan_libclang()->clang_getCursorSemanticParent_fn)
#define clang_getCursorSpelling (*kcsan_libclang()->clang_getCursorSpelling_fn)
#define clang_getCursorTLSKind (*kcsan_libclang()->clang_getCursorTLSKind_fn)
#define clang_getCursorType (*kcsan_libclang()->clang_getCursorType_fn)
#define clang_getCursorUSR (*kcsan_libclang()->clang_getCursorUSR_fn)
#define clang_getDiagnostic (*kcsan_libclang()->clang_getDiagnostic_fn)
#define clang_getDiagnosticSeverity (*kcsan_libclang()->clang_getDiagnosticSeverity_fn)
#define clang_getFileContents (*kcsan_libclang()->clang_getFileContents_fn)
#define clang_getFileLocation (*kcsan_libclang()->clang_getFileLocation_fn)
#define clang_getFileName (*kcsan_libclang()->clang_getFileName_fn)
#define clang_getInclusions (*kcsan_libclang()->clang_getInclusions_fn)
#define clang_getLocationForOffset (*kcsan_libclang()->clang_getLocationForOffset_fn)
#define clang_getNullCursor (*kcsan_libclang()->clang_getNullCursor_fn)
#define clang_getNumDiagnostics (*kcsan_libclang()->clang_getNumDiagnostics_fn)
#define clang_getPointeeType (*kcsan_libclang()->clang_getPointeeType_fn)
#define clang_getArrayElementType (*kcsan_libclang()->clang_getArrayElementType_fn)
#define clang_isConstQualifiedType (*kcsan_libclang()->clang_isConstQualifiedType_fn)
#define clang_Type_getValueType (*kcsan_libclang()->clang_Type_getValueType_fn)
#define clang_getTypeDeclaration (*kcsan_libclang()->clang_getTypeDeclaration_fn)
#define clang_getArraySize (*kcsan_libclang()->clang_getArraySize_fn)
#define clang_getRange (*kcsan_libclang()->clang_getRange_fn)
#define clang_getRangeEnd (*kcsan_libclang()->clang_getRangeEnd_fn)
#define clang_getRangeStart (*kcsan_libclang()->clang_getRangeStart_fn)
#define clang_getSpellingLocation (*kcsan_libclang()->clang_getSpellingLocation_fn)
#define clang_getTokenKind (*kcsan_libclang()->clang_getTokenKind_fn)
#define clang_getTokenLocation (*kcsan_libclang()->clang_getTokenLocation_fn)
#define clang_getTokenSpelling (*kcsan_libclang()->clang_getTokenSpelling_fn)
#define clang_getTranslationUnitCursor (*kcsan_libclang()->clang_getTranslationUnitCursor_fn)
#define clang_getTypeSpelling (*kcsan_libclang()->clang_getTypeSpelling_fn)
#define clang_hashCursor (*kcsan_libclang()->clang_hashCursor_fn)
#define clang_isCursorDefinition (*kcsan_libclang()->clang_isCursorDefinition_fn)
#define clang_isExpression (*kcsan_libclang()->clang_isExpression_fn)
#define clang_isStatement (*kcsan_libclang()->clang_isStatement_fn)
#define clang_getTypedefDeclUnderlyingType (*kcsan_libclang()->clang_getTypedefDeclUnderlyingType_fn)
#define clang_isVolatileQualifiedType (*kcsan_libclang()->clang_isVolatileQualifiedType_fn)
#define clang_parseTranslationUnit2 (*kcsan_libclang()->clang_parseTranslationUnit2_fn)
#define clang_tokenize (*kcsan_libclang()->clang_tokenize_fn)
#define clang_visitChildren (*kcsan_libclang()->clang_visitChildren_fn)

#endif /* KCSAN_LIBCLANG_H */
