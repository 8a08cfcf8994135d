/* analyzer/frontend/extract_expr.c — expressions: which shared objects an expression
 * reads or writes, in evaluation order, and the vocabulary sites inside it.
 *
 * Object identity is what makes pairing across files work: a global is its
 * USR (the same in every TU that names it), a struct field is the field's
 * USR (the same for every instance of the struct type), an element of an
 * array or the target of a pointer is the array's or pointer's object with
 * "[]" appended.  Locals are not shared, unless their address escapes, and
 * neither is what a pointer holding only their addresses designates
 * (extract_locals.c).
 *
 * Every access also carries "uses": the locals (and marked reads, as
 * "@N") its address is computed from, so that the analysis can tell an
 * address dependency on a marked read (rcu_dereference style: ordered)
 * from an independent read (not ordered). */
#include "extract_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is ITEM (N characters) one of the items of ",a,@3," list BUF?  Items
 * hold paths (link keys of static functions): no copy into a buffer of
 * fixed size, which cut long items and then matched their prefixes. */
static int has_item(const char *buf, const char *item, size_t n)
{
	for (const char *p = buf; (p = strstr(p, item)) != NULL; p++)
		if (p > buf && p[-1] == ',' && p[n] == ',')
			return 1;
	return 0;
}

void deps_add(struct deps *d, const char *item)
{
	size_t n = item ? strlen(item) : 0;

	if (!d || !item)
		return;
	if (d->buf && n > 0 && has_item(d->buf, item, n))
		return;
	if (d->len + n + 3 > d->cap) {
		d->cap = (d->len + n + 3) * 2;
		d->buf = xrealloc(d->buf, d->cap);
		if (d->len == 0)
			d->buf[0] = '\0';
	}
	if (d->len == 0) {
		d->buf[0] = ',';
		d->len = 1;
	}
	memcpy(d->buf + d->len, item, n);
	d->len += n;
	d->buf[d->len++] = ',';
	d->buf[d->len] = '\0';
}

/* Adds every item of the ",a,@3," list TEXT to INTO. */
void deps_merge_text(struct deps *into, const char *text)
{
	char *copy, *tok, *save = NULL;

	if (!into || !text)
		return;
	copy = xstrdup(text);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		deps_add(into, tok);
	free(copy);
}

static void deps_merge(struct deps *into, const struct deps *from)
{
	deps_merge_text(into, from->buf);
}

/* Adds to INTO each local and marked read of the list TEXT (not the
 * parameter, fresh-memory, argument or value marks), written PREFIX ITEM:
 * "~x" (a stored value depends on x), "#2=x" (call argument 2 does). */
static void deps_add_prefixed(struct deps *into, const char *text, const char *prefix)
{
	char *copy, *tok, *save = NULL;

	if (!text)
		return;
	copy = xstrdup(text);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (tok[0] != '$' && tok[0] != '!' && tok[0] != '#' && tok[0] != '~') {
			char *item = xasprintf("%s%s", prefix, tok);

			deps_add(into, item);
			free(item);
		}
	free(copy);
}

static CXCursor first_child(CXCursor c)
{
	CXCursor *k, r = clang_getNullCursor();
	int n = children(c, &k);

	if (n > 0)
		r = k[0];
	free(k);
	return r;
}

/* Strips parentheses and casts (implicit ones are UnexposedExpr). */
static CXCursor strip(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		CXCursor *kids;
		int n;

		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
			return c;
		n = children(c, &kids);
		if (n == 0) {
			free(kids);
			return c;
		}
		c = kids[n - 1];   /* a cast's first child may be its TypeRef */
		free(kids);
	}
}

static char *usr_of(CXCursor c)
{
	CXString s = clang_getCursorUSR(c);
	char *r = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	if (!r || !*r) {
		free(r);
		return NULL;
	}
	return r;
}

static char *spelling_of(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return r;
}

/* The source text of C when it is written in the file as one piece. */
static char *text_of(struct ectx *x, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2;
	unsigned l, col, o1, o2;
	size_t size;
	const char *text;
	char *out;
	size_t n = 0;

	loc_of(clang_getRangeStart(r), &f1, &l, &col, &o1);
	loc_of(clang_getRangeEnd(r), &f2, &l, &col, &o2);
	if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o2 <= o1 || o2 - o1 > 200 ||
	    !extent_is_text(x, c, f1, o1, o2))
		return NULL;
	text = file_text(x, f1, &size);
	if (!text || o2 > size)
		return NULL;
	out = xmalloc(o2 - o1 + 1);
	for (unsigned i = o1; i < o2; i++)   /* fold white space */
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
			out[n++] = text[i];
	out[n] = '\0';
	return out;
}

/* How C is shown to the user: its text, or (written by a macro) its AST
 * printed as C, never the text of the macro invocation around it. */
static char *display_text(struct ectx *x, CXCursor c)
{
	return text_of(x, c) ?: ast_text(x, c);
}

static int is_escaping(struct ectx *x, const char *usr)
{
	return local_escapes(x, usr);
}

/* Is REF (a declaration) a variable local to the function being walked
 * (a parameter, or an automatic variable)? */
int is_local(CXCursor ref)
{
	enum CXCursorKind k = clang_getCursorKind(ref);

	if (k == CXCursor_ParmDecl)
		return 1;
	if (k != CXCursor_VarDecl)
		return 0;
	if (clang_getCursorKind(clang_getCursorSemanticParent(ref)) == CXCursor_TranslationUnit)
		return 0;
	return clang_Cursor_getStorageClass(ref) != CX_SC_Static &&
	       clang_Cursor_getStorageClass(ref) != CX_SC_Extern;
}

static int is_array_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray;
}

static char *object_of_pointer(struct ectx *x, CXCursor c);
static char *function_named(CXCursor c);
static void handle_call_in_macro(struct ectx *x, const struct vocab_entry *v, CXCursor c);

/* Local pointers that always point into one object (int *slot = &buf[i];
 * char *dst = r->data;) stand for that object.  Flow-insensitive: a local
 * given two different objects stands for none. */
void forget_aliases(struct ectx *x)
{
	for (int i = 0; i < x->naliases; i++) {
		free(x->aliases[i].usr);
		free(x->aliases[i].target);
	}
	x->naliases = 0;
}

static void note_alias(struct ectx *x, const char *usr, char *target)
{
	for (int i = 0; i < x->naliases; i++)
		if (strcmp(x->aliases[i].usr, usr) == 0) {
			if (x->aliases[i].target && (!target || strcmp(x->aliases[i].target, target) != 0)) {
				free(x->aliases[i].target);
				x->aliases[i].target = NULL;
			}
			free(target);
			return;
		}
	grow(&x->aliases, &x->aliascap, x->naliases + 1, sizeof *x->aliases);
	x->aliases[x->naliases].usr = xstrdup(usr);
	x->aliases[x->naliases++].target = target;
}

static char *alias_target(struct ectx *x, CXCursor ref)
{
	CXString s = clang_getCursorUSR(ref);
	const char *usr = clang_getCString(s);
	char *r = NULL;

	for (int i = 0; usr && i < x->naliases; i++)
		if (strcmp(x->aliases[i].usr, usr) == 0 && x->aliases[i].target)
			r = xstrdup(x->aliases[i].target);
	clang_disposeString(s);
	return r;
}

/* The target of pointer parameter REF of the function being walked, as
 * "p:LINKKEY:N": the analysis replaces it, at each call, by the object the
 * caller passes (lock(&l) -> l).  NULL if REF is no parameter. */
static char *parameter_target(struct ectx *x, CXCursor ref)
{
	int n = clang_Cursor_getNumArguments(x->fn_cursor);

	if (clang_getCursorKind(ref) != CXCursor_ParmDecl)
		return NULL;
	for (int i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(x->fn_cursor, i), ref))
			return xasprintf("p:%s:%d", x->fn->link_key, i);
	return NULL;
}

/* The object that lvalue C designates, or NULL when it is not shared (a
 * local) or not known.  Sets *DISPLAY when non-NULL. */
/* USR, the USR of variable REF, with a file-static's file named by its
 * whole path: clang names it by the file's base name ("c:serial.c@keys"),
 * which makes the statics of two serial.c files of a tree one object.
 * Takes USR; returns the key to use. */
static char *static_with_path(CXCursor ref, char *usr)
{
	const char *at = strchr(usr + 2, '@');
	char *path, *key;

	if (strncmp(usr, "c:", 2) != 0 || usr[2] == '@' || !at || at == usr + 2)
		return usr;
	path = cursor_file_name(ref);
	if (!path)
		return usr;
	key = xasprintf("c:%s%s", path, at);
	free(path);
	free(usr);
	return key;
}

static char *object_of_lvalue(struct ectx *x, CXCursor c);

static char *object_of_lvalue_in(struct ectx *x, CXCursor c)
{
	enum CXCursorKind k;

	c = strip(c);
	k = clang_getCursorKind(c);
	/* v.a, (&v)->a, p->a with p = &v: part of a local that stays
	 * private, whichever way it is reached */
	if (private_lvalue(x, c))
		return NULL;
	if (k == CXCursor_DeclRefExpr) {
		CXCursor ref = clang_getCursorReferenced(c);
		char *usr;

		if (clang_getCursorKind(ref) != CXCursor_VarDecl && clang_getCursorKind(ref) != CXCursor_ParmDecl)
			return NULL;
		if (clang_getCursorTLSKind(ref) != CXTLS_None)
			return NULL;        /* __thread / _Thread_local: one per thread */
		usr = usr_of(ref);
		if (!usr)
			return NULL;
		if (is_local(ref) && !is_escaping(x, usr)) {
			free(usr);
			return NULL;
		}
		return is_local(ref) ? usr : static_with_path(ref, usr);
	}
	if (k == CXCursor_MemberRefExpr) {
		CXCursor base = strip(first_child(c));
		CXCursor field = clang_getCursorReferenced(c);

		if (clang_Cursor_isNull(field))
			return NULL;
		/* s.f on a struct local to this function is not shared. */
		if (!clang_Cursor_isNull(base) && clang_getCursorType(base).kind != CXType_Pointer &&
		    clang_getCursorKind(base) == CXCursor_DeclRefExpr) {
			char *b = object_of_lvalue(x, base);

			if (!b)
				return NULL;
			free(b);
		}
		return usr_of(field);
	}
	if (k == CXCursor_ArraySubscriptExpr) {
		CXCursor *kids;
		int n = children(c, &kids);
		char *r = NULL;

		if (n >= 1) {
			CXCursor base = strip(kids[0]);

			r = is_array_type(clang_getCursorType(base)) ? object_of_lvalue(x, base)
								     : object_of_pointer(x, kids[0]);
		}
		free(kids);
		return r;
	}
	if (k == CXCursor_UnaryOperator) {
		/* *p: the object p points to. */
		return object_of_pointer(x, first_child(c));
	}
	return NULL;
}

/* object_of_lvalue, one level deeper (extract_int.h, nest_enter). */
static char *object_of_lvalue(struct ectx *x, CXCursor c)
{
	char *r = nest_enter(x) ? object_of_lvalue_in(x, c) : NULL;

	nest_leave(x);
	return r;
}

/* The object a pointer-valued expression C points to, or NULL. */
static char *object_of_pointer(struct ectx *x, CXCursor c);

static char *object_of_pointer_in(struct ectx *x, CXCursor c)
{
	enum CXCursorKind k;
	CXType t;
	char *r;

	c = strip(c);
	k = clang_getCursorKind(c);
	t = clang_getCursorType(c);
	if ((r = private_pointee(x, c)) != NULL) {
		free(r);              /* into a private local: no shared object */
		return NULL;
	}
	if (k == CXCursor_UnaryOperator) {
		/* &lvalue (the only unary operator yielding a pointer here). */
		CXCursor *kids;
		int n = children(c, &kids);
		char op[8], *r = NULL;

		operator_of(x, c, kids, n, op, sizeof op);
		if (n == 1 && strcmp(op, "&") == 0)
			r = object_of_lvalue(x, kids[0]);
		free(kids);
		return r;
	}
	if (is_array_type(t))
		return object_of_lvalue(x, c);     /* an array decaying to a pointer */
	if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) {
		char *p = object_of_lvalue(x, c);
		CXType pointee;

		if (p) {
			char *r = xasprintf("%s[]", p);
			free(p);
			return r;
		}
		/* A local pointer: name the target by its type when that is a
		 * struct, union or typedef (atomic_t *v), which is how the
		 * same object is reached from another function. */
		pointee = clang_getCanonicalType(clang_getPointeeType(t));
		if (pointee.kind == CXType_Record) {
			CXString s = clang_getTypeSpelling(pointee);
			char *r = xasprintf("t:%s", clang_getCString(s));
			clang_disposeString(s);
			return r;
		}
		if (k != CXCursor_DeclRefExpr)
			return NULL;
		return alias_target(x, clang_getCursorReferenced(c)) ?: parameter_target(x, clang_getCursorReferenced(c));
	}
	if (k == CXCursor_BinaryOperator) {   /* p + i */
		CXCursor *kids;
		int n = children(c, &kids);
		char *r = NULL;

		if (n == 2)
			r = object_of_pointer(x, clang_getCursorType(kids[0]).kind == CXType_Pointer ||
					      is_array_type(clang_getCursorType(kids[0])) ? kids[0] : kids[1]);
		free(kids);
		return r;
	}
	return NULL;
}

/* object_of_pointer, one level deeper (extract_int.h, nest_enter). */
static char *object_of_pointer(struct ectx *x, CXCursor c)
{
	char *r = nest_enter(x) ? object_of_pointer_in(x, c) : NULL;

	nest_leave(x);
	return r;
}

struct event *emit(struct ectx *x, enum ev_kind kind, CXCursor at)
{
	struct event *e = block_add_event(&x->fn->blocks[x->cur]);
	CXFile f;
	unsigned l, col, off;

	e->kind = kind;
	e->index = x->nevents++;
	loc_of(clang_getCursorLocation(at), &f, &l, &col, &off);
	if (f) {
		CXString s = clang_getFileName(f);
		e->file = xstrdup(clang_getCString(s));
		clang_disposeString(s);
	}
	e->line = l;
	e->col = col;
	return e;
}

/* Reads the operator of a unary or binary operator node from the file:
 * the text between the operands, when the operands are written there.  A
 * node out of a macro body (SET(x, v) ((x) = (v))) has no such text: its
 * operator comes from the AST and the macro's own text (extract_text.c). */
void operator_of(struct ectx *x, CXCursor c, CXCursor *kids, int n, char *op, size_t oplen)
{
	CXFile f, fo;
	unsigned l, col, start, ostart, oend;
	size_t size, k = 0;
	const char *text = NULL;

	op[0] = '\0';
	loc_of(clang_getRangeStart(clang_getCursorExtent(c)), &f, &l, &col, &start);
	if (f && n >= 1)
		text = file_text(x, f, &size);
	if (!text)
		goto ast;
	if (n == 2) {
		/* Binary: scan back from the right operand over spaces.  If
		 * that operand is a macro argument, what precedes it is the
		 * "(" or "," of the invocation, and nothing is found. */
		CXSourceLocation rs = clang_getRangeStart(clang_getCursorExtent(kids[1]));

		loc_of(rs, &fo, &l, &col, &ostart);
		if (!fo || !clang_File_isEqual(f, fo) || ostart > size || ostart == 0 || !written_in_file(x, rs))
			goto ast;
		unsigned i = ostart;
		while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r'))
			i--;
		unsigned e = i;
		while (i > 0 && strchr("=!<>&|+-*/%^", text[i - 1]) && e - i < oplen - 1)
			i--;
		memcpy(op, text + i, e - i);
		op[e - i] = '\0';
		goto ast;
	}
	/* Unary: prefix if the operator precedes the operand. */
	loc_of(clang_getRangeStart(clang_getCursorExtent(kids[0])), &fo, &l, &col, &ostart);
	loc_of(clang_getRangeEnd(clang_getCursorExtent(kids[0])), &fo, &l, &col, &oend);
	if (!fo || !clang_File_isEqual(f, fo) || !written_in_file(x, clang_getRangeStart(clang_getCursorExtent(c))))
		goto ast;
	if (start < ostart) {
		for (unsigned i = start; i < ostart && k < oplen - 1 && strchr("&*+-!~", text[i]); i++)
			op[k++] = text[i];
	} else {
		for (unsigned i = oend; i < size && k < oplen - 1 && strchr("+-", text[i]); i++)
			op[k++] = text[i];
	}
	op[k] = '\0';
ast:
	if (!op[0])
		ast_operator(x, c, kids, n, op, oplen);
}

/* A marked read's value may feed an address: record it in the current
 * dependency collector as "@N". */
static void note_marked_read(struct ectx *x, const struct event *e)
{
	char item[24];

	if (!x->collect || e->access == ACC_WRITE)
		return;
	snprintf(item, sizeof item, "@%d", e->index);
	deps_add(x->collect, item);
}

static int is_marked_type(CXType t, int *atomic)
{
	*atomic = t.kind == CXType_Atomic || clang_getCanonicalType(t).kind == CXType_Atomic;
	return *atomic || clang_isVolatileQualifiedType(t);
}

/* volatile sig_atomic_t talks to a signal handler of the same thread, not
 * to other threads: such accesses are neither data nor flags here. */
static int is_signal_flag(CXType t)
{
	CXString s = clang_getTypeSpelling(t);
	int r = strstr(clang_getCString(s), "sig_atomic_t") != NULL;

	clang_disposeString(s);
	return r;
}

/* Emits the access of lvalue C (already stripped) in mode M, after walking
 * the sub-expressions that compute its address. */
static void lvalue_access(struct ectx *x, CXCursor c, enum mode m)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	struct deps uses = { 0 }, *outer = x->collect;
	CXCursor *kids;
	int n = children(c, &kids);
	char *obj;
	struct event *e;
	int atomic, deref_only;

	x->collect = &uses;
	/* The base of an access is only dereferenced, not handed on (a
	 * fresh pointer stays fresh), unless the access is itself an
	 * address taken (&n->f) outside any enclosing access. */
	deref_only = m != M_ADDR || x->no_escape > 0;
	if (k == CXCursor_DeclRefExpr) {
		CXCursor ref = clang_getCursorReferenced(c);

		if (is_local(ref)) {
			char *name = spelling_of(ref), *param = parameter_target(x, ref);

			deps_add(&uses, name);
			free(name);
			/* "$KEY:N": reached through parameter N, for the callers
			 * that pass a private local (dataflow.c, through_call). */
			if (param) {
				param[0] = '$';
				memmove(param + 1, param + 2, strlen(param + 2) + 1);
				deps_add(&uses, param);
				free(param);
			}
			if (m == M_READ && !x->no_escape && !clang_equalCursors(ref, x->self_store))
				set_fresh(x, ref, NULL);
		}
	} else if (k == CXCursor_MemberRefExpr && n >= 1) {
		int arrow = clang_getCursorType(kids[0]).kind == CXType_Pointer;

		x->no_escape += deref_only || !arrow;
		walk_expr(x, kids[0], arrow ? M_READ : M_ADDR);
		x->no_escape -= deref_only || !arrow;
	} else if (k == CXCursor_ArraySubscriptExpr && n == 2) {
		x->no_escape += deref_only;
		walk_expr(x, kids[0], is_array_type(clang_getCursorType(strip(kids[0]))) ? M_ADDR : M_READ);
		x->no_escape -= deref_only;
		walk_expr(x, kids[1], M_READ);
	} else if (k == CXCursor_UnaryOperator && n == 1) {
		x->no_escape += deref_only;
		walk_expr(x, kids[0], M_READ);
		x->no_escape -= deref_only;
	}
	x->collect = outer;
	deps_merge(outer, &uses);
	/* Only this access initialises fresh memory: an access whose address
	 * merely uses a value read from it (shared[n->idx]) does not, so the
	 * mark is not passed on to the enclosing expression. */
	if (k != CXCursor_DeclRefExpr)
		deps_add(&uses, points_to_fresh(x, c));

	obj = m == M_ADDR || is_signal_flag(clang_getCursorType(c)) ? NULL : object_of_lvalue(x, c);
	if (obj) {
		e = emit(x, EV_ACCESS, c);
		e->access = m == M_WRITE ? ACC_WRITE : m == M_RMW ? ACC_RMW : ACC_READ;
		e->object = obj;
		e->display = display_text(x, c);
		e->uses = uses.buf;
		uses.buf = NULL;
		if (is_marked_type(clang_getCursorType(c), &atomic)) {
			e->marked = 1;
			e->name = xstrdup(atomic ? "_Atomic" : "volatile");
			e->ord = !atomic ? ORD_RELAXED : e->access == ACC_READ ? ORD_ACQUIRE
				: e->access == ACC_WRITE ? ORD_RELEASE : ORD_FULL;
			note_marked_read(x, e);
		}
	}
	free(uses.buf);
	free(kids);
}

static char *link_key_of_callee(CXCursor call)
{
	CXCursor fn = clang_getCursorReferenced(call);

	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return NULL;       /* a call through a pointer */
	return function_link_key(fn);
}

/* &v, an array v, or a pointer that holds only their addresses (p = &v,
 * &v.a), where v is a local of this function whose address never
 * escapes: "l:FUNCTION:v", an object private to one activation (the
 * callee's accesses through that parameter touch no shared memory). */
static char *private_local(struct ectx *x, CXCursor arg)
{
	return private_pointee(x, arg);
}

/* ARG, argument N of a call, points into fresh memory (map_init(m) right
 * after m = malloc(...)): "#N=MARK" in the call's uses says so, before
 * passing the pointer ends its freshness.  The callee's writes through
 * that parameter initialise it (fresh.c).  (Only memory fresh in this
 * function: a parameter's own "!newarg" mark is not passed further.) */
static void note_fresh_argument(struct ectx *x, struct deps *calldeps, CXCursor arg, int n)
{
	const char *fresh = points_to_fresh(x, arg);
	char *item;

	if (!fresh || strncmp(fresh, "!newarg:", 8) == 0)
		return;
	item = xasprintf("#%d=%s", n, fresh);
	deps_add(calldeps, item);
	free(item);
}

static void walk_call(struct ectx *x, CXCursor c)
{
	CXCursor *kids;
	int n = children(c, &kids);
	struct event *e;
	size_t len = 0;
	char *targets = xstrdup("");

	/* The first child is the callee; the rest are the arguments.  What
	 * each pointer argument points to is kept (in args, separated by
	 * U+001F) for the parameters of the callee. */
	int saved = x->no_escape;
	/* What each argument's value depends on, as "#N=ITEM" (N from 0),
	 * so that an access in the callee through parameter N keeps an
	 * address dependency on a marked read made by the caller
	 * (p = READ_ONCE(gp); get_a(p)). */
	struct deps argdeps = { 0 }, calldeps = { 0 }, *outer = x->collect;
	CXCursor self = x->self_store;

	x->no_escape = 0;            /* a pointer passed is handed on */
	x->self_store = clang_getNullCursor();
	for (int i = 1; i < n; i++) {
		char *obj = clang_getCursorType(kids[i]).kind == CXType_Pointer ||
			    is_array_type(clang_getCursorType(kids[i])) ? object_of_pointer(x, kids[i]) : NULL;
		char *t;

		if (!obj)
			obj = private_local(x, kids[i]);
		if (!obj && (obj = function_named(kids[i])) != NULL) {
			/* "f:KEY": a function handed to the callee, which may be a
			 * thread-creating wrapper (create_thread(fn, arg)). */
			char *f = xasprintf("f:%s", obj);

			free(obj);
			obj = f;
		}
		t = xasprintf("%s%s%s", targets, i > 1 ? "\x1f" : "", obj ? obj : "");
		free(targets);
		free(obj);
		targets = t;
		len++;
		note_fresh_argument(x, &calldeps, kids[i], i - 1);
		x->collect = &argdeps;
		walk_expr(x, kids[i], M_READ);
		x->collect = outer;
		if (argdeps.buf) {
			char prefix[16];

			snprintf(prefix, sizeof prefix, "#%d=", i - 1);
			deps_merge(outer, &argdeps);
			deps_add_prefixed(&calldeps, argdeps.buf, prefix);
			free(argdeps.buf);
			memset(&argdeps, 0, sizeof argdeps);
		}
	}
	x->no_escape = saved;
	x->self_store = self;
	e = emit(x, EV_CALL, c);
	/* The call's result, when it is part of a value ("@N" as for a
	 * marked read): a caller that tests what a callee returns
	 * (if (ready()) ...) is guarded by the reads the callee returns. */
	if (outer) {
		char item[24];

		snprintf(item, sizeof item, "@%d", e->index);
		deps_add(outer, item);
	}
	e->uses = calldeps.buf;
	e->target = link_key_of_callee(c);
	e->name = spelling_of(c);
	e->args = len ? targets : NULL;
	if (!len)
		free(targets);
	/* A call through a pointer names the pointer's object (j->complete):
	 * the analysis resolves it to the functions stored there. */
	if (!e->target && n > 0)
		e->object = object_of_lvalue(x, kids[0]);
	/* exit(1), abort(): the path ends here, with no edge to the function's
	 * exit; what follows (until a label or a join) is unreachable. */
	if (!x->conditional && never_returns(x, c))
		x->cur = new_block(x);
	free(kids);
}


/* VAR (a local variable's declaration) receives the value of VALUE,
 * written at AT: walks VALUE, then records where the value came from (for
 * dependencies) and, for a pointer, what it points to.  Returns 0 when VAR
 * is a local whose address escapes: its store is then a shared access. */
static int assign_local(struct ectx *x, CXCursor var, CXCursor value, CXCursor at)
{
	struct deps from = { 0 }, *outer = x->collect;
	char *usr = usr_of(var);
	int escaping = usr && is_escaping(x, usr), saved;

	CXCursor self = x->self_store;

	x->collect = &from;
	saved = x->no_escape;
	x->no_escape = 0;            /* a copy of a fresh pointer hands it on */
	x->self_store = clang_getNullCursor();
	walk_expr(x, value, M_READ);
	x->no_escape = saved;
	x->self_store = self;
	x->collect = outer;
	deps_merge(outer, &from);
	if (clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Pointer)
		set_fresh(x, var, escaping ? NULL : allocation_mark(value));
	if (!escaping) {
		struct event *e = emit(x, EV_LOCAL, at);

		e->defines = spelling_of(var);
		e->uses = from.buf;
		from.buf = NULL;
		if (usr && clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Pointer)
			note_alias(x, usr, object_of_pointer(x, value));
	}
	free(usr);
	free(from.buf);
	return !escaping;
}

static void walk_assignment(struct ectx *x, CXCursor lhs, CXCursor rhs)
{
	CXCursor target = strip(lhs);
	CXCursor ref = clang_getCursorReferenced(target);

	struct block *b;
	char *fn;
	struct deps value = { 0 }, *outer = x->collect;

	if (clang_getCursorKind(target) == CXCursor_DeclRefExpr && is_local(ref)) {
		if (assign_local(x, ref, rhs, target))
			return;
	} else {
		int saved = x->no_escape;
		CXCursor self = x->self_store, base = base_pointer(target);

		x->no_escape = 0;    /* a pointer stored is handed on */
		/* ... unless it is stored into its own object
		 * (n->next = (void *)&n[1]; map->entries = (char *)&map[1]):
		 * that hands it to no one else. */
		x->self_store = !clang_Cursor_isNull(base) && is_local(base) ? base : clang_getNullCursor();
		x->collect = &value;
		walk_expr(x, rhs, M_READ);
		x->collect = outer;
		deps_merge(outer, &value);
		x->no_escape = saved;
		x->self_store = self;
	}
	walk_expr(x, lhs, M_WRITE);
	b = &x->fn->blocks[x->cur];
	/* What the stored value depends on, as "~ITEM" in the store's uses:
	 * the LKMM orders a store after a load its value depends on (a data
	 * dependency: n->next = READ_ONCE(head)). */
	if (value.buf && b->nevents && b->events[b->nevents - 1].kind == EV_ACCESS &&
	    b->events[b->nevents - 1].access == ACC_WRITE) {
		struct event *w = &b->events[b->nevents - 1];
		struct deps all = { 0 };

		deps_merge_text(&all, w->uses);
		deps_add_prefixed(&all, value.buf, "~");
		free(w->uses);
		w->uses = all.buf;
	}
	free(value.buf);
	/* Storing a function's address (j->complete = mark_done): the store
	 * names the function, for calls through that pointer. */
	if (b->nevents && b->events[b->nevents - 1].kind == EV_ACCESS &&
	    b->events[b->nevents - 1].access == ACC_WRITE && (fn = function_named(rhs)))
		b->events[b->nevents - 1].target = fn;
}

/* The function that expression C names (f or &f), as a link key, or NULL. */
static char *function_named(CXCursor c)
{
	CXCursor *kids;
	int n;

	c = strip(c);
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
		n = children(c, &kids);
		if (n == 1)
			c = strip(kids[0]);
		free(kids);
	}
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	c = clang_getCursorReferenced(c);
	return clang_getCursorKind(c) == CXCursor_FunctionDecl ? function_link_key(c) : NULL;
}

struct fields { CXCursor *v; int n, cap; };

static enum CXVisitorResult collect_field(CXCursor c, CXClientData d)
{
	struct fields *f = d;

	grow(&f->v, &f->cap, f->n + 1, sizeof *f->v);
	f->v[f->n++] = c;
	return CXVisit_Continue;
}

/* COND ? KIDS[1] : KIDS[2], as control flow: each operand runs only on
 * one outcome of the condition, so what it reads is guarded by what the
 * condition tests (return READ_ONCE(flag) ? data : 0;).  The operands'
 * values still flow into whatever collects the whole expression's. */
static void walk_conditional(struct ectx *x, CXCursor *kids, enum mode m)
{
	int then_b, else_b, join;

	walk_cond(x, kids[0]);
	then_b = new_block(x);
	else_b = new_block(x);
	join = new_block(x);
	block_add_edge(x->fn, x->cur, then_b);
	block_add_edge(x->fn, x->cur, else_b);
	x->cur = then_b;
	walk_expr(x, kids[1], m == M_ADDR ? M_ADDR : M_READ);
	fall_into(x, join);
	x->cur = else_b;
	walk_expr(x, kids[2], m == M_ADDR ? M_ADDR : M_READ);
	fall_into(x, join);
	x->cur = join;
}

/* KIDS[0] && KIDS[1] (or ||): the right operand runs only on one outcome
 * of the left one (if (READ_ONCE(ready) && data) ...). */
static void walk_short_circuit(struct ectx *x, CXCursor *kids)
{
	int right, join;

	walk_cond(x, kids[0]);
	right = new_block(x);
	join = new_block(x);
	block_add_edge(x->fn, x->cur, right);
	block_add_edge(x->fn, x->cur, join);
	x->cur = right;
	walk_expr(x, kids[1], M_READ);
	fall_into(x, join);
	x->cur = join;
}

/* __builtin_expect(V, E) (likely/unlikely, caa_unlikely) is V: walked
 * as V itself, not as a call that V's value is passed to, which would
 * make a read only tested inside a helper look handed on to its callers
 * (liburcu's if (caa_unlikely(uatomic_load(&gp->futex) == -1))).
 * Returns 1 when C was such a call. */
static int walk_expect(struct ectx *x, CXCursor c, enum mode m)
{
	char *name = spelling_of(c);
	int is_expect = name && (strcmp(name, "__builtin_expect") == 0 ||
				 strcmp(name, "__builtin_expect_with_probability") == 0);
	CXCursor *kids;
	int n;

	free(name);
	if (!is_expect)
		return 0;
	n = children(c, &kids);
	if (n >= 2)
		walk_expr(x, kids[1], m);
	for (int i = 2; i < n; i++)
		walk_expr(x, kids[i], M_READ);
	free(kids);
	return 1;
}

/* { .complete = mark_done, ... }: a struct initialiser that stores
 * function addresses into fields, for calls through those fields. */
static void note_function_fields(struct ectx *x, CXCursor init)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(init));
	struct fields fields = { 0 };
	CXCursor *kids;
	int n;

	if (t.kind != CXType_Record)
		return;
	clang_Type_visitFields(t, collect_field, &fields);
	n = children(init, &kids);
	for (int i = 0; i < n; i++) {
		CXCursor field = i < fields.n ? fields.v[i] : clang_getNullCursor();
		CXCursor value = kids[i], *parts;
		int np = children(kids[i], &parts);
		char *fn;

		/* .name = value: libclang shows the designator as a MemberRef
		 * child before the value. */
		if (np >= 2 && clang_getCursorKind(parts[0]) == CXCursor_MemberRef) {
			field = clang_getCursorReferenced(parts[0]);
			value = parts[np - 1];
		}
		fn = clang_Cursor_isNull(field) ? NULL : function_named(value);
		if (fn) {
			struct event *e = emit(x, EV_ACCESS, kids[i]);

			e->access = ACC_WRITE;
			e->object = usr_of(field);
			e->display = spelling_of(field);
			e->target = fn;
		}
		free(parts);
	}
	free(kids);
	free(fields.v);
}

void walk_expr(struct ectx *x, CXCursor c, enum mode m);

static void walk_expr_in(struct ectx *x, CXCursor c, enum mode m)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	const struct site *s = site_containing(x, c);
	struct site call_site;
	CXCursor *kids;
	int n;
	char op[8];

	if (s) {
		handle_site(x, s, c, m);
		return;
	}
	if (handle_nested_site(x, c, m))
		return;
	switch (k) {
	case CXCursor_DeclRefExpr:
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr:
		lvalue_access(x, c, m);
		return;
	case CXCursor_CallExpr:
	case CXCursor_UnexposedExpr:
		if ((k == CXCursor_CallExpr || clang_getCursorType(c).kind != CXType_Invalid) &&
		    site_from_call(x, c, &call_site)) {
			handle_site(x, &call_site, c, m);
			return;
		}
		if (k == CXCursor_CallExpr && walk_expect(x, c, m))
			return;
		if (k == CXCursor_CallExpr) {
			char *name = spelling_of(c);
			CXCursor callee = clang_getCursorReferenced(c);
			char *defined_in = clang_Cursor_isNull(callee) ? NULL : cursor_file_name(callee);
			const struct vocab_entry *v = vocab_find(x->vocab, name, defined_in);

			free(name);
			free(defined_in);
			if (v)
				handle_call_in_macro(x, v, c);
			else if (!unevaluated_call(c))
				walk_call(x, c);
			return;
		}
		break;
	case CXCursor_UnaryExpr:        /* sizeof, alignof: not evaluated */
		return;
	case CXCursor_InitListExpr:
		note_function_fields(x, c);
		break;
	case CXCursor_StmtExpr:
		n = children(c, &kids);
		for (int i = 0; i < n; i++)
			walk_stmt(x, kids[i]);
		free(kids);
		return;
	default:
		break;
	}

	n = children(c, &kids);
	if (n > 0 && (k == CXCursor_UnexposedExpr || k == CXCursor_CompoundLiteralExpr ||
		      k == CXCursor_GenericSelectionExpr)) {
		unsigned char *walk = xcalloc((size_t)n, 1);

		if (evaluated_operands(c, kids, n, walk)) {
			/* the selected _Generic association is what is used;
			 * the rest are values */
			for (int i = 0; i < n; i++)
				if (walk[i])
					walk_expr(x, kids[i], k == CXCursor_GenericSelectionExpr ? m : M_READ);
			free(walk);
			free(kids);
			return;
		}
		free(walk);
	}
	if (k == CXCursor_ConditionalOperator && n == 3) {
		walk_conditional(x, kids, m);
	} else if (k == CXCursor_BinaryOperator && n == 2) {
		operator_of(x, c, kids, n, op, sizeof op);
		if (strcmp(op, "=") == 0)
			walk_assignment(x, kids[0], kids[1]);
		else if (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0)
			walk_short_circuit(x, kids);
		else {
			int lazy = strcmp(op, "&&") == 0 || strcmp(op, "||") == 0;

			walk_expr(x, kids[0], M_READ);
			x->conditional += lazy;       /* (x || abort()) */
			walk_expr(x, kids[1], M_READ);
			x->conditional -= lazy;
		}
	} else if (k == CXCursor_CompoundAssignOperator && n == 2) {
		walk_expr(x, kids[1], M_READ);
		walk_expr(x, kids[0], M_RMW);
	} else if (k == CXCursor_UnaryOperator && n == 1) {
		operator_of(x, c, kids, n, op, sizeof op);
		if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
			walk_expr(x, kids[0], M_RMW);
		else if (strcmp(op, "&") == 0)
			walk_expr(x, kids[0], M_ADDR);
		else if (strcmp(op, "*") == 0)
			lvalue_access(x, c, m);
		else
			walk_expr(x, kids[0], M_READ);
	} else if (k == CXCursor_CStyleCastExpr && n >= 1) {
		/* Transparent: the mode reaches the operand, the last child.
		 * Expressions before it are in the type ((__typeof__(x) *)&x)
		 * and are not evaluated. */
		if (clang_isExpression(clang_getCursorKind(kids[n - 1])))
			walk_expr(x, kids[n - 1], m);
	} else if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr) {
		/* Transparent: the mode reaches the operand. */
		for (int i = 0; i < n; i++)
			if (clang_isExpression(clang_getCursorKind(kids[i])))
				walk_expr(x, kids[i], m);
	} else {
		/* c ? a : b: a and b are walked in one block, as if both ran */
		int lazy = k == CXCursor_ConditionalOperator;

		for (int i = 0; i < n; i++) {
			enum CXCursorKind ck = clang_getCursorKind(kids[i]);

			x->conditional += lazy && i == 1;
			if (clang_isExpression(ck))
				walk_expr(x, kids[i], M_READ);
			else if (clang_isStatement(ck))
				walk_stmt(x, kids[i]);
		}
		x->conditional -= lazy && n > 1;
	}
	free(kids);
}

/* walk_expr, one level deeper (extract_int.h, nest_enter). */
void walk_expr(struct ectx *x, CXCursor c, enum mode m)
{
	if (nest_enter(x))
		walk_expr_in(x, c, m);
	nest_leave(x);
}

/* The outermost descendants of C written inside argument ranges of S:
 * ROOTS[i] gets argument i's expression (null when not found). */
void find_arg_roots(struct ectx *x, const struct site *s, CXCursor c, CXCursor *roots, int depth)
{
	CXCursor *kids;
	int n;

	if (depth > 64)
		return;
	n = children(c, &kids);
	for (int i = 0; i < n; i++) {
		CXSourceRange r = clang_getCursorExtent(kids[i]);
		CXFile f1, f2;
		unsigned l, col, o1, o2;
		int a, found = 0;

		loc_of(clang_getRangeStart(r), &f1, &l, &col, &o1);
		loc_of(clang_getRangeEnd(r), &f2, &l, &col, &o2);
		if (f1 && f2 && clang_File_isEqual(f1, s->file) && clang_File_isEqual(f2, s->file))
			for (a = 0; a < s->nargs; a++)
				if (s->astart[a] <= o1 && o2 <= s->aend[a] && o2 > o1) {
					if (clang_Cursor_isNull(roots[a]))
						roots[a] = kids[i];
					found = 1;
					break;
				}
		if (!found)
			find_arg_roots(x, s, kids[i], roots, depth + 1);
	}
	free(kids);
	(void)x;
}

static char *arg_texts(struct ectx *x, const struct site *s)
{
	size_t size, len = 0;
	const char *text = file_text(x, s->file, &size);
	char *out = xmalloc(s->end - s->start + 2);

	for (int a = 0; a < s->nargs; a++) {
		unsigned i = s->astart[a], e = s->aend[a];

		while (i < e && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n'))
			i++;
		while (e > i && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\n'))
			e--;
		if (a)
			out[len++] = '\x1f';
		memcpy(out + len, text + i, e - i);
		len += e - i;
	}
	out[len] = '\0';
	return out;
}

/* Walks the arguments of primitive U (written at C) and emits its event. */
void emit_primitive(struct ectx *x, struct use_of *u, CXCursor c)
{
	const struct vocab_entry *v = u->v;
	struct deps uses = { 0 }, *outer = x->collect;
	enum ev_kind kind;
	struct event *e;
	enum ord ord = v->ord;
	char *obj = NULL, *display = NULL;
	/* An access entry takes its direction from the use (an lvalue
	 * macro assigned to is a write). */
	enum op op = v->op != OP_ACCESS ? v->op : u->mode == M_WRITE ? OP_WRITE :
		     u->mode == M_RMW ? OP_RMW : OP_READ;

	int saved_no_escape = x->no_escape;
	CXCursor saved_self = x->self_store;

	/* WRITE_ONCE(head, n) hands n on; memset(n, ...), memcpy(n, src, ...)
	 * (plain accesses through a function) only use the memory they are
	 * given, and keep a fresh pointer fresh. */
	x->no_escape = v->plain ? saved_no_escape + 1 : 0;
	x->self_store = clang_getNullCursor();
	if (u->site) {
		grow(&x->active, &x->activecap, x->nactive + 1, sizeof *x->active);
		x->active[x->nactive++] = u->site;
	}
	/* Arguments in order: the object's address first collects "uses",
	 * the value arguments are ordinary reads. */
	for (int a = 0; a < u->nargs; a++) {
		if (clang_Cursor_isNull(u->roots[a]))
			continue;
		if (a == v->obj_arg) {
			x->collect = &uses;
			walk_expr(x, u->roots[a], v->lvalue ? M_ADDR : M_READ);
			x->collect = outer;
			deps_merge(outer, &uses);
			obj = v->lvalue ? object_of_lvalue(x, u->roots[a]) : object_of_pointer(x, u->roots[a]);
			if (v->plain && !v->lvalue)      /* memset(n, 0, sizeof *n) */
				deps_add(&uses, points_to_fresh(x, u->roots[a]));
			display = display_text(x, u->roots[a]);
			if (display && !v->lvalue && display[0] == '&')
				memmove(display, display + 1, strlen(display));
		} else {
			/* The values a primitive writes (WRITE_ONCE(ack,
			 * READ_ONCE(flag)): "~ITEM" in its uses, like a store's. */
			struct deps value = { 0 };

			x->collect = &value;
			walk_expr(x, u->roots[a], M_READ);
			x->collect = outer;
			deps_merge(outer, &value);
			deps_add_prefixed(&uses, value.buf, "~");
			free(value.buf);
		}
	}
	if (u->site && x->nactive > 0 && x->active[x->nactive - 1] == u->site)
		x->nactive--;
	x->no_escape = saved_no_escape;
	x->self_store = saved_self;

	if (ord == ORD_ARG) {
		const char *p = u->args;

		for (int a = 0; a < v->order_arg && p; a++) {
			p = strchr(p, '\x1f');
			if (p)
				p++;
		}
		if (p) {
			char *order = xstrdup(p), *end = strchr(order, '\x1f');

			if (end)
				*end = '\0';
			ord = ord_from_memory_order(order);
			/* C11: a seq_cst load is an acquire (earlier plain
			 * stores may pass it), a seq_cst store a release. */
			if (is_seq_cst_order(order) && op == OP_READ)
				ord = ORD_ACQUIRE;
			else if (is_seq_cst_order(order) && op == OP_WRITE)
				ord = ORD_RELEASE;
			free(order);
		} else {
			ord = v->dflt;       /* absent: the profile's default= */
		}
	}
	switch (op) {
	case OP_READ: case OP_WRITE: case OP_RMW: kind = EV_ACCESS; break;
	case OP_LOCK: kind = EV_LOCK; break;
	case OP_UNLOCK: kind = EV_UNLOCK; break;
	default: kind = EV_BARRIER; break;
	}
	e = emit(x, kind, c);
	/* The event sits where the name is written. */
	e->line = u->line;
	e->col = u->col;
	e->marked = kind == EV_ACCESS && !v->plain;
	e->discarded = u->discarded;
	e->access = op == OP_READ ? ACC_READ : op == OP_WRITE ? ACC_WRITE :
		    op == OP_RMW ? ACC_RMW : ACC_NONE;
	e->ord = v->plain ? ORD_NONE : ord;
	e->name = xstrdup(v->name);
	if (obj && kind == EV_LOCK && v->shared) {
		/* A read lock: "shared:" marks it in locksets. */
		e->object = xasprintf("shared:%s", obj);
		free(obj);
	} else {
		e->object = obj;
	}
	e->display = display;
	e->uses = uses.buf;
	e->args = u->args;
	u->args = NULL;
	if (kind == EV_ACCESS && e->marked)
		note_marked_read(x, e);
	if (v->then != ORD_NONE) {
		struct event *b = emit(x, EV_BARRIER, c);
		b->line = u->line;
		b->col = u->col;
		b->ord = v->then;
		b->name = xstrdup(v->name);
	}
}

void handle_site(struct ectx *x, const struct site *s, CXCursor c, enum mode m)
{
	CXCursor roots[SITE_MAX_ARGS];
	struct use_of u = { s->v, roots, s->nargs, NULL, s, 0, s->line, s->col, m };
	size_t size;

	if (s->v->op == OP_IGNORE)
		return;                 /* data_race(): deliberately unmarked */
	for (int i = 0; i < SITE_MAX_ARGS; i++)
		roots[i] = clang_getNullCursor();
	find_arg_roots(x, s, c, roots, 0);
	u.args = file_text(x, s->file, &size) ? arg_texts(x, s) : NULL;
	u.discarded = s->start == x->discarded_start && s->end == x->discarded_end;
	emit_primitive(x, &u, c);
	free(u.args);
}

/* A primitive called inside a macro of the project's own (BL_RUN2(...)
 * expanding to pthread_create): no argument text, but the call's children
 * are its arguments. */
static void handle_call_in_macro(struct ectx *x, const struct vocab_entry *v, CXCursor c)
{
	CXCursor *kids;
	int n = children(c, &kids);
	struct use_of u = { v, kids + 1, n > 0 ? n - 1 : 0, NULL, NULL, 0, 0, 0, M_READ };
	CXFile f;
	unsigned off;
	char *args = xstrdup("");

	if (v->op == OP_IGNORE) {
		free(kids);
		free(args);
		return;
	}
	for (int i = 1; i < n; i++) {
		char *t = display_text(x, kids[i]), *joined;
		CXCursor fn = clang_getCursorReferenced(strip(kids[i]));

		if (!t && clang_getCursorKind(fn) == CXCursor_FunctionDecl)
			t = spelling_of(fn);       /* a start routine, for pthread_create */
		joined = xasprintf("%s%s%s", args, i > 1 ? "\x1f" : "", t ? t : "");
		free(args);
		free(t);
		args = joined;
	}
	u.args = args;
	loc_of(clang_getCursorLocation(c), &f, &u.line, &u.col, &off);
	emit_primitive(x, &u, c);
	free(u.args);
	free(kids);
}

/* T var = INIT; — like an assignment to the local. */
void walk_initializer(struct ectx *x, CXCursor var, CXCursor init)
{
	if (is_local(var))          /* static locals are initialised once, constantly */
		assign_local(x, var, init, var);
}

/* Fence instructions of the common architectures, as they appear in the
 * asm text once white space is removed (text_of folds it). */
static const struct { const char *insn; enum ord ord; } fences[] = {
	{ "mfence", ORD_FULL }, { "\"dmbish\"", ORD_FULL }, { "\"dmbsy\"", ORD_FULL },
	{ "\"sync\"", ORD_FULL }, { "hwsync", ORD_FULL }, { "lock;", ORD_FULL },
	{ "fencerw,rw", ORD_FULL }, { "sfence", ORD_WMB }, { "dmbishst", ORD_WMB },
	{ "fencew,w", ORD_WMB }, { "eieio", ORD_WMB }, { "lfence", ORD_RMB },
	{ "dmbishld", ORD_RMB }, { "fencer,r", ORD_RMB }, { "lwsync", ORD_ACQ_REL },
};

/* Inline assembly not behind a named macro: recognise the fence
 * instructions by their mnemonics; anything else (a "memory" clobber) is a
 * compiler barrier, which orders nothing at run time. */
void walk_asm(struct ectx *x, CXCursor c)
{
	char *text = display_text(x, c);
	enum ord ord = ORD_NONE;
	struct event *e;

	if (!text)
		return;
	for (size_t i = 0; i < sizeof fences / sizeof fences[0]; i++)
		if (strstr(text, fences[i].insn)) {
			ord = fences[i].ord;
			break;
		}
	free(text);
	e = emit(x, EV_BARRIER, c);
	e->ord = ord;
	e->name = xstrdup("asm");
}
