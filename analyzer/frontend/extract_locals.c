/* analyzer/frontend/extract_locals.c — which locals of a function stay private to one
 * activation, and where its pointers point: a flow-insensitive points-to
 * analysis (inclusion constraints, as Andersen's) restricted to the locals
 * of the function being walked, run before its body is walked.
 *
 * The front end keys an access by its object (extract_expr.c): a local is
 * no shared object unless its address escapes.  Any &v outside a call's
 * arguments used to count as escaping, and an access through a pointer
 * (p->f, (&v)->f, CPU_SET's ((&mask)->__bits)[i]) was the program-wide
 * field even when the pointer could hold nothing but &v.  Here each local
 * (and each temporary value of an expression) has the set of what it, or
 * its contents for a struct or an array, may point to: the address of a
 * local, the value parameter N came in with, or "other" (a global, memory
 * read through an unknown pointer, a call's result).
 *
 * A local escapes when its address reaches a global, memory that belongs
 * to no local, a return, pthread_create, the value of a marked store or
 * atomic, an asm operand, or the contents of a local that escapes itself.
 * An address passed to an ordinary call is used during the call only, as
 * before (dataflow.c's through_call keeps the callee's accesses through it
 * the caller's private object), but the callee may store anything into it.
 * A store through a pointer that may hold "other" hands the value to
 * anyone.
 *
 * This file builds the constraints from the body; locals_solve.c solves
 * them, extract_pointee.c answers the front end's questions. */
#include "locals_int.h"
#include "extract_primitive.h"
#include "extract_uneval.h"

/* ---- variables ---- */

int locals_find_var(struct locals *l, CXCursor decl)
{
	unsigned h = clang_hashCursor(decl);

	for (int i = 0; i < l->nvars; i++)
		if (l->vars[i].hash == h && clang_equalCursors(l->vars[i].decl, decl))
			return i;
	return -1;
}

static void add_var(struct locals *l, CXCursor decl, int param)
{
	CXString usr, name;

	if (locals_find_var(l, decl) >= 0)
		return;
	grow(&l->vars, &l->varcap, l->nvars + 1, sizeof *l->vars);
	usr = clang_getCursorUSR(decl);
	name = clang_getCursorSpelling(decl);
	l->vars[l->nvars++] = (struct lvar){ decl, clang_hashCursor(decl),
					     xstrdup(clang_getCString(usr)),
					     xstrdup(clang_getCString(name)), param };
	clang_disposeString(usr);
	clang_disposeString(name);
}

static enum CXChildVisitResult collect_var(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_VarDecl && is_local(c))
		add_var(d, c, -1);
	return CXChildVisit_Recurse;
}

int locals_var_of(struct locals *l, CXCursor c)
{
	CXCursor ref = clang_getCursorReferenced(c);
	enum CXCursorKind k = clang_getCursorKind(ref);

	return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? locals_find_var(l, ref) : -1;
}

/* ---- sets and constraints ---- */




static int new_node(struct locals *l)
{
	if (l->nnodes == l->nodecap) {
		l->nodecap = l->nodecap ? 2 * l->nodecap : 64;
		l->sets = xrealloc(l->sets, (size_t)l->nodecap * l->words * sizeof *l->sets);
	}
	memset(set_of(l, l->nnodes), 0, l->words * sizeof *l->sets);
	return l->nnodes++;
}

static void add(struct locals *l, int kind, int a, int b)
{
	if (a < 0 || (b < 0 && kind != C_ESC && kind != C_CLOBBER))
		return;
	grow(&l->cs, &l->cscap, l->ncs + 1, sizeof *l->cs);
	l->cs[l->ncs++] = (struct constraint){ kind, a, b };
}

static int other_node(struct locals *l)
{
	if (l->other < 0) {
		l->other = new_node(l);
		set_bit(l, l->other, OTHER);
	}
	return l->other;
}

static int addr_node(struct locals *l, int var)
{
	if (l->addr[var] < 0) {
		l->addr[var] = new_node(l);
		set_bit(l, l->addr[var], ADDR(var));
	}
	return l->addr[var];
}

/* A node for what A or B may hold (either may be -1: nothing). */
static int join(struct locals *l, int a, int b)
{
	int n;

	if (a < 0 || b < 0)
		return a < 0 ? b : a;
	n = new_node(l);
	add(l, C_COPY, n, a);
	add(l, C_COPY, n, b);
	return n;
}

/* A node for what the memory pointer node P points to holds. */
static int load(struct locals *l, int p)
{
	int n;

	if (p < 0)
		return -1;
	n = new_node(l);
	add(l, C_LOAD, n, p);
	return n;
}

/* ---- constraints from the function's body ---- */

static int value(struct ectx *x, CXCursor c);
static int walk_s(struct ectx *x, CXCursor c);




/* Evaluates every expression child of C for its effects, and hands each
 * value to anyone (an expression this analysis does not know). */
static void escape_children(struct ectx *x, CXCursor c)
{
	CXCursor *k;
	int n = children(c, &k);

	for (int i = 0; i < n; i++) {
		if (clang_isExpression(clang_getCursorKind(k[i])))
			add(x->locals, C_ESC, value(x, k[i]), -1);
		else if (clang_isStatement(clang_getCursorKind(k[i])))
			walk_s(x, k[i]);
	}
	free(k);
}

/* The node of the address of lvalue C. */
static int address(struct ectx *x, CXCursor c);

static int address_in(struct ectx *x, CXCursor c)
{
	struct locals *l = x->locals;
	CXCursor *k;
	int n, r = -1, v;
	char op[8];

	c = skip_parens(c);
	n = children(c, &k);
	switch (clang_getCursorKind(c)) {
	case CXCursor_DeclRefExpr:
		v = locals_var_of(l, c);
		if (v >= 0)
			r = addr_node(l, v);
		else if (clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_VarDecl)
			r = other_node(l);
		break;
	case CXCursor_MemberRefExpr:
		if (n >= 1)
			r = clang_getCanonicalType(clang_getCursorType(k[0])).kind == CXType_Pointer
				? value(x, k[0]) : address(x, k[0]);
		break;
	case CXCursor_ArraySubscriptExpr:
		if (n == 2) {
			value(x, k[1]);
			r = is_array(skip_parens(k[0])) ? address(x, skip_parens(k[0])) : value(x, k[0]);
		}
		break;
	case CXCursor_UnaryOperator:
		operator_of(x, c, k, n, op, sizeof op);
		if (n == 1 && strcmp(op, "*") == 0) {
			r = value(x, k[0]);
			break;
		}
		/* fall through */
	default:
		/* an rvalue (f().a, a compound literal): its contents go to
		 * whoever uses its address */
		add(l, C_ESC, value(x, c), -1);
		r = other_node(l);
		break;
	}
	free(k);
	return r;
}

/* address, one level deeper (extract_int.h, nest_enter). */
static int address(struct ectx *x, CXCursor c)
{
	int r = nest_enter(x) ? address_in(x, c) : other_node(x->locals);

	nest_leave(x);
	return r;
}

/* Lvalue C receives the value of node V. */
static void assign(struct ectx *x, CXCursor c, int v)
{
	struct locals *l = x->locals;
	int var;

	c = skip_parens(c);
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		var = locals_var_of(l, c);
		if (var >= 0)
			add(l, C_COPY, var, v);
		else
			add(l, C_ESC, v, -1);      /* a global, a static local */
		return;
	}
	add(l, C_STORE, address(x, c), v);
}

/* The value of lvalue C read (a read of memory, or a decayed array). */
static int read_lvalue(struct ectx *x, CXCursor c)
{
	return is_array(c) ? address(x, c) : load(x->locals, address(x, c));
}

/* Are types A and B one type once their qualifiers and _Atomic are set
 * aside?  The object a compare-and-swap works on is often volatile or
 * _Atomic (rte_rwlock_t's "volatile int32_t cnt", C11's "_Atomic int"),
 * the caller's "expected" local is not: equal types would take &expected
 * for a value the operation stores, and the local for one that escapes.
 * (libclang 14 has no clang_getUnqualifiedType: the types are compared
 * by structure, a builtin by its kind, a struct or enum by its
 * declaration.) */
static int same_unqualified(CXType a, CXType b, int depth)
{
	a = clang_getCanonicalType(a);
	b = clang_getCanonicalType(b);
	if (a.kind == CXType_Atomic)
		a = clang_getCanonicalType(clang_Type_getValueType(a));
	if (b.kind == CXType_Atomic)
		b = clang_getCanonicalType(clang_Type_getValueType(b));
	if (a.kind != b.kind || depth > 8)
		return 0;
	if (a.kind >= CXType_FirstBuiltin && a.kind <= CXType_LastBuiltin)
		return 1;
	switch (a.kind) {
	case CXType_Pointer:
		return same_unqualified(clang_getPointeeType(a), clang_getPointeeType(b), depth + 1);
	case CXType_Record:
	case CXType_Enum:
		return clang_equalCursors(clang_getTypeDeclaration(a), clang_getTypeDeclaration(b));
	case CXType_ConstantArray:
		return clang_getArraySize(a) == clang_getArraySize(b) &&
		       same_unqualified(clang_getArrayElementType(a), clang_getArrayElementType(b), depth + 1);
	default:
		return clang_equalTypes(a, b);
	}
}

/* Is expression A a pointer to type T (qualifiers aside)?  Among the
 * operands of an atomic operation on a T, that is the "expected" value a
 * compare-and-swap writes back (__atomic_compare_exchange_n(&w,
 * &expected, 1, ...)), not a value it stores. */
static int points_to_type(CXCursor a, CXType t)
{
	CXType at = clang_getCanonicalType(clang_getCursorType(a));

	return at.kind == CXType_Pointer && same_unqualified(clang_getPointeeType(at), t, 0);
}

/* A vocabulary primitive V with argument expressions ROOTS: what it stores
 * and where, what it yields. */
static int primitive(struct ectx *x, const struct vocab_entry *v, CXCursor *roots, int nroots)
{
	struct locals *l = x->locals;
	int obj = -1, stored = -1, writes = v->op == OP_WRITE || v->op == OP_RMW;
	int thread = strcmp(v->name, "pthread_create") == 0;
	int has_obj = v->obj_arg >= 0 && v->obj_arg < nroots && !clang_Cursor_isNull(roots[v->obj_arg]);
	CXType t = { 0 };

	if (has_obj)    /* the type of the object operated on */
		t = v->lvalue ? clang_getCursorType(roots[v->obj_arg])
			      : clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(roots[v->obj_arg])));
	for (int a = 0; a < nroots; a++) {
		int n;

		if (clang_Cursor_isNull(roots[a]))
			continue;
		if (thread) {                /* the argument goes to another thread */
			add(l, C_ESC, value(x, roots[a]), -1);
			continue;
		}
		if (a == v->obj_arg) {
			obj = v->lvalue ? -1 : value(x, roots[a]);
			continue;
		}
		n = value(x, roots[a]);
		if (has_obj && points_to_type(roots[a], t))
			add(l, C_CLOBBER, n, -1);
		else if (writes && !v->plain)
			stored = join(l, stored, n);
	}
	if (!has_obj) {
		add(l, C_ESC, stored, -1);
		return -1;
	}
	if (v->plain) {                      /* memset(p, ...), memcpy(p, ...) */
		add(l, C_CLOBBER, obj, -1);
		return obj;
	}
	if (v->op != OP_READ && !writes)
		return -1;                   /* locks, barriers */
	if (v->lvalue) {                     /* READ_ONCE(x), WRITE_ONCE(x, v) */
		if (writes)
			assign(x, roots[v->obj_arg], stored);
		return value(x, roots[v->obj_arg]);
	}
	add(l, C_STORE, obj, stored);        /* smp_store_release(&x, v) */
	return load(l, obj);
}

/* Site S of vocabulary (a macro invocation, or a call written in the file)
 * whose expansion or call is C. */
static int site_value(struct ectx *x, const struct site *s, CXCursor c)
{
	int r;

	push_active_site(x, s);
	if (s->v->op == OP_ACCESS || s->v->op == OP_IGNORE) {
		/* an lvalue macro (its use says what it does), data_race(e):
		 * what the expansion does */
		r = clang_isExpression(clang_getCursorKind(c)) ? value(x, c) : walk_s(x, c);
	} else {
		CXCursor *roots = site_arg_roots(x, s, c);

		r = primitive(x, s->v, roots, s->nargs);
		free(roots);
	}
	pop_active_site(x, s);
	return r;
}

/* An atomic builtin (__atomic_store_n(&x, v, ...), which libclang 14 shows
 * as an UnexposedExpr with its operands as children): the first operand
 * is the address, the others are values stored, but for "expected". */
static int atomic_builtin(struct ectx *x, CXCursor *k, int n)
{
	struct locals *l = x->locals;
	CXType pointee = clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(k[0])));
	int p = value(x, k[0]), stored = -1;

	for (int i = 1; i < n; i++) {
		int v = value(x, k[i]);

		if (points_to_type(k[i], pointee))
			add(l, C_CLOBBER, v, -1);
		else
			stored = join(l, stored, v);
	}
	add(l, C_STORE, p, stored);
	return load(l, p);
}

static int call_value(struct ectx *x, CXCursor c, CXCursor *k, int n)
{
	struct locals *l = x->locals;
	CXString s = clang_getCursorSpelling(c);
	const char *name = clang_getCString(s);
	CXCursor callee = clang_getCursorReferenced(c);
	char *defined_in = clang_Cursor_isNull(callee) ? NULL : cursor_file_name(callee);
	const struct vocab_entry *v = name ? vocab_find(x->vocab, name, defined_in) : NULL;
	int thread = name && strcmp(name, "pthread_create") == 0, r;

	free(defined_in);
	if (name && (strcmp(name, "__builtin_expect") == 0 ||
		     strcmp(name, "__builtin_expect_with_probability") == 0) && n >= 2) {
		r = value(x, k[1]);
		for (int i = 2; i < n; i++)
			value(x, k[i]);
	} else if (v && v->op != OP_IGNORE && v->op != OP_ACCESS) {
		/* a primitive called inside a macro of the project's own */
		r = primitive(x, v, k + 1, n - 1);
	} else {
		if (n >= 1)
			value(x, k[0]);        /* the callee */
		for (int i = 1; i < n; i++) {
			int a = value(x, k[i]);

			/* a thread's argument goes to another thread; any other
			 * call may write into what it is given */
			add(l, thread ? C_ESC : C_CLOBBER, a, -1);
		}
		r = other_node(l);
	}
	clang_disposeString(s);
	return r;
}

/* The node of the value of expression C (-1 when it can hold no
 * address). */
static int plain_value(struct ectx *x, CXCursor c)
{
	struct locals *l = x->locals;
	enum CXCursorKind kind = clang_getCursorKind(c);
	CXCursor *k;
	int n = children(c, &k), r = -1, v, nexpr = 0;
	char op[8];
	unsigned char *walk;

	for (int i = 0; i < n; i++)
		nexpr += clang_isExpression(clang_getCursorKind(k[i]));
	switch (kind) {
	case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral: case CXCursor_ImaginaryLiteral:
	case CXCursor_StringLiteral: case CXCursor_CharacterLiteral: case CXCursor_GNUNullExpr:
	case CXCursor_UnaryExpr:        /* sizeof, _Alignof: not evaluated */
		break;
	case CXCursor_ParenExpr:
		if (n >= 1)
			r = value(x, k[n - 1]);
		break;
	case CXCursor_CStyleCastExpr:   /* the operand is the last child */
		if (n >= 1 && clang_isExpression(clang_getCursorKind(k[n - 1])))
			r = value(x, k[n - 1]);
		break;
	case CXCursor_DeclRefExpr:
		v = locals_var_of(l, c);
		if (v >= 0)
			r = is_array(c) ? addr_node(l, v) : v;
		else if (clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_VarDecl)
			r = other_node(l);
		break;
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr:
		r = read_lvalue(x, c);
		break;
	case CXCursor_UnaryOperator:
		operator_of(x, c, k, n, op, sizeof op);
		if (n != 1)
			break;
		if (strcmp(op, "&") == 0)
			r = address(x, k[0]);
		else if (strcmp(op, "*") == 0)
			r = read_lvalue(x, c);
		else if (strcmp(op, "!") == 0)
			value(x, k[0]);
		else
			r = value(x, k[0]);    /* p++, -v, __extension__ e */
		break;
	case CXCursor_BinaryOperator:
		operator_of(x, c, k, n, op, sizeof op);
		if (n != 2)
			break;
		if (strcmp(op, "=") == 0) {
			r = value(x, k[1]);
			assign(x, k[0], r);
		} else if (strcmp(op, ",") == 0) {
			value(x, k[0]);
			r = value(x, k[1]);
		} else if (!strcmp(op, "&&") || !strcmp(op, "||") || !strcmp(op, "==") || !strcmp(op, "!=") ||
			   !strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=")) {
			value(x, k[0]);        /* a truth value */
			value(x, k[1]);
		} else {
			r = join(l, value(x, k[0]), value(x, k[1]));
		}
		break;
	case CXCursor_CompoundAssignOperator:   /* p += n, v |= (long)&m */
		if (n == 2) {
			r = join(l, value(x, k[0]), value(x, k[1]));
			assign(x, k[0], r);
		}
		break;
	case CXCursor_ConditionalOperator:
		if (n == 3) {
			value(x, k[0]);
			r = join(l, value(x, k[1]), value(x, k[2]));
		} else {
			escape_children(x, c);
			r = other_node(l);
		}
		break;
	case CXCursor_CallExpr:
		if (!unevaluated_call(c))
			r = call_value(x, c, k, n);
		break;
	case CXCursor_StmtExpr:         /* ({ ...; last; }) */
		for (int i = 0; i < n; i++)
			r = walk_s(x, k[i]);
		break;
	case CXCursor_InitListExpr:     /* what the object initialised holds */
		for (int i = 0; i < n; i++)
			if (clang_isExpression(clang_getCursorKind(k[i])))
				r = join(l, r, value(x, k[i]));
		break;
	case CXCursor_UnexposedExpr:
	case CXCursor_CompoundLiteralExpr:
	case CXCursor_GenericSelectionExpr:
		walk = xcalloc((size_t)n + 1, 1);
		if (evaluated_operands(c, k, n, walk)) {
			/* offsetof's indexes; a literal's initialiser; the
			 * selected association */
			for (int i = 0; i < n; i++) {
				if (!walk[i])
					continue;
				v = value(x, k[i]);
				if (kind != CXCursor_UnexposedExpr)   /* offsetof: a number */
					r = join(l, r, v);
			}
		} else if (nexpr == 1) {
			for (int i = 0; i < n; i++)   /* an implicit conversion */
				if (clang_isExpression(clang_getCursorKind(k[i])))
					r = value(x, k[i]);
		} else if (nexpr >= 2 && clang_getCursorKind(k[0]) == CXCursor_MemberRef) {
			for (int i = 0; i < n; i++)   /* .field = value */
				if (clang_isExpression(clang_getCursorKind(k[i])))
					r = join(l, r, value(x, k[i]));
		} else if (nexpr >= 2 && clang_isExpression(clang_getCursorKind(k[0])) &&
			   clang_getCanonicalType(clang_getCursorType(k[0])).kind == CXType_Pointer) {
			r = atomic_builtin(x, k, n);
		} else if (n > 0) {
			escape_children(x, c);
			r = other_node(l);
		}
		free(walk);
		break;
	default:
		escape_children(x, c);
		r = other_node(l);
		break;
	}
	free(k);
	return r;
}

static int value(struct ectx *x, CXCursor c);

static int value_in(struct ectx *x, CXCursor c)
{
	const struct site *s = site_containing(x, c);
	enum CXCursorKind kind = clang_getCursorKind(c);
	struct site call_site;

	if (s)
		return site_value(x, s, c);
	if ((kind == CXCursor_CallExpr ||
	     (kind == CXCursor_UnexposedExpr && clang_getCursorType(c).kind != CXType_Invalid)) &&
	    site_from_call(x, c, &call_site)) {
		int r = site_range_is_active(x, &call_site) ? other_node(x->locals) : site_value(x, &call_site, c);

		free_site(&call_site);
		return r;
	}
	return plain_value(x, c);
}

/* value, one level deeper (extract_int.h, nest_enter). */
static int value(struct ectx *x, CXCursor c)
{
	int r = nest_enter(x) ? value_in(x, c) : other_node(x->locals);

	nest_leave(x);
	return r;
}

/* Walks statement (or expression) C; returns the node of its value when it
 * is an expression (the value of a statement expression). */
static int walk_s(struct ectx *x, CXCursor c);

static int walk_s_in(struct ectx *x, CXCursor c)
{
	struct locals *l = x->locals;
	enum CXCursorKind kind = clang_getCursorKind(c);
	const struct site *s;
	CXCursor *k;
	int n, r = -1;

	if (clang_isExpression(kind))
		return value(x, c);
	if ((s = site_containing(x, c)) != NULL)     /* do { ... } while (0) */
		return site_value(x, s, c);
	n = children(c, &k);
	switch (kind) {
	case CXCursor_DeclStmt:
		for (int i = 0; i < n; i++) {
			CXCursor init;
			int var;

			if (clang_getCursorKind(k[i]) != CXCursor_VarDecl)
				continue;
			init = clang_Cursor_getVarDeclInitializer(k[i]);
			if (clang_Cursor_isNull(init))
				continue;
			var = locals_find_var(l, k[i]);
			if (var >= 0)
				add(l, C_COPY, var, value(x, init));
			else
				add(l, C_ESC, value(x, init), -1);   /* a static local */
		}
		break;
	case CXCursor_ReturnStmt:
	case CXCursor_GCCAsmStmt:
		escape_children(x, c);
		break;
	default:
		for (int i = 0; i < n; i++)
			if (clang_isStatement(clang_getCursorKind(k[i])) ||
			    clang_isExpression(clang_getCursorKind(k[i])))
				r = walk_s(x, k[i]);
		if (kind != CXCursor_CompoundStmt)
			r = -1;
		break;
	}
	free(k);
	return r;
}

/* walk_s, one level deeper (extract_int.h, nest_enter). */
static int walk_s(struct ectx *x, CXCursor c)
{
	int r = nest_enter(x) ? walk_s_in(x, c) : other_node(x->locals);

	nest_leave(x);
	return r;
}

/* ---- the interface ---- */

void forget_locals(struct ectx *x)
{
	struct locals *l = x->locals;

	if (!l)
		return;
	for (int i = 0; i < l->nvars; i++) {
		free(l->vars[i].usr);
		free(l->vars[i].name);
	}
	free(l->vars);
	free(l->sets);
	free(l->cs);
	free(l->esc);
	free(l->addr);
	free(l->query);
	free(l);
	x->locals = NULL;
}

void analyse_locals(struct ectx *x, CXCursor body)
{
	struct locals *l;
	int nargs = clang_Cursor_getNumArguments(x->fn_cursor);

	forget_locals(x);
	l = x->locals = xcalloc(1, sizeof *l);
	for (int i = 0; i < nargs; i++)
		add_var(l, clang_Cursor_getArgument(x->fn_cursor, i), i);
	clang_visitChildren(body, collect_var, l);
	l->words = (1 + 2 * l->nvars) / 64 + 1;
	l->esc = xcalloc((size_t)l->nvars + 1, 1);
	l->addr = xmalloc(((size_t)l->nvars + 1) * sizeof *l->addr);
	l->other = -1;
	for (int i = 0; i < l->nvars; i++) {
		new_node(l);
		l->addr[i] = -1;
		if (l->vars[i].param >= 0)
			set_bit(l, i, PARAM(i));
	}
	walk_s(x, body);
	locals_solve(l);
}
