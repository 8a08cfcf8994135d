/* analyzer/frontend/extract_compare.c — the values that decide whether a
 * write publishes anything to a reader: the constant a marked write stores
 * ("~%V" in its uses), the comparison of a marked read's value with a
 * constant that a branch makes ("^SoV:SOURCE" on the branch's test event),
 * and the constant a compare-and-swap expects ("=%V": a lock word's take,
 * findings/lockword.c); items.h has the grammar.
 *
 * A flag written with a sentinel (mp_fd = -1 when the channel closes, a
 * lock word set to 1 by the CAS that takes the lock) publishes nothing to
 * a reader that goes on to the data only on other values (while ((fd =
 * load(&mp_fd)) >= 0) use(fd); a CAS that waits for 0): that reader never
 * acts on what the sentinel write carries.  analysis/valuetests.c and
 * findings/pairing.c use both halves; here they are only written down, and
 * only where the value is certain:
 *
 *   - a constant stored: the value argument of a primitive (profile key
 *     val=N) or the right side of an assignment to a volatile or _Atomic
 *     lvalue, when it is an integer constant expression, an enumerator or
 *     a null pointer;
 *   - a comparison: the whole condition is E o C, C o E, !E or E (C a
 *     constant, o one of == != < > <= >=), and E's value is that of one
 *     marked read: E is the read itself (its event is the last access or
 *     call of the condition, and E is no arithmetic), an assignment of
 *     one to a local, or a local whose every definition in the function
 *     is a copy of a read (which one the test sees is the analysis' to
 *     say: a local assigned twice may hold either value). */
#include "extract_int.h"
#include "extract_compare.h"
#include "extract_guards.h"
#include "extract_fresh.h"
#include "extract_object.h"
#include "extract_text.h"
#include "extract_expr.h"

#include <stdlib.h>
#include <string.h>

/* Parentheses, casts, __extension__ and __builtin_expect around C (an
 * implicit cast is an UnexposedExpr of one child; an atomic builtin is one
 * of several, and is kept; READ_ONCE is (__extension__ ({ ... })), whose
 * operator extract_text.c names "__ext"; likely(E) is
 * __builtin_expect(E, 1), whose value is E's). */
static CXCursor strip_value(struct ectx *x, CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		CXCursor *kids;
		char op[16] = "";
		int n;

		if (k == CXCursor_CallExpr && is_expect_call(c)) {
			n = children(c, &kids);
			if (n < 2) {
				free(kids);
				return c;
			}
			c = kids[1];     /* (kids[0] is the callee) */
			free(kids);
			continue;
		}
		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr &&
		    k != CXCursor_UnaryOperator)
			return c;
		n = children(c, &kids);
		if (k == CXCursor_UnaryOperator)
			operator_of(x, c, kids, n, op, sizeof op);
		if (n == 0 || (k == CXCursor_UnexposedExpr && n != 1) ||
		    (k == CXCursor_UnaryOperator && strcmp(op, "__ext") != 0)) {
			free(kids);
			return c;
		}
		c = kids[n - 1];   /* a cast's first child may be its TypeRef */
		free(kids);
	}
}

/* The constant C stands for (an integer constant expression, an
 * enumerator, a null pointer) in *V: 1, or 0 when it is none. */
static int constant_of(CXCursor c, long long *v)
{
	if (is_null_constant(c)) {
		*v = 0;
		return 1;
	}
	return integer_constant(c, v);
}

char *stored_constant_item(CXCursor value)
{
	long long v;

	return constant_of(value, &v) ? xasprintf("~%%%lld", v) : NULL;
}

/* Is C (stripped) an expression whose value is what one read of memory
 * returned: a call (a primitive, an atomic builtin), a dereference (a
 * READ_ONCE expansion), a variable, a field, an element, a statement
 * expression (a macro's ({ ... }))?  Arithmetic and logic are not. */
static int is_read_like(struct ectx *x, CXCursor c)
{
	CXCursor *kids;
	char op[8];
	int n, r;

	switch (clang_getCursorKind(c)) {
	case CXCursor_CallExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_DeclRefExpr:
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr:
	case CXCursor_StmtExpr:
		return 1;
	case CXCursor_UnaryOperator:
		n = children(c, &kids);
		operator_of(x, c, kids, n, op, sizeof op);
		r = n == 1 && strcmp(op, "*") == 0;
		free(kids);
		return r;
	default:
		return 0;
	}
}

/* The local variable C (stripped) names, or a null cursor. */
static CXCursor local_named(CXCursor c)
{
	CXCursor ref;

	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return clang_getNullCursor();
	ref = clang_getCursorReferenced(c);
	return clang_getCursorKind(ref) == CXCursor_VarDecl && is_local(ref) ? ref : clang_getNullCursor();
}

/* The local whose address A (stripped) takes (&expected), or a null
 * cursor. */
static CXCursor address_of_local(struct ectx *x, CXCursor a)
{
	CXCursor *kids, var = clang_getNullCursor();
	char op[8];
	int n;

	if (clang_getCursorKind(a) != CXCursor_UnaryOperator)
		return var;
	n = children(a, &kids);
	operator_of(x, a, kids, n, op, sizeof op);
	if (n == 1 && strcmp(op, "&") == 0)
		var = local_named(strip_value(x, kids[0]));
	free(kids);
	return var;
}

/* The local that ARG, what a compare-and-swap expects, names: the local
 * itself (ck_pr_cas_uint(&n, old, old + 1)) or its address
 * (atomic_compare_exchange_weak(&n, &old, old + 1)); else a null cursor. */
static CXCursor expected_local(struct ectx *x, CXCursor arg)
{
	CXCursor a = strip_value(x, arg);

	return clang_getCursorKind(a) == CXCursor_UnaryOperator ? address_of_local(x, a) : local_named(a);
}

char *cas_step_item(struct ectx *x, CXCursor value, CXCursor expected)
{
	CXCursor v = strip_value(x, value), var = expected_local(x, expected), *kids;
	char op[8];
	long long k;
	char *item = NULL;
	int n;

	if (clang_Cursor_isNull(var) || clang_getCursorKind(v) != CXCursor_BinaryOperator)
		return NULL;
	n = children(v, &kids);
	operator_of(x, v, kids, n, op, sizeof op);
	if (n == 2 && (strcmp(op, "+") == 0 || strcmp(op, "-") == 0)) {
		CXCursor l = local_named(strip_value(x, kids[0])), r = local_named(strip_value(x, kids[1]));

		/* old + K, old - K, K + old */
		if (clang_equalCursors(l, var) && constant_of(strip_value(x, kids[1]), &k))
			item = xasprintf("~!step:%lld", op[0] == '-' ? -k : k);
		else if (op[0] == '+' && clang_equalCursors(r, var) && constant_of(strip_value(x, kids[0]), &k))
			item = xasprintf("~!step:%lld", k);
	}
	free(kids);
	return item;
}

/* How the function defines local VAR: the number of definitions, and
 * whether one is not a plain copy of a read (arithmetic, a compound
 * assignment, ++, its address taken: anything may then be in it).  With
 * CONSTANT set, whether one is not the constant VALUE instead (the first
 * definition sets it), and an address taken counts as no definition: a
 * compare-and-swap's &expected, which it writes only when it fails. */
struct defs {
	struct ectx *x;
	CXCursor var;
	int n, other;
	int constant;
	long long value;
	int any;             /* accept every definition, keeping it in RHS */
	CXCursor rhs;
};

/* Is definition RHS of D's local (stripped) one D accepts? */
static int accepted(struct defs *d, CXCursor rhs)
{
	long long v;

	if (d->any) {
		d->rhs = rhs;
		return 1;
	}
	if (!d->constant)
		return is_read_like(d->x, rhs);
	if (!constant_of(rhs, &v))
		return 0;
	if (d->n == 1)
		d->value = v;
	return v == d->value;
}

static enum CXChildVisitResult count_defs(CXCursor c, CXCursor parent, CXClientData data)
{
	struct defs *d = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor *kids;
	char op[8];
	int n;

	(void)parent;
	if (k == CXCursor_VarDecl && clang_equalCursors(c, d->var)) {
		CXCursor init = clang_Cursor_getVarDeclInitializer(c);

		if (!clang_Cursor_isNull(init)) {
			d->n++;
			d->other |= !accepted(d, strip_value(d->x, init));
		}
		return CXChildVisit_Recurse;
	}
	if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator && k != CXCursor_UnaryOperator)
		return CXChildVisit_Recurse;
	n = children(c, &kids);
	operator_of(d->x, c, kids, n, op, sizeof op);
	if (n >= 1 && clang_equalCursors(local_named(strip_value(d->x, kids[0])), d->var)) {
		if (k == CXCursor_BinaryOperator && strcmp(op, "=") == 0 && n == 2) {
			d->n++;
			d->other |= !accepted(d, strip_value(d->x, kids[1]));
		} else if (d->constant && k == CXCursor_UnaryOperator && strcmp(op, "&") == 0) {
			;                    /* &expected */
		} else if (k == CXCursor_CompoundAssignOperator ||
			   (k == CXCursor_UnaryOperator && (strcmp(op, "++") == 0 || strcmp(op, "--") == 0 ||
							   strcmp(op, "&") == 0))) {
			d->n++;              /* x += ..., x++, &x */
			d->other = 1;
		}
	}
	free(kids);
	return CXChildVisit_Recurse;
}

/* Does VAR hold a read's value wherever it is used: is every definition
 * of it in the function being walked a copy of a read?  Which one a test
 * sees, when there are several (readers = *lock at entry and again in the
 * retry loop), is the analysis' to say: the one definition that reaches
 * the test, if only one does (analysis/transfer.c, compared_read). */
static int copies_reads(struct ectx *x, CXCursor var)
{
	struct defs d = { x, var, 0, 0, 0, 0, 0, clang_getNullCursor() };

	clang_visitChildren(x->fn_cursor, count_defs, &d);
	return d.n >= 1 && !d.other;
}

/* The one definition of local VAR in the function being walked (its
 * initialiser or the right side of its one assignment, stripped), or a
 * null cursor when it has another number of them or changes otherwise
 * (x++, x += n, &x taken). */
static CXCursor only_definition(struct ectx *x, CXCursor var)
{
	struct defs d = { x, var, 0, 0, 0, 0, 1, clang_getNullCursor() };

	clang_visitChildren(x->fn_cursor, count_defs, &d);
	return d.n == 1 && !d.other ? d.rhs : clang_getNullCursor();
}

/* Does C read OBJECT: is it, or does it contain (a READ_ONCE expansion, a
 * load primitive's argument &obj), an lvalue of OBJECT?  A subscript's
 * index is no read of the element, nor is anything beside an operator. */
struct object_read {
	struct ectx *x;
	const char *object;
	int found;
};

static enum CXChildVisitResult find_object_read(CXCursor c, CXCursor parent, CXClientData data)
{
	struct object_read *r = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	char *obj;

	(void)parent;
	if (k != CXCursor_MemberRefExpr && k != CXCursor_DeclRefExpr && k != CXCursor_ArraySubscriptExpr &&
	    k != CXCursor_UnaryOperator)
		return CXChildVisit_Recurse;
	if ((obj = object_of_lvalue(r->x, c))) {
		r->found = strcmp(obj, r->object) == 0;
		free(obj);
		if (r->found)
			return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static int reads_object(struct ectx *x, CXCursor c, const char *object)
{
	struct object_read r = { x, object, 0 };

	if (clang_getCursorKind(c) == CXCursor_BinaryOperator)
		return 0;        /* (arithmetic is the caller's to take apart) */
	find_object_read(c, clang_getNullCursor(), &r);
	if (!r.found)
		clang_visitChildren(c, find_object_read, &r);
	return r.found;
}

/* Is V (stripped) a read of OBJECT plus a constant (K in *K, 0 for the
 * read itself): the read, R + K, R - K, K + R, or a local defined once
 * as one of these?  DEPTH bounds the locals followed. */
static int step_from(struct ectx *x, CXCursor v, const char *object, long long *k, int depth)
{
	CXCursor var = local_named(v), *kids;
	char op[8];
	long long c, k0;
	int n, found = 0;

	if (!clang_Cursor_isNull(var)) {
		CXCursor def = depth < 2 ? only_definition(x, var) : clang_getNullCursor();

		return !clang_Cursor_isNull(def) && step_from(x, strip_value(x, def), object, k, depth + 1);
	}
	if (clang_getCursorKind(v) != CXCursor_BinaryOperator) {
		*k = 0;
		return reads_object(x, v, object);
	}
	n = children(v, &kids);
	operator_of(x, v, kids, n, op, sizeof op);
	if (n == 2 && (strcmp(op, "+") == 0 || strcmp(op, "-") == 0)) {
		if (constant_of(strip_value(x, kids[1]), &c) &&
		    step_from(x, strip_value(x, kids[0]), object, &k0, depth)) {
			*k = op[0] == '-' ? k0 - c : k0 + c;
			found = 1;
		} else if (op[0] == '+' && constant_of(strip_value(x, kids[0]), &c) &&
			   step_from(x, strip_value(x, kids[1]), object, &k0, depth)) {
			*k = k0 + c;
			found = 1;
		}
	}
	free(kids);
	return found;
}

char *store_step_item(struct ectx *x, CXCursor value, const char *object)
{
	long long k;

	if (!object || !step_from(x, strip_value(x, value), object, &k, 0) || k == 0)
		return NULL;
	return xasprintf("~!step:%lld", k);
}

/* Has the function, before the test being walked, given local NAME a
 * value that depends on a marked read or a call ("@N" among the uses of
 * an event defining it)?  Asked before walking the whole body for NAME's
 * definitions: most locals tested (ret < 0) hold no read's value, and
 * the walk is the cost. */
static int holds_a_read(struct ectx *x, const char *name)
{
	for (int b = 0; b < x->fn->nblocks; b++)
		for (int i = 0; i < x->fn->blocks[b].nevents; i++) {
			const struct event *e = &x->fn->blocks[b].events[i];

			if (e->kind == EV_LOCAL && e->defines && e->uses && strcmp(e->defines, name) == 0 &&
			    strchr(e->uses, '@'))
				return 1;
		}
	return 0;
}

/* The source of the value E (stripped) tests: "@N" for the marked read
 * whose value E is, a local's name, or NULL.  FROM is the number of the
 * first event emitted for the condition. */
static char *tested_source(struct ectx *x, CXCursor e, int from)
{
	CXCursor var = local_named(e), *kids;
	const struct event *last = NULL;
	char op[8];
	int n;

	if (!clang_Cursor_isNull(var)) {
		char *name = spelling_of(var);

		if (name && holds_a_read(x, name) && copies_reads(x, var))
			return name;
		free(name);
		return NULL;
	}
	if (clang_getCursorKind(e) == CXCursor_BinaryOperator) {
		/* (fd = load(&mp_fd)) >= 0: the value assigned is tested */
		n = children(e, &kids);
		operator_of(x, e, kids, n, op, sizeof op);
		var = n == 2 && strcmp(op, "=") == 0 ? local_named(strip_value(x, kids[0])) : clang_getNullCursor();
		if (!clang_Cursor_isNull(var))
			e = strip_value(x, kids[1]);
		free(kids);
		if (clang_Cursor_isNull(var))
			return NULL;
	}
	if (!is_read_like(x, e))
		return NULL;
	/* The last access or call the condition made is E's read. */
	for (int b = 0; b < x->fn->nblocks; b++)
		for (int i = 0; i < x->fn->blocks[b].nevents; i++) {
			const struct event *ev = &x->fn->blocks[b].events[i];

			if (ev->index >= from && (ev->kind == EV_ACCESS || ev->kind == EV_CALL) &&
			    (!last || ev->index > last->index))
				last = ev;
		}
	if (!last || last->kind != EV_ACCESS || !last->marked || last->access == ACC_WRITE)
		return NULL;
	return dep_source_text(DEP_EVENT, last->index, NULL);
}

/* OP (a C comparison) as the item's letter, mirrored when the constant
 * is on the left (0 < x is x > 0); 0 for no comparison. */
static char compare_letter(const char *op, int constant_left)
{
	static const char *const ops[] = { "==", "!=", "<", ">", "<=", ">=" };
	static const char letters[] = "=!<>{}", mirrored[] = "=!><}{";

	for (int i = 0; i < 6; i++)
		if (strcmp(op, ops[i]) == 0)
			return constant_left ? mirrored[i] : letters[i];
	return 0;
}

char *compare_item(struct ectx *x, CXCursor cond, int true_succ, int from)
{
	CXCursor c = strip_value(x, cond), e = c, *kids = NULL;
	struct dep_item d = { DEP_COMPARE, DEP_LOCAL, true_succ, 0, NULL, -1, 0, 0, 0, 0 };
	enum CXCursorKind k = clang_getCursorKind(c);
	char op[8], *source, *item;
	int n = 0;

	if (true_succ < 0)
		return NULL;
	d.cmp = '!';                          /* if (E): E != 0 */
	if (k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator) {
		n = children(c, &kids);
		operator_of(x, c, kids, n, op, sizeof op);
		if (k == CXCursor_UnaryOperator && n == 1 && strcmp(op, "!") == 0) {
			d.cmp = '=';                  /* if (!E): E == 0 */
			e = strip_value(x, kids[0]);
		} else if (k == CXCursor_BinaryOperator && n == 2 && compare_letter(op, 0)) {
			int left = constant_of(kids[0], &d.value);

			if (!left && !constant_of(kids[1], &d.value)) {
				free(kids);
				return NULL;
			}
			d.cmp = compare_letter(op, left);
			e = strip_value(x, kids[left ? 1 : 0]);
		}
		free(kids);
	}
	if (!(source = tested_source(x, e, from)))
		return NULL;
	if (source[0] == '@') {
		d.kind = DEP_EVENT;
		d.n = atoi(source + 1);
	} else {
		d.name = source;
	}
	item = dep_item_text(&d);
	free(source);
	return item;
}

char *expected_constant_item(struct ectx *x, CXCursor arg)
{
	CXCursor a = strip_value(x, arg), var;
	struct defs d = { x, clang_getNullCursor(), 0, 0, 1, 0, 0, clang_getNullCursor() };

	if (constant_of(a, &d.value))
		return xasprintf("=%%%lld", d.value);
	/* &expected: a local that holds one constant wherever it is set */
	var = address_of_local(x, a);
	if (clang_Cursor_isNull(var))
		return NULL;
	d.var = var;
	clang_visitChildren(x->fn_cursor, count_defs, &d);
	return d.n >= 1 && !d.other ? xasprintf("=%%%lld", d.value) : NULL;
}
