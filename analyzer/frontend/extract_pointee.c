/* analyzer/frontend/extract_pointee.c — the front end's questions about the locals
 * of the function being walked, once their points-to sets are solved
 * (locals_int.h): does a local escape, does a pointer expression point
 * only into private locals (and which).  A
 * question names an expression, whose set is rebuilt from the sets of the
 * variables it reads; shapes that name no object are "other". */
#include "locals_int.h"

int local_escapes(struct ectx *x, const char *usr)
{
	struct locals *l = x->locals;

	for (int i = 0; l && usr && i < l->nvars; i++)
		if (strcmp(l->vars[i].usr, usr) == 0)
			return l->esc[i];
	return 0;
}

/* Query sets, one per depth of nesting (they move when they grow: always
 * found again through this). */
static uint64_t *qset(struct locals *l, int depth)
{
	return l->query + (size_t)depth * l->words;
}

static void qclear(struct locals *l, int depth)
{
	if (depth >= l->nquery) {
		l->query = xrealloc(l->query, (size_t)(depth + 1) * l->words * sizeof *l->query);
		l->nquery = depth + 1;
	}
	memset(qset(l, depth), 0, l->words * sizeof *l->query);
}

static void qadd(struct locals *l, int depth, int atom)
{
	qset(l, depth)[atom / 64] |= 1ull << (atom % 64);
}

struct gather { struct locals *l; int depth; };

/* Atom ATOM of a pointer: what the memory there holds goes to the set. */
static int gather_contents(void *arg, int atom)
{
	struct gather *g = arg;
	uint64_t *into = qset(g->l, g->depth);

	if (atom == OTHER || atom % 2 == 0) {
		into[0] |= 1;                /* a global's, the caller's memory */
	} else {
		const uint64_t *held = set_of(g->l, (atom - 1) / 2);

		for (int w = 0; w < g->l->words; w++)
			into[w] |= held[w];
	}
	return 0;
}

static void resolve(struct ectx *x, CXCursor c, int depth);
static void resolve_address(struct ectx *x, CXCursor c, int depth);

/* Set DEPTH gets what the memory that lvalue C designates holds. */
static void resolve_contents(struct ectx *x, CXCursor c, int depth, int lvalue)
{
	struct gather g = { x->locals, depth };

	qclear(x->locals, depth + 1);
	if (lvalue)
		resolve_address(x, c, depth + 1);
	else
		resolve(x, c, depth + 1);
	locals_each_atom(qset(x->locals, depth + 1), x->locals->words, gather_contents, &g);
}

/* Set DEPTH gets the addresses lvalue C may designate. */
static void resolve_address(struct ectx *x, CXCursor c, int depth);

static void resolve_address_in(struct ectx *x, CXCursor c, int depth)
{
	struct locals *l = x->locals;
	CXCursor *k;
	int n, v;
	char op[8];

	c = skip_parens(c);
	n = children(c, &k);
	switch (clang_getCursorKind(c)) {
	case CXCursor_DeclRefExpr:
		v = locals_var_of(l, c);
		qadd(l, depth, v >= 0 ? ADDR(v) : OTHER);
		break;
	case CXCursor_MemberRefExpr:
		if (n >= 1 && clang_getCanonicalType(clang_getCursorType(k[0])).kind == CXType_Pointer)
			resolve(x, k[0], depth);
		else if (n >= 1)
			resolve_address(x, k[0], depth);
		else
			qadd(l, depth, OTHER);
		break;
	case CXCursor_ArraySubscriptExpr:
		if (n == 2 && is_array(skip_parens(k[0])))
			resolve_address(x, skip_parens(k[0]), depth);
		else if (n == 2)
			resolve(x, k[0], depth);
		else
			qadd(l, depth, OTHER);
		break;
	case CXCursor_UnaryOperator:
		operator_of(x, c, k, n, op, sizeof op);
		if (n == 1 && strcmp(op, "*") == 0) {
			resolve(x, k[0], depth);
			break;
		}
		/* fall through */
	default:
		qadd(l, depth, OTHER);
		break;
	}
	free(k);
}

/* resolve_address, one level deeper (extract_int.h, nest_enter). */
static void resolve_address(struct ectx *x, CXCursor c, int depth)
{
	if (nest_enter(x))
		resolve_address_in(x, c, depth);
	nest_leave(x);
}

/* Adds to set DEPTH what pointer expression C may point to.  Only the
 * shapes that name an object (&v, v, p, &p->f, p + i, c ? p : q, m.ptr,
 * *pp); any other value is "other". */
static void resolve(struct ectx *x, CXCursor c, int depth);

static void resolve_in(struct ectx *x, CXCursor c, int depth)
{
	struct locals *l = x->locals;
	CXCursor *k;
	int n, v;
	char op[8];

	for (;;) {                           /* casts and parentheses */
		enum CXCursorKind kind = clang_getCursorKind(c);

		if (kind != CXCursor_ParenExpr && kind != CXCursor_CStyleCastExpr &&
		    kind != CXCursor_UnexposedExpr)
			break;
		n = children(c, &k);
		if (n == 0 || (kind == CXCursor_UnexposedExpr && n != 1) ||
		    !clang_isExpression(clang_getCursorKind(k[n - 1]))) {
			free(k);
			qadd(l, depth, OTHER);
			return;
		}
		c = k[n - 1];
		free(k);
	}
	n = children(c, &k);
	switch (clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral:        /* NULL */
	case CXCursor_GNUNullExpr:
		break;
	case CXCursor_DeclRefExpr:
		v = locals_var_of(l, c);
		if (v >= 0 && is_array(c))
			qadd(l, depth, ADDR(v));
		else if (v >= 0)
			for (int w = 0; w < l->words; w++)
				qset(l, depth)[w] |= set_of(l, v)[w];
		else
			qadd(l, depth, OTHER);
		break;
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr:
		if (is_array(c))
			resolve_address(x, c, depth);
		else
			resolve_contents(x, c, depth, 1);
		break;
	case CXCursor_UnaryOperator:
		operator_of(x, c, k, n, op, sizeof op);
		if (n == 1 && strcmp(op, "&") == 0)
			resolve_address(x, k[0], depth);
		else if (n == 1 && strcmp(op, "*") == 0 && is_array(c))
			resolve(x, k[0], depth);
		else if (n == 1 && strcmp(op, "*") == 0)
			resolve_contents(x, k[0], depth, 0);
		else
			qadd(l, depth, OTHER);
		break;
	case CXCursor_BinaryOperator:           /* p + i, (a, p) */
		operator_of(x, c, k, n, op, sizeof op);
		if (n == 2 && strcmp(op, ",") == 0)
			resolve(x, k[1], depth);
		else if (n == 2 && (strcmp(op, "+") == 0 || strcmp(op, "-") == 0) && is_pointer(k[0]))
			resolve(x, k[0], depth);
		else if (n == 2 && strcmp(op, "+") == 0 && is_pointer(k[1]))
			resolve(x, k[1], depth);
		else
			qadd(l, depth, OTHER);
		break;
	case CXCursor_ConditionalOperator:
		if (n == 3) {
			resolve(x, k[1], depth);
			resolve(x, k[2], depth);
		} else {
			qadd(l, depth, OTHER);
		}
		break;
	default:
		qadd(l, depth, OTHER);
		break;
	}
	free(k);
}

/* resolve, one level deeper (extract_int.h, nest_enter). */
static void resolve(struct ectx *x, CXCursor c, int depth)
{
	if (nest_enter(x))
		resolve_in(x, c, depth);
	nest_leave(x);
}

/* Does set S hold no "other", no parameter's value and no address of a
 * local that escapes?  Returns the first local whose address it holds, or
 * -1 (also for an empty set: a null pointer is no local). */
static int private_in(struct locals *l, const uint64_t *s)
{
	int first = -1;

	if (has_bit(s, OTHER))
		return -1;
	for (int i = 0; i < l->nvars; i++) {
		if (has_bit(s, PARAM(i)) || (has_bit(s, ADDR(i)) && l->esc[i]))
			return -1;
		if (has_bit(s, ADDR(i)) && first < 0)
			first = i;
	}
	return first;
}

char *private_pointee(struct ectx *x, CXCursor c)
{
	struct locals *l = x->locals;
	int v;

	if (!l || !clang_isExpression(clang_getCursorKind(c)))
		return NULL;
	qclear(l, 0);
	resolve(x, c, 0);
	v = private_in(l, qset(l, 0));
	return v < 0 ? NULL : xasprintf("l:%s:%s", x->fn->link_key, l->vars[v].name);
}

int private_lvalue(struct ectx *x, CXCursor c)
{
	struct locals *l = x->locals;

	if (!l || !clang_isExpression(clang_getCursorKind(c)))
		return 0;
	qclear(l, 0);
	resolve_address(x, c, 0);
	return private_in(l, qset(l, 0)) >= 0;
}
