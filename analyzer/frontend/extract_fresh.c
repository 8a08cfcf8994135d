/* analyzer/frontend/extract_fresh.c — which local pointers hold memory that no
 * other thread can reach yet (fresh from an allocator, and not handed on
 * since), so that the accesses through them are initialisation
 * (",!new," in their uses; fresh.c and dataflow.c, is_new), and which
 * functions return such memory (allocator wrappers: marks on their
 * returns, which fresh.c reads). */
#include "extract_int.h"
#include "extract_deps.h"
#include "extract_expr.h"

#include <stdlib.h>
#include <string.h>

/* Fresh pointers (struct fresh_table): N = malloc(...) makes N fresh; the
 * first read of N's value that may hand it on (a store, an argument, a
 * return, a copy) ends it.  In walk order, which is program order except
 * around loops.  Each fresh pointer has the mark that the accesses through
 * it carry in their uses:
 *   "!new"       memory from an allocator;
 *   "!new:KEY"   the value returned by function KEY (its link key): fresh
 *                if KEY is an allocator wrapper, which only the analysis
 *                can tell, over the whole tree (fresh.c);
 *   "!newarg:N"  pointer parameter N, until handed on: fresh in the calls
 *                that pass fresh memory for it (map_init(m) after
 *                m = malloc(...); fresh.c, dataflow.c's through_call). */
static int table_at(const struct fresh_table *t, const char *usr)
{
	for (int i = 0; usr && i < t->n; i++)
		if (strcmp(t->v[i].usr, usr) == 0)
			return i;
	return -1;
}

static int fresh_at(struct ectx *x, const char *usr)
{
	return table_at(&x->fresh, usr);
}

static void table_add(struct fresh_table *t, const char *usr, const char *mark, int group)
{
	grow(&t->v, &t->cap, t->n + 1, sizeof *t->v);
	t->v[t->n++] = (struct fresh_pointer){ xstrdup(usr), xstrdup(mark), group };
}

/* Drops entry I of table T (the last one moves into its place). */
static void table_drop(struct fresh_table *t, int i)
{
	free(t->v[i].usr);
	free(t->v[i].mark);
	t->v[i] = t->v[--t->n];
}

static void drop_fresh(struct ectx *x, int i)
{
	table_drop(&x->fresh, i);
}

/* The local USR now holds fresh memory whose accesses carry MARK (taken
 * over), a copy of group GROUP's pointer (0: none), or, MARK NULL,
 * nothing fresh. */
static void put_fresh(struct ectx *x, const char *usr, char *mark, int group)
{
	int i = fresh_at(x, usr);

	if (i >= 0)
		drop_fresh(x, i);
	if ((i = table_at(&x->handed, usr)) >= 0)
		table_drop(&x->handed, i);
	if (!mark || !usr || !*usr) {
		free(mark);
		return;
	}
	grow(&x->fresh.v, &x->fresh.cap, x->fresh.n + 1, sizeof *x->fresh.v);
	x->fresh.v[x->fresh.n++] = (struct fresh_pointer){ xstrdup(usr), mark, group };
}

void set_fresh(struct ectx *x, CXCursor var, char *mark)
{
	CXString s = clang_getCursorUSR(var);

	put_fresh(x, clang_getCString(s), mark, 0);
	clang_disposeString(s);
}

void hand_on_fresh(struct ectx *x, CXCursor var)
{
	char *usr = usr_of(var);
	int i = fresh_at(x, usr), group;

	if (i >= 0 && table_at(&x->handed, usr) < 0)
		table_add(&x->handed, usr, x->fresh.v[i].mark, 0);
	free(usr);
	if (i < 0)
		return;
	group = x->fresh.v[i].group;
	drop_fresh(x, i);
	for (int k = x->fresh.n - 1; group && k >= 0; k--)
		if (x->fresh.v[k].group == group)
			drop_fresh(x, k);
}

CXCursor fresh_copy_source(struct ectx *x, CXCursor value)
{
	CXCursor base = pointer_value_base(x, value);

	return !clang_Cursor_isNull(base) && is_local(base) && fresh_mark(x, base) ? base : clang_getNullCursor();
}

void copy_fresh(struct ectx *x, CXCursor var, CXCursor source)
{
	char *from = usr_of(source), *to = usr_of(var);
	int i = fresh_at(x, from);

	if (i >= 0) {
		if (!x->fresh.v[i].group)
			x->fresh.v[i].group = ++x->fresh.groups;
		put_fresh(x, to, xstrdup(x->fresh.v[i].mark), x->fresh.v[i].group);
	}
	free(from);
	free(to);
}

void fresh_parameters(struct ectx *x)
{
	int n = clang_Cursor_getNumArguments(x->fn_cursor);

	for (int i = 0; i < n; i++) {
		CXCursor p = clang_Cursor_getArgument(x->fn_cursor, i);

		if (clang_getCanonicalType(clang_getCursorType(p)).kind == CXType_Pointer)
			set_fresh(x, p, dep_source_text(DEP_NEW_PARAM, i, NULL));
	}
}

static void forget_fresh_table(struct fresh_table *t)
{
	for (int i = 0; i < t->n; i++) {
		free(t->v[i].usr);
		free(t->v[i].mark);
	}
	t->n = 0;
}

void forget_fresh(struct ectx *x)
{
	forget_fresh_table(&x->fresh);
	forget_fresh_table(&x->handed);
}

void fresh_save(struct ectx *x, struct fresh_table *saved)
{
	for (int i = 0; i < x->fresh.n; i++)
		table_add(saved, x->fresh.v[i].usr, x->fresh.v[i].mark, x->fresh.v[i].group);
}

void fresh_restore(struct ectx *x, const struct fresh_table *saved)
{
	forget_fresh_table(&x->fresh);
	for (int i = 0; i < saved->n; i++)
		table_add(&x->fresh, saved->v[i].usr, saved->v[i].mark, saved->v[i].group);
}

/* Did the events numbered FROM or later (the loop's condition, whose
 * && and || operands have blocks of their own) make a marked
 * read-modify-write (a compare-and-swap, an exchange)? */
static int tried_rmw(const struct ectx *x, int from)
{
	for (int b = 0; b < x->fn->nblocks; b++)
		for (int k = x->fn->blocks[b].nevents - 1; k >= 0 && x->fn->blocks[b].events[k].index >= from; k--) {
			const struct event *e = &x->fn->blocks[b].events[k];

			if (e->kind == EV_ACCESS && e->marked && e->access == ACC_RMW)
				return 1;
		}
	return 0;
}

void fresh_retry_body(struct ectx *x, const struct fresh_table *saved, int from, struct fresh_table *lost)
{
	if (!tried_rmw(x, from))
		return;
	for (int i = 0; i < saved->n; i++)
		if (fresh_at(x, saved->v[i].usr) < 0) {
			table_add(&x->fresh, saved->v[i].usr, saved->v[i].mark, saved->v[i].group);
			table_add(lost, saved->v[i].usr, saved->v[i].mark, saved->v[i].group);
		}
}

void fresh_after_retry(struct ectx *x, struct fresh_table *lost)
{
	for (int i = 0; i < lost->n; i++) {
		int k = fresh_at(x, lost->v[i].usr);

		if (k >= 0) {
			free(x->fresh.v[k].usr);
			free(x->fresh.v[k].mark);
			x->fresh.v[k] = x->fresh.v[--x->fresh.n];
		}
	}
	forget_fresh_table(lost);
}

/* The name a local's items in the uses carry: the last part of its USR
 * ("c:t.c@120@F@main@cp" is "cp"). */
static const char *local_name(const char *usr)
{
	const char *at = strrchr(usr, '@');

	return at ? at + 1 : usr;
}

/* USES (a ",a,@3," list) with every item MARK in the address role turned
 * into AGAIN (NULL: dropped), when the list names local NAME (in any role:
 * "cp", "#1=cp"); NULL when it does not.  (A call's arguments keep their
 * marks: AGAIN may name a call of the body ("!kept:@E:A"), and E's own
 * argument must not come to name E, nor a later call that names it.) */
static char *remark(const char *uses, const char *name, const char *mark, const char *again)
{
	struct dep_list l;
	struct deps out = { 0 };
	int named = 0;

	dep_list_parse(uses, &l);
	for (int i = 0; i < l.n && !named; i++)
		named = l.v[i].kind == DEP_LOCAL && l.v[i].name && strcmp(l.v[i].name, name) == 0;
	for (int i = 0; named && i < l.n; i++) {
		struct dep_item d = l.v[i];
		char *item = NULL, *base;

		if (d.role == DEP_ADDRESS) {
			base = dep_item_text(&d);
			if (strcmp(base, mark) == 0)
				item = xstrdup(again ? again : "");
			free(base);
		}
		if (!item)
			item = dep_item_text(&l.v[i]);
		if (*item)
			deps_add(&out, item);
		free(item);
	}
	dep_list_free(&l);
	if (!named)
		return NULL;
	return out.buf ? out.buf : xstrdup("");
}

/* Does the list USES pass or store local NAME whole: an argument or a
 * stored value whose only local is NAME ("#1=cp", "~cp"), not an element
 * picked by an index that changes each round ("#1=pap,#1=i": &pap[i],
 * pap + i, the round's own element)? */
static int hands_whole(const char *uses, const char *name)
{
	struct dep_list l;
	int whole = 0;

	dep_list_parse(uses, &l);
	for (int i = 0; i < l.n && !whole; i++) {
		const struct dep_item *d = &l.v[i];
		int others = 0;

		if ((d->role != DEP_ARGUMENT && d->role != DEP_VALUE) || d->kind != DEP_LOCAL || strcmp(d->name, name) != 0)
			continue;
		for (int k = 0; k < l.n; k++)
			others += k != i && l.v[k].role == d->role && l.v[k].arg == d->arg && l.v[k].kind == DEP_LOCAL;
		whole = others == 0;
	}
	dep_list_free(&l);
	return whole;
}

/* The events of the loop body: those of the function numbered FROM or
 * later.  *N gets their number; the caller frees the array. */
static struct event **body_events(struct ectx *x, int from, int *n)
{
	struct event **v = NULL;
	int cap = 0;

	*n = 0;
	for (int b = 0; b < x->fn->nblocks; b++)
		for (int j = 0; j < x->fn->blocks[b].nevents; j++)
			if (x->fn->blocks[b].events[j].index >= from) {
				grow(&v, &cap, *n + 1, sizeof *v);
				v[(*n)++] = &x->fn->blocks[b].events[j];
			}
	return v;
}

void fresh_loop_again(struct ectx *x, const struct fresh_table *saved, int from)
{
	struct event **body;
	int n, retry = 0;

	if (saved->n == 0)
		return;
	body = body_events(x, from, &n);
	/* A body that tries a compare-and-swap is taken as a retry loop, as
	 * in a loop condition (fresh_retry_body): it runs again after the
	 * try failed, when the try handed nothing on. */
	for (int j = 0; j < n; j++)
		retry |= body[j]->kind == EV_ACCESS && body[j]->marked && body[j]->access == ACC_RMW;
	for (int i = 0; i < saved->n && !retry; i++) {
		const struct fresh_pointer *was = &saved->v[i];
		const char *name = local_name(was->usr);
		int k = fresh_at(x, was->usr), whole = 0;
		const char *now = k >= 0 ? x->fresh.v[k].mark : NULL;

		if (now && strcmp(now, was->mark) == 0)
			continue;           /* still fresh, as it came in */
		for (int j = 0; j < n && !whole; j++)
			whole = body[j]->uses && hands_whole(body[j]->uses, name);
		if (!whole)
			continue;           /* each round hands on its own element only */
		for (int j = 0; j < n; j++) {
			char *uses = body[j]->uses ? remark(body[j]->uses, name, was->mark, now) : NULL;

			if (uses) {
				free(body[j]->uses);
				body[j]->uses = uses;
			}
		}
	}
	free(body);
}

void free_fresh(struct fresh_table *t)
{
	forget_fresh_table(t);
	free(t->v);
	t->v = NULL;
	t->cap = 0;
}

const char *fresh_mark(struct ectx *x, CXCursor var)
{
	CXString s = clang_getCursorUSR(var);
	int i = fresh_at(x, clang_getCString(s));

	clang_disposeString(s);
	return i >= 0 ? x->fresh.v[i].mark : NULL;
}

static CXCursor strip_casts(CXCursor value)
{
	while (clang_getCursorKind(value) == CXCursor_ParenExpr ||
	       clang_getCursorKind(value) == CXCursor_CStyleCastExpr ||
	       clang_getCursorKind(value) == CXCursor_UnexposedExpr) {
		CXCursor *k;
		int n = children(value, &k);

		if (n == 0) {
			free(k);
			break;
		}
		value = k[n - 1];
		free(k);
	}
	return value;
}

char *allocation_mark(struct ectx *x, CXCursor value)
{
	static const char *const allocators[] = {
		"malloc", "calloc", "aligned_alloc", "kmalloc", "kzalloc", "kcalloc",
	};
	CXString s;
	CXCursor callee;
	char *r = NULL;

	value = strip_casts(value);
	if (clang_getCursorKind(value) != CXCursor_CallExpr)
		return NULL;
	s = clang_getCursorSpelling(value);
	for (size_t i = 0; i < sizeof allocators / sizeof allocators[0]; i++)
		if (strcmp(clang_getCString(s), allocators[i]) == 0)
			r = dep_source_text(DEP_NEW, 0, NULL);
	clang_disposeString(s);
	callee = clang_getCursorReferenced(value);
	/* a pool's allocation the profile declares (perfbook's procon_alloc
	 * takes a block off the calling thread's own pool): the caller's */
	if (!r && clang_getCursorKind(callee) == CXCursor_FunctionDecl && contract_of(x, callee, OP_ALLOC))
		r = dep_source_text(DEP_NEW, 0, NULL);
	if (!r && clang_getCursorKind(callee) == CXCursor_FunctionDecl &&
	    clang_getCanonicalType(clang_getCursorType(value)).kind == CXType_Pointer) {
		char *key = function_link_key(callee);

		r = dep_source_text(DEP_NEW_FROM, 0, key);
		free(key);
	}
	return r;
}

int is_null_constant(CXCursor value)
{
	CXCursor v = strip_casts(value);
	CXEvalResult ev;
	int null = 0;

	if (clang_getCursorKind(v) == CXCursor_GNUNullExpr)
		return 1;
	if (clang_getCursorKind(v) != CXCursor_IntegerLiteral)
		return 0;
	ev = clang_Cursor_Evaluate(v);
	null = ev && clang_EvalResult_getKind(ev) == CXEval_Int && clang_EvalResult_getAsLongLong(ev) == 0;
	if (ev)
		clang_EvalResult_dispose(ev);
	return null;
}

static int is_integer_type(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;

	return k >= CXType_Char_U && k <= CXType_Int128 && k != CXType_Bool;
}

/* The locals a GNU statement expression declares, which the walk has not
 * reached yet when a return is looked at (container_of's __mptr). */
struct inner_locals { CXCursor v[4]; int n; };

/* Adds the variables that declaration statement D declares to IN. */
static void note_inner_locals(CXCursor d, struct inner_locals *in)
{
	CXCursor *vars;
	int n = children(d, &vars);

	for (int i = 0; i < n && in->n < 4; i++)
		if (clang_getCursorKind(vars[i]) == CXCursor_VarDecl)
			in->v[in->n++] = vars[i];
	free(vars);
}

static int is_inner_local(const struct inner_locals *in, CXCursor var)
{
	for (int i = 0; i < in->n; i++)
		if (clang_equalCursors(in->v[i], var))
			return 1;
	return 0;
}

/* The pointer V points into the memory of, as far as a return can tell:
 * pointer arithmetic and the address of a member through a pointer stay
 * in the same allocation (return &p->field; container_of's
 * (char *)__mptr - offsetof(type, member)), and a GNU statement
 * expression yields its last expression, where a local it declares
 * itself stands for its initialiser.  IN: those locals so far; DEPTH
 * bounds the walk. */
static CXCursor pointer_origin(CXCursor v, struct inner_locals *in, int depth)
{
	CXCursor *kids, r;
	int n;

	r = v = strip_casts(v);
	if (depth > 8)
		return v;
	n = children(v, &kids);
	switch (clang_getCursorKind(v)) {
	case CXCursor_StmtExpr:
		/* ({ decls; ...; last; }): the compound statement's last child */
		if (n == 1) {
			CXCursor *stmts;
			int m = children(kids[0], &stmts);

			for (int i = 0; i + 1 < m; i++)
				if (clang_getCursorKind(stmts[i]) == CXCursor_DeclStmt)
					note_inner_locals(stmts[i], in);
			if (m > 0 && clang_isExpression(clang_getCursorKind(stmts[m - 1])))
				r = pointer_origin(stmts[m - 1], in, depth + 1);
			free(stmts);
		}
		break;
	case CXCursor_BinaryOperator:
		/* pointer +/- integer, told by the types (the operator's
		 * token is not at hand inside a macro's expansion) */
		if (n == 2 && clang_getCanonicalType(clang_getCursorType(v)).kind == CXType_Pointer &&
		    clang_getCanonicalType(clang_getCursorType(kids[0])).kind == CXType_Pointer &&
		    is_integer_type(clang_getCursorType(kids[1])))
			r = pointer_origin(kids[0], in, depth + 1);
		break;
	case CXCursor_UnaryOperator:
		/* &m, told by the types: its result points to m's type */
		if (n == 1 && clang_getCursorKind(kids[0]) == CXCursor_MemberRefExpr &&
		    clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(clang_getCursorType(v))),
				     clang_getCanonicalType(clang_getCursorType(kids[0])))) {
			CXCursor *base;
			int m = children(kids[0], &base);

			/* &p->field, not &s.field of a struct object */
			if (m == 1 && clang_getCanonicalType(clang_getCursorType(base[0])).kind == CXType_Pointer)
				r = pointer_origin(base[0], in, depth + 1);
			free(base);
		}
		break;
	case CXCursor_DeclRefExpr: {
		CXCursor ref = clang_getCursorReferenced(v), *init;
		int m;

		if (!is_inner_local(in, ref))
			break;
		m = children(ref, &init);
		if (m > 0 && clang_isExpression(clang_getCursorKind(init[m - 1])))
			r = pointer_origin(init[m - 1], in, depth + 1);
		free(init);
		break;
	}
	default:
		break;
	}
	free(kids);
	return r;
}

char *return_mark(struct ectx *x, CXCursor value)
{
	struct inner_locals in = { .n = 0 };
	CXCursor v = pointer_origin(value, &in, 0);

	if (clang_getCursorKind(v) == CXCursor_DeclRefExpr) {
		CXCursor ref = clang_getCursorReferenced(v);
		const char *m = is_local(ref) ? fresh_mark(x, ref) : NULL;

		return m && !dep_text_is(m, DEP_NEW_PARAM) ? xstrdup(m) : NULL;
	}
	if (clang_getCursorKind(v) == CXCursor_CallExpr)
		return allocation_mark(x, v);
	/* NULL, 0: a failed allocation */
	return is_null_constant(v) ? dep_source_text(DEP_NULL, 0, NULL) : NULL;
}

/* Is C &v, the address of local or global V itself (not &v->f, not *v)?
 * Told by the types: &'s result points to its operand's type. */
static int address_of_variable(CXCursor c)
{
	CXCursor *kids;
	int n = children(c, &kids), r;

	r = n == 1 && clang_getCursorKind(strip_casts(kids[0])) == CXCursor_DeclRefExpr &&
	    clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(clang_getCursorType(c))),
			     clang_getCanonicalType(clang_getCursorType(kids[0])));
	free(kids);
	return r;
}

CXCursor base_pointer(CXCursor c)
{
	for (int depth = 0; depth < 16; depth++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		CXCursor *kids;
		int n;

		/* &r points into nothing r holds: it is where r is */
		if (k == CXCursor_UnaryOperator && address_of_variable(c))
			break;

		if (k == CXCursor_DeclRefExpr) {
			CXCursor ref = clang_getCursorReferenced(c);

			return clang_getCanonicalType(clang_getCursorType(ref)).kind == CXType_Pointer
				? ref : clang_getNullCursor();
		}
		if (k != CXCursor_MemberRefExpr && k != CXCursor_ArraySubscriptExpr &&
		    k != CXCursor_UnaryOperator && k != CXCursor_ParenExpr &&
		    k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr &&
		    k != CXCursor_BinaryOperator)
			break;
		n = children(c, &kids);
		if (n < 1 || (k == CXCursor_BinaryOperator && n != 2)) {
			free(kids);
			break;
		}
		if (k == CXCursor_BinaryOperator)
			/* p + i, i + p; for address arithmetic done in integers
			 * ((uintptr_t)&map[1] + pad) the left operand */
			c = clang_getCanonicalType(clang_getCursorType(kids[1])).kind == CXType_Pointer
				? kids[1] : kids[0];
		else
			c = k == CXCursor_CStyleCastExpr || k == CXCursor_UnexposedExpr ? kids[n - 1] : kids[0];
		free(kids);
	}
	return clang_getNullCursor();
}

const char *points_to_fresh(struct ectx *x, CXCursor c)
{
	CXCursor base = base_pointer(c);

	return !clang_Cursor_isNull(base) && is_local(base) ? fresh_mark(x, base) : NULL;
}

/* Calls seen through by pointer_value_base, nested (clear_flag(
 * flag_bucket(node))): deeper ones count as no pointer (a bound, never
 * reached in practice; it also stops a function that returns a call of
 * itself). */
#define MAX_TAGGING_CALLS 8

static CXCursor value_base(struct ectx *x, CXCursor value, int depth);

/* CALL, when its callee is a function of this translation unit whose body
 * is only "return V;", V being its parameter N as a pointer value (cast,
 * offset, or low bits set or cleared: flag_bucket(node) is
 * (struct node *)((unsigned long)node | BUCKET_FLAG)): the call's argument
 * N, the pointer it returns in another form.  Else a null cursor. */
static CXCursor tagged_argument(struct ectx *x, CXCursor call, int depth)
{
	CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(call)), *kids, *stmts, found;
	CXCursor none = clang_getNullCursor();
	int n, nstmts;

	if (depth >= MAX_TAGGING_CALLS || clang_getCursorKind(def) != CXCursor_FunctionDecl)
		return none;
	n = children(def, &kids);
	if (n == 0 || clang_getCursorKind(kids[n - 1]) != CXCursor_CompoundStmt) {
		free(kids);
		return none;
	}
	nstmts = children(kids[n - 1], &stmts);
	free(kids);
	if (nstmts != 1 || clang_getCursorKind(stmts[0]) != CXCursor_ReturnStmt || children(stmts[0], &kids) != 1) {
		free(stmts);
		return none;
	}
	found = value_base(x, kids[0], depth + 1);
	free(kids);
	free(stmts);
	if (clang_Cursor_isNull(found) || clang_getCursorKind(found) != CXCursor_ParmDecl)
		return none;
	for (int i = 0; i < clang_Cursor_getNumArguments(def); i++)
		if (clang_equalCursors(clang_Cursor_getArgument(def, i), found) && i < clang_Cursor_getNumArguments(call))
			return clang_Cursor_getArgument(call, i);
	return none;
}

int is_tagging_call(struct ectx *x, CXCursor call)
{
	return !clang_Cursor_isNull(tagged_argument(x, call, 0));
}

static CXCursor value_base(struct ectx *x, CXCursor value, int depth)
{
	CXCursor v = strip_casts(value), *kids;
	enum CXCursorKind k = clang_getCursorKind(v);
	CXCursor base = clang_getNullCursor();
	char op[8] = "";
	int n;

	if (k == CXCursor_DeclRefExpr)
		return base_pointer(v);
	if (k == CXCursor_CallExpr) {
		CXCursor arg = tagged_argument(x, v, depth);

		return clang_Cursor_isNull(arg) ? base : value_base(x, arg, depth + 1);
	}
	if (k != CXCursor_UnaryOperator && k != CXCursor_BinaryOperator)
		return base;
	n = children(v, &kids);
	operator_of(x, v, kids, n, op, sizeof op);
	if (k == CXCursor_UnaryOperator && n == 1 && strcmp(op, "&") == 0)
		base = base_pointer(v);
	else if (k == CXCursor_BinaryOperator && n == 2 && (strcmp(op, "+") == 0 || strcmp(op, "-") == 0))
		base = value_base(x, kids[0], depth);
	/* (a pointer with its low bits set or cleared, as an integer: a
	 * tagged pointer, still the same object) */
	else if (k == CXCursor_BinaryOperator && n == 2 &&
		 (strcmp(op, "|") == 0 || strcmp(op, "&") == 0 || strcmp(op, "^") == 0))
		base = value_base(x, kids[0], depth);
	free(kids);
	return base;
}

CXCursor pointer_value_base(struct ectx *x, CXCursor value)
{
	return value_base(x, value, 0);
}

/* The fresh mark of the local pointer VALUE is (pointer_value_base), or
 * NULL. */
static const char *value_fresh_mark(struct ectx *x, CXCursor value)
{
	CXCursor base = pointer_value_base(x, value);

	return !clang_Cursor_isNull(base) && is_local(base) ? fresh_mark(x, base) : NULL;
}

/* The mark local pointer VALUE had while fresh, if it has been handed on
 * since (x->handed), or NULL. */
static const char *value_handed_mark(struct ectx *x, CXCursor value)
{
	CXCursor base = pointer_value_base(x, value);
	char *usr;
	int i;

	if (clang_Cursor_isNull(base) || !is_local(base))
		return NULL;
	usr = usr_of(base);
	i = table_at(&x->handed, usr);
	free(usr);
	return i >= 0 ? x->handed.v[i].mark : NULL;
}

char *fresh_handed_on(struct ectx *x, CXCursor value, enum dep_role role, int arg)
{
	const char *m = value_fresh_mark(x, value);

	/* (handed on before: this store hands the same memory on again, a
	 * second way in for other threads) */
	if (!m)
		m = value_handed_mark(x, value);
	return m ? dep_item_with_role(m, role, arg) : NULL;
}

char *param_handed_on(struct ectx *x, CXCursor value, enum dep_role role, int arg)
{
	const char *m = value_fresh_mark(x, value);

	/* (a parameter, or one passed to calls that may keep it) */
	return m && (dep_text_is(m, DEP_NEW_PARAM) || dep_text_is(m, DEP_KEPT)) ? dep_item_with_role(m, role, arg)
									   : NULL;
}

char *param_passed(struct ectx *x, CXCursor value, int arg)
{
	CXCursor base = pointer_value_base(x, value);
	int n = clang_Cursor_isNull(base) ? -1 : parameter_number(x, base);
	char *source, *item;

	if (n < 0 && !is_null_constant(value))
		return NULL;
	source = n < 0 ? dep_source_text(DEP_NULL, 0, NULL) : dep_source_text(DEP_PARAM, n, x->fn->link_key);
	item = dep_item_with_role(source, DEP_ARGUMENT, arg);
	free(source);
	return item;
}

int note_passed_fresh(struct ectx *x, CXCursor *args, int nargs, struct passed_fresh **out)
{
	int n = 0;

	*out = NULL;
	for (int i = 0; i < nargs; i++) {
		CXCursor base = pointer_value_base(x, args[i]);
		const char *m = !clang_Cursor_isNull(base) && is_local(base) ? fresh_mark(x, base) : NULL;

		if (!m)
			continue;
		*out = xrealloc(*out, (size_t)(n + 1) * sizeof **out);
		(*out)[n].var = base;
		(*out)[n++].arg = i;
	}
	return n;
}

void keep_passed_fresh(struct ectx *x, const struct passed_fresh *v, int n, int call_index)
{
	for (int i = 0; i < n; i++) {
		struct dep_item d = { DEP_ADDRESS, DEP_KEPT, 0, call_index, NULL, -1, v[i].arg, 0, 0, 0 };

		if (!fresh_mark(x, v[i].var))
			set_fresh(x, v[i].var, dep_item_text(&d));
	}
}

void note_kept_parameters(struct ectx *x)
{
	int n = clang_Cursor_getNumArguments(x->fn_cursor);
	struct deps kept = { 0 };
	struct event *e;

	for (int i = 0; i < n; i++) {
		const char *m = fresh_mark(x, clang_Cursor_getArgument(x->fn_cursor, i));
		char *item = m ? dep_item_with_role(m, DEP_ARGUMENT, i) : NULL;

		deps_add(&kept, item);
		free(item);
	}
	if (!kept.buf)
		return;
	x->cur = x->fn->exit;
	e = emit(x, EV_LOCAL, x->fn_cursor);
	e->defines = xstrdup("?kept");
	e->uses = kept.buf;
}
