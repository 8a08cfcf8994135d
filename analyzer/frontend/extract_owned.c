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
		if (strcmp(x->owned.usr[i], usr) == 0)
			return i;
	return -1;
}

static void drop(struct ectx *x, int i)
{
	free(x->owned.usr[i]);
	x->owned.n--;
	x->owned.usr[i] = x->owned.usr[x->owned.n];
	x->owned.loops[i] = x->owned.loops[x->owned.n];
}

void set_owned(struct ectx *x, CXCursor var, CXCursor value, int escaping)
{
	char *usr = usr_of(var), *mark;
	int i = owned_at(x, usr);

	if (i >= 0)
		drop(x, i);
	mark = escaping ? NULL : allocation_mark(value);
	/* "!new" exactly: a direct allocator, not a function's result */
	if (usr && mark && dep_text_is(mark, DEP_NEW)) {
		grow(&x->owned.usr, &x->owned.cap, x->owned.n + 1, sizeof *x->owned.usr);
		grow(&x->owned.loops, &x->owned.loopcap, x->owned.n + 1, sizeof *x->owned.loops);
		x->owned.loops[x->owned.n] = x->cfg.ncont;   /* (loops around: continue targets) */
		x->owned.usr[x->owned.n++] = usr;
		usr = NULL;
	}
	free(mark);
	free(usr);
}

/* Is declaration REF an owned local? */
static int is_owned(const struct ectx *x, CXCursor ref)
{
	char *usr;
	int r;

	if (clang_Cursor_isNull(ref) || !is_local(ref))
		return 0;
	usr = usr_of(ref);
	r = owned_at(x, usr) >= 0;
	free(usr);
	return r;
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
	char *usr;
	int i, alone = 0;

	if (clang_Cursor_isNull(base))
		return 0;
	usr = usr_of(base);
	/* In a loop around the creation that the allocation is outside of,
	 * the pointer itself goes to every round's thread; an element of it
	 * (&p[i], p + i) is each round's own. */
	if ((i = owned_at(x, usr)) >= 0) {
		alone = x->owned.loops[i] >= x->cfg.ncont ||
			clang_getCursorKind(strip(value)) != CXCursor_DeclRefExpr;
		drop(x, i);
	}
	free(usr);
	return alone;
}

void address_handed_on(struct ectx *x, CXCursor var)
{
	char *usr = usr_of(var);
	int i = owned_at(x, usr);

	if (i >= 0)
		drop(x, i);
	free(usr);
}

void forget_owned(struct ectx *x)
{
	while (x->owned.n)
		drop(x, x->owned.n - 1);
}

void free_owned(struct owned_table *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->usr[i]);
	free(t->usr);
	free(t->loops);
	t->usr = NULL;
	t->loops = NULL;
	t->n = t->cap = t->loopcap = 0;
}
