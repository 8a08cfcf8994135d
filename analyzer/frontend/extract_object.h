/* analyzer/frontend/extract_object.h — the shared object an lvalue
 * designates or a pointer points to (extract_object.c), how an expression
 * is shown, and the local pointers that stand for one object. */
#ifndef KCSAN_EXTRACT_OBJECT_H
#define KCSAN_EXTRACT_OBJECT_H

#include "libclang.h"

struct ectx;

/* Local pointers that always point into one object (int *slot = &buf[i]),
 * by USR; TARGET is NULL once a second object was seen. */
struct alias {
	char *usr, *target;
};

struct alias_table {
	struct alias *v;
	int n, cap;
};

/* The object that lvalue C designates, or NULL when it is not shared (a
 * local) or not known. */
char *object_of_lvalue(struct ectx *x, CXCursor c);
/* The object a pointer-valued expression C points to, or NULL. */
char *object_of_pointer(struct ectx *x, CXCursor c);
/* The function that expression C names (f or &f), as a link key, or NULL. */
char *function_named(CXCursor c);
/* The target of pointer parameter REF of the function being walked, as
 * "p:LINKKEY:N", or NULL if REF is no parameter. */
char *parameter_target(struct ectx *x, CXCursor ref);
/* "!type:T" (items.h) for a marked write or compare-and-swap whose object
 * OBJECT is what a pointer parameter points to ("p:KEY:N"), C being the
 * lvalue written (LVALUE) or the pointer to it: T is the type of the
 * object as declared, without qualifiers.  NULL for another object. */
char *param_pointee_type_item(const char *object, CXCursor c, int lvalue);
/* The number of parameter REF of the function being walked, or -1 when
 * REF is not one of its parameters. */
int parameter_number(struct ectx *x, CXCursor ref);
/* Is REF (a declaration) a variable local to the function being walked
 * (a parameter, or an automatic variable)? */
int is_local(CXCursor ref);

/* Local pointer USR now points into TARGET (taken; NULL: unknown). */
void note_alias(struct ectx *x, const char *usr, char *target);
/* At the start of a function: no aliases. */
void forget_aliases(struct ectx *x);
void free_aliases(struct alias_table *t);

/* How C is shown to the user: its text, or its AST printed as C. */
char *display_text(struct ectx *x, CXCursor c);

/* Small helpers of the walk over cursors. */
CXCursor first_child(CXCursor c);
/* C without parentheses and casts (implicit ones are UnexposedExpr). */
CXCursor strip(CXCursor c);
char *usr_of(CXCursor c);          /* NULL when empty */
char *spelling_of(CXCursor c);
int is_array_type(CXType t);
/* The fields of struct or union type T, in order, into OUT (emptied
 * first; none for another type).  The caller frees out->v. */
struct fields { CXCursor *v; int n, cap; };
void record_fields(CXType t, struct fields *out);
/* Is T sig_atomic_t (through its spelling: a typedef of int)?  volatile
 * sig_atomic_t talks to a signal handler of the same thread, not to other
 * threads: such accesses are neither data nor flags, and such a member
 * says nothing of sharing. */
int is_signal_flag(CXType t);
/* Has struct or union T a member that is an atomic: a scalar declared
 * _Atomic or volatile (but volatile sig_atomic_t), an array of them, or a
 * wrapper whose members are all atomics (rte_atomic16_t; an array of
 * per-lcore { rte_atomic16_t v; })?  Its author made T for threads to
 * share.  (A member that is a struct with some atomic inside, beside other
 * fields, says that of the member's type, not of T.) */
int has_atomic_member(struct ectx *x, CXType t);

/* The objects a copy of a struct or union accesses, each with how it is
 * shown (the caller frees both strings and the array). */
struct copied {
	struct { char *object, *display; } *v;
	int n, cap;
};

/* Appends to OUT the fields of record type T, shown as BASE, then SEP,
 * then the field's name (cfg.rate, p->rate, p->in.lo), nested records
 * field by field; DEPTH is how deep T already is (1 for a copy's
 * outermost record). */
void copied_fields(CXType t, const char *base, const char *sep, int depth, struct copied *out);

#endif
