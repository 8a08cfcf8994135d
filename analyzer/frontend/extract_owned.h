/* analyzer/frontend/extract_owned.h — the local pointers of the function
 * being walked that hold memory this activation allocated itself, for as
 * long as the local holds it, published or not (extract_owned.c). */
#ifndef KCSAN_EXTRACT_OWNED_H
#define KCSAN_EXTRACT_OWNED_H

#include "libclang.h"

struct ectx;

/* An owned local, by USR, and the number of loops around the allocation
 * that made it an owner. */
struct owned_local {
	char *usr;
	int loops;
};

struct owned_table {
	struct owned_local *v;
	int n, cap;
};

/* Local pointer VAR receives VALUE: it owns what it points to when VALUE
 * is a direct allocation (malloc(...)) and VAR's own address never
 * escapes; any other value ends that. */
void set_owned(struct ectx *x, CXCursor var, CXCursor value, int escaping);
/* "!own" when lvalue or pointer C is reached through an owned local (r in
 * r->count, &r->list), else NULL. */
const char *owned_mark(struct ectx *x, CXCursor c);
/* The owned local that pointer value VALUE is or points into (r, (void *)r,
 * &r->f, r + 1: pointer_value_base), or a null cursor. */
CXCursor owned_value(struct ectx *x, CXCursor value);
/* VALUE is handed to a new thread (pthread_create's argument): the local
 * it came from owns nothing from here on; returns 1 when it did own it
 * and the thread gets it alone (not a creation in a loop that the
 * allocation is outside of: every round's thread would get the same). */
int hand_to_thread(struct ectx *x, CXCursor value);
/* The address of local VAR is handed on (&entry passed to a call that
 * may store another pointer in it): VAR owns nothing from here on. */
void address_handed_on(struct ectx *x, CXCursor var);
/* At the start of a function: nothing is owned. */
void forget_owned(struct ectx *x);
void free_owned(struct owned_table *t);

#endif
