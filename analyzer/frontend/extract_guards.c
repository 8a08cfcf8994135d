/* analyzer/frontend/extract_guards.c — the branches a constant argument
 * rules out (W14 of docs/limitations.md).
 *
 * A function is summarised once for every call, but a caller that passes
 * a constant may rule out a branch of it: ck_rhs_get() probes with
 * CK_RHS_PROBE_NO_RH, and the probe reads the Robin Hood fields only
 * "if (behavior != CK_RHS_PROBE_NO_RH)"; ck_epoch_end(record, NULL) never
 * runs the section code under "if (section != NULL)".  The front end
 * writes down both halves, and analysis/callview.c drops, in one call's
 * view of the callee, the events that call rules out:
 *
 *   - every event inside the then or else branch of an if whose condition
 *     compares a parameter with a constant (p == C, p != C, p, !p; C an
 *     integer constant expression, an enumerator, or NULL) gets the
 *     condition ("?N=%C", "?N!%C", "?N=!null", "?N!!null");
 *   - every call argument that is an integer constant expression gets
 *     "#N=%C" (a NULL argument already has "#N=!null", extract_fresh.c).
 *
 * A parameter the function assigns is not what the caller passed: its
 * conditions are dropped (guards_apply).  Only branches are covered, not
 * the code after an if that returns early, nor switch arms. */
#include "extract_int.h"
#include "extract_guards.h"
#include "extract_object.h"
#include "extract_text.h"
#include "extract_deps.h"

#include <stdlib.h>
#include <string.h>

int evaluates_to_integer(CXCursor c, long long *v)
{
	CXEvalResult ev = clang_Cursor_Evaluate(c);
	int ok = ev && clang_EvalResult_getKind(ev) == CXEval_Int;

	if (ok)
		*v = clang_EvalResult_getAsLongLong(ev);
	if (ev)
		clang_EvalResult_dispose(ev);
	return ok;
}

int integer_constant(CXCursor c, long long *v)
{
	CXCursor s = strip(c);
	enum CXCursorKind k = clang_getCursorKind(s);

	if (k == CXCursor_DeclRefExpr) {
		if (clang_getCursorKind(clang_getCursorReferenced(s)) != CXCursor_EnumConstantDecl)
			return 0;
	} else if (k != CXCursor_IntegerLiteral && k != CXCursor_CharacterLiteral && k != CXCursor_UnaryOperator) {
		return 0;
	}
	return evaluates_to_integer(s, v);
}

char *constant_argument(CXCursor arg, int n)
{
	struct dep_item d = { DEP_ARGUMENT, DEP_CONST, n, 0, NULL, -1, 0, 0, 0, 0 };

	if (clang_getCursorType(arg).kind == CXType_Pointer || !integer_constant(arg, &d.value))
		return NULL;
	return dep_item_text(&d);
}

/* Is C (stripped) a parameter of the function being walked?  Its number,
 * or -1. */
static int parameter_of(struct ectx *x, CXCursor c)
{
	CXCursor s = strip(c);

	if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
		return -1;
	return parameter_number(x, clang_getCursorReferenced(s));
}

/* The condition COND as a guard on a parameter that holds in its then
 * branch (into *D), or 0 when COND is no comparison of a parameter with a
 * constant. */
static int condition_guard(struct ectx *x, CXCursor cond, struct dep_item *d)
{
	CXCursor c = strip(cond), *kids;
	enum CXCursorKind k = clang_getCursorKind(c);
	int n, param = -1, found = 0, null = 0;
	char op[8];
	long long v = 0;

	memset(d, 0, sizeof *d);
	d->role = DEP_GUARD;
	d->local = -1;
	if ((param = parameter_of(x, c)) >= 0) {
		/* if (p): p differs from 0 (or NULL) */
		null = clang_getCursorType(c).kind == CXType_Pointer;
		d->differs = 1;
		found = 1;
	} else if (k == CXCursor_UnaryOperator || k == CXCursor_BinaryOperator) {
		n = children(c, &kids);
		operator_of(x, c, kids, n, op, sizeof op);
		if (k == CXCursor_UnaryOperator && n == 1 && strcmp(op, "!") == 0 &&
		    (param = parameter_of(x, kids[0])) >= 0) {
			null = clang_getCursorType(strip(kids[0])).kind == CXType_Pointer;
			found = 1;
		} else if (k == CXCursor_BinaryOperator && n == 2 && (strcmp(op, "==") == 0 || strcmp(op, "!=") == 0)) {
			int side = (param = parameter_of(x, kids[0])) >= 0 ? 1 : (param = parameter_of(x, kids[1])) >= 0 ? 0 : -1;

			if (side >= 0) {
				null = is_null_constant(kids[side]) &&
				       clang_getCursorType(strip(kids[1 - side])).kind == CXType_Pointer;
				found = null || integer_constant(kids[side], &v);
				d->differs = op[0] == '!';
			}
		}
		free(kids);
	}
	if (!found || param < 0)
		return 0;
	d->arg = param;
	d->kind = null ? DEP_NULL : DEP_CONST;
	d->value = v;
	return 1;
}

int branch_guards_enter(struct ectx *x, CXCursor cond, int then_branch)
{
	struct dep_item d;

	if (!condition_guard(x, cond, &d))
		return 0;
	d.differs ^= !then_branch;
	grow(&x->guards.v, &x->guards.cap, x->guards.n + 1, sizeof *x->guards.v);
	x->guards.v[x->guards.n++] = dep_item_text(&d);
	return 1;
}

void branch_guards_leave(struct ectx *x)
{
	free(x->guards.v[--x->guards.n]);
}

void branch_guards_note_event(struct ectx *x, const struct event *e)
{
	struct deps all = { 0 };

	if (!x->guards.n || e->index < 0)
		return;
	for (int i = 0; i < x->guards.n; i++)
		deps_add(&all, x->guards.v[i]);
	grow(&x->guard_of, &x->guard_cap, e->index + 1, sizeof *x->guard_of);
	while (x->nguard_of <= e->index)
		x->guard_of[x->nguard_of++] = NULL;
	free(x->guard_of[e->index]);
	x->guard_of[e->index] = all.buf;
}

/* Does the function being walked assign parameter N (an EV_LOCAL event
 * defining the parameter's name)? */
static int assigns_parameter(struct ectx *x, int n)
{
	char *name = spelling_of(clang_Cursor_getArgument(x->fn_cursor, (unsigned)n));
	int found = 0;

	for (int b = 0; name && b < x->fn->nblocks && !found; b++)
		for (int i = 0; i < x->fn->blocks[b].nevents && !found; i++) {
			const struct event *e = &x->fn->blocks[b].events[i];

			found = e->kind == EV_LOCAL && e->defines && strcmp(e->defines, name) == 0;
		}
	free(name);
	return found;
}

/* Item text ITEM of a guard on a parameter the function assigns? */
static int on_assigned(struct ectx *x, const char *item, unsigned *checked, unsigned *assigned)
{
	struct dep_list l;
	int r = 0;

	dep_list_parse(item, &l);
	if (l.n == 1 && l.v[0].role == DEP_GUARD && l.v[0].arg < 32) {
		unsigned bit = 1u << l.v[0].arg;

		if (!(*checked & bit)) {
			*checked |= bit;
			if (assigns_parameter(x, l.v[0].arg))
				*assigned |= bit;
		}
		r = (*assigned & bit) != 0;
	}
	dep_list_free(&l);
	return r;
}

struct keep_ctx { struct ectx *x; struct deps *out; unsigned checked, assigned; };

static void keep_guard(const char *item, void *arg)
{
	struct keep_ctx *k = arg;

	if (!on_assigned(k->x, item, &k->checked, &k->assigned))
		deps_add(k->out, item);
}

void branch_guards_apply(struct ectx *x)
{
	struct keep_ctx k = { x, NULL, 0, 0 };

	for (int b = 0; b < x->fn->nblocks; b++)
		for (int i = 0; i < x->fn->blocks[b].nevents; i++) {
			struct event *e = &x->fn->blocks[b].events[i];
			struct deps kept = { 0 };
			char *joined;

			if (e->index < 0 || e->index >= x->nguard_of || !x->guard_of[e->index])
				continue;
			k.out = &kept;
			dep_list_each(x->guard_of[e->index], keep_guard, &k);
			if (!kept.buf)
				continue;
			/* (both lists start and end with ',') */
			joined = xasprintf("%.*s%s", e->uses ? (int)strlen(e->uses) - 1 : 0, e->uses ? e->uses : "",
					   kept.buf);
			free(e->uses);
			e->uses = joined;
			free(kept.buf);
		}
	branch_guards_forget(x);
}

void branch_guards_forget(struct ectx *x)
{
	for (int i = 0; i < x->nguard_of; i++)
		free(x->guard_of[i]);
	x->nguard_of = 0;
	while (x->guards.n)
		branch_guards_leave(x);
}

void branch_guards_free(struct ectx *x)
{
	branch_guards_forget(x);
	free(x->guard_of);
	free(x->guards.v);
	x->guard_of = NULL;
	x->guards.v = NULL;
	x->guard_cap = x->guards.cap = 0;
}
