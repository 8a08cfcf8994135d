/* analyzer/frontend/extract_owned.c — which local pointers hold memory that
 * this activation allocated itself (r = malloc(...)), for as long as they
 * hold it, whether or not it has been published since.
 *
 * Freshness (extract_fresh.c) ends when the pointer is handed on; ownership
 * does not: a thread that allocates its record and links it into a global
 * list for a scanner still touches the record's private fields through its
 * own pointer, and no other thread touches those fields at all.  The marks
 * ("!own" on an access, "#N=!own" on an argument) let the analysis find the
 * fields that only their owner ever touches (analysis/owned.c, W16 of
 * docs/limitations.md); a field that any access reaches through another
 * pointer (read from the list) is shared as before.
 *
 * Only a direct allocation makes an owner: what a function returns may be
 * shared (a pool, a cache).  A pointer handed to pthread_create goes to
 * the new thread: its creator owns nothing through it afterwards. */
#include "extract_int.h"

#include <stdlib.h>
#include <string.h>

static int owned_at(const struct ectx *x, const char *usr)
{
	for (int i = 0; usr && i < x->owned.n; i++)
		if (strcmp(x->owned.v[i].usr, usr) == 0)
			return i;
	return -1;
}

/* The entry of local VAR in the table, or -1. */
static int owned_entry(const struct ectx *x, CXCursor var)
{
	char *usr = usr_of(var);
	int i = owned_at(x, usr);

	free(usr);
	return i;
}

static void drop(struct ectx *x, int i)
{
	free(x->owned.v[i].usr);
	x->owned.v[i] = x->owned.v[--x->owned.n];
}

void set_owned(struct ectx *x, CXCursor var, CXCursor value, int escaping)
{
	char *usr = usr_of(var), *mark;
	int i = owned_at(x, usr);

	if (i >= 0)
		drop(x, i);
	mark = escaping ? NULL : allocation_mark(x, value);
	/* "!new" exactly: a direct allocator, not a function's result */
	if (usr && mark && dep_text_is(mark, DEP_NEW)) {
		grow(&x->owned.v, &x->owned.cap, x->owned.n + 1, sizeof *x->owned.v);
		/* (the loops around: the continue targets) */
		x->owned.v[x->owned.n++] = (struct owned_local){ usr, x->cfg.ncont };
		usr = NULL;
	}
	free(mark);
	free(usr);
}

/* Is declaration REF an owned local? */
static int is_owned(const struct ectx *x, CXCursor ref)
{
	return !clang_Cursor_isNull(ref) && is_local(ref) && owned_entry(x, ref) >= 0;
}

const char *owned_mark(struct ectx *x, CXCursor c)
{
	return is_owned(x, base_pointer(c)) ? "!own" : NULL;
}

CXCursor owned_value(struct ectx *x, CXCursor value)
{
	CXCursor base = pointer_value_base(x, value);

	return is_owned(x, base) ? base : clang_getNullCursor();
}

int hand_to_thread(struct ectx *x, CXCursor value)
{
	CXCursor base = owned_value(x, value);
	int i = clang_Cursor_isNull(base) ? -1 : owned_entry(x, base), alone;

	if (i < 0)
		return 0;
	/* In a loop around the creation that the allocation is outside of,
	 * the pointer itself goes to every round's thread; an element of it
	 * (&p[i], p + i) is each round's own. */
	alone = x->owned.v[i].loops >= x->cfg.ncont || clang_getCursorKind(strip(value)) != CXCursor_DeclRefExpr;
	drop(x, i);
	return alone;
}

void address_handed_on(struct ectx *x, CXCursor var)
{
	int i = owned_entry(x, var);

	if (i >= 0)
		drop(x, i);
}

void forget_owned(struct ectx *x)
{
	while (x->owned.n)
		drop(x, x->owned.n - 1);
}

void free_owned(struct owned_table *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i].usr);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}
