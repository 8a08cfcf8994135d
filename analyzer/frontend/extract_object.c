/* analyzer/frontend/extract_object.c — naming the shared object that an lvalue
 * designates or a pointer points to, and how it is shown to the user.
 *
 * Object identity is what makes pairing across files work: a global is its
 * USR (the same in every TU that names it), a struct field is the field's
 * USR (the same for every instance of the struct type), an element of an
 * array or the target of a pointer is the array's or pointer's object with
 * "[]" appended.  Locals are not shared, unless their address escapes, and
 * neither is what a pointer holding only their addresses designates
 * (extract_locals.c). */
#include "extract_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CXCursor first_child(CXCursor c)
{
	CXCursor *k, r = clang_getNullCursor();
	int n = children(c, &k);

	if (n > 0)
		r = k[0];
	free(k);
	return r;
}

/* Strips parentheses and casts (implicit ones are UnexposedExpr). */
CXCursor strip(CXCursor c)
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

char *usr_of(CXCursor c)
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

char *spelling_of(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return r;
}

/* The source text of C when it is written in the file as one piece. */
static char *text_of(struct ectx *x, CXCursor c)
{
	struct span sp;
	CXFile f1, f2;
	unsigned o1, o2;
	size_t size;
	const char *text;
	char *out;
	size_t n = 0;

	cursor_span(x, c, &sp);
	f1 = sp.f1, o1 = sp.o1;
	f2 = sp.f2, o2 = sp.o2;
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
char *display_text(struct ectx *x, CXCursor c)
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

static enum CXVisitorResult collect_field(CXCursor c, CXClientData d)
{
	struct fields *f = d;

	grow(&f->v, &f->cap, f->n + 1, sizeof *f->v);
	f->v[f->n++] = c;
	return CXVisit_Continue;
}

void record_fields(CXType t, struct fields *out)
{
	out->n = 0;
	t = clang_getCanonicalType(t);
	if (t.kind == CXType_Record)
		clang_Type_visitFields(t, collect_field, out);
}

int is_signal_flag(CXType t)
{
	CXString s = clang_getTypeSpelling(t);
	int r = strstr(clang_getCString(s), "sig_atomic_t") != NULL;

	clang_disposeString(s);
	return r;
}

/* How deep atomic_type looks into wrappers and arrays of them. */
#define WRAP_DEPTH 6

static int atomic_type(struct ectx *x, CXType t, int depth);

struct member_walk {
	struct ectx *x;
	int depth, members, atomic;
};

static enum CXVisitorResult count_atomic_member(CXCursor c, CXClientData d)
{
	struct member_walk *w = d;

	w->members++;
	w->atomic += atomic_type(w->x, clang_getCursorType(c), w->depth);
	return CXVisit_Continue;
}

/* Is T an atomic: a scalar declared _Atomic or volatile (but volatile
 * sig_atomic_t, which talks to a signal handler), an array of atomics, or
 * a struct or union whose members are all atomics (a wrapper:
 * rte_atomic16_t, { rte_atomic16_t v; } per lcore)?  Records are
 * remembered by their USR's hash. */
static int atomic_type(struct ectx *x, CXType t, int depth)
{
	struct member_walk w = { x, depth + 1, 0, 0 };
	CXType c = clang_getCanonicalType(t);
	char *usr;
	uint64_t key;
	intptr_t *memo;
	int added, wrapper;

	if (c.kind == CXType_Atomic)
		return 1;
	if (clang_isVolatileQualifiedType(t) || clang_isVolatileQualifiedType(c))
		return !is_signal_flag(t);
	if (depth >= WRAP_DEPTH)
		return 0;
	if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray)
		return atomic_type(x, clang_getArrayElementType(c), depth + 1);
	if (c.kind != CXType_Record || !(usr = usr_of(clang_getTypeDeclaration(c))))
		return 0;
	key = fnv1a(FNV1A_START, usr, strlen(usr));
	free(usr);
	memo = hashmap_put(&x->wrappers, key, &added);
	if (!added)
		return (int)*memo - 1;
	*memo = 1;                      /* a record that holds itself: no */
	clang_Type_visitFields(c, count_atomic_member, &w);
	wrapper = w.members > 0 && w.atomic == w.members;
	/* (the walk may have grown the map: the value is looked up again) */
	*hashmap_put(&x->wrappers, key, NULL) = 1 + wrapper;
	return wrapper;
}

static enum CXVisitorResult find_atomic_member(CXCursor c, CXClientData d)
{
	struct member_walk *w = d;

	if (atomic_type(w->x, clang_getCursorType(c), 0)) {
		w->atomic = 1;
		return CXVisit_Break;
	}
	return CXVisit_Continue;
}

int has_atomic_member(struct ectx *x, CXType t)
{
	struct member_walk w = { x, 0, 0, 0 };
	CXType c = clang_getCanonicalType(t);

	if (c.kind == CXType_Record)
		clang_Type_visitFields(c, find_atomic_member, &w);
	return w.atomic;
}

/* A field is an object of its own whatever the instance
 * (object_of_lvalue: s->f is the field f), so copying a struct or union
 * accesses each of its fields: nested ones and the fields of arrays of
 * them too, as s->in.f and s->items[i].f name them (COPY_DEPTH levels). */
#define COPY_DEPTH 4

/* The fields of record type T, shown as BASE, then SEP, then the field's
 * name (cfg.rate, p->rate, p->in.lo). */
void copied_fields(CXType t, const char *base, const char *sep, int depth, struct copied *out)
{
	struct fields fields = { 0 };

	record_fields(t, &fields);
	for (int i = 0; i < fields.n; i++) {
		CXType ft = clang_getCanonicalType(clang_getCursorType(fields.v[i]));
		char *name = spelling_of(fields.v[i]);
		char *display = xasprintf("%s%s%s", base, sep, name ? name : "?");

		while (is_array_type(ft))
			ft = clang_getCanonicalType(clang_getArrayElementType(ft));
		if (ft.kind == CXType_Record && depth < COPY_DEPTH) {
			copied_fields(ft, display, ".", depth + 1, out);
			free(display);
		} else {
			char *usr = usr_of(fields.v[i]);

			if (usr) {
				grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
				out->v[out->n].object = usr;
				out->v[out->n++].display = display;
			} else {
				free(display);
			}
		}
		free(name);
	}
	free(fields.v);
}

int is_array_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray;
}

/* Local pointers that always point into one object (int *slot = &buf[i];
 * char *dst = r->data;) stand for that object.  Flow-insensitive: a local
 * given two different objects stands for none. */
void forget_aliases(struct ectx *x)
{
	struct alias_table *t = &x->aliases;

	for (int i = 0; i < t->n; i++) {
		free(t->v[i].usr);
		free(t->v[i].target);
	}
	t->n = 0;
}

void free_aliases(struct alias_table *t)
{
	free(t->v);
}

void note_alias(struct ectx *x, const char *usr, char *target)
{
	/* A local pointer into memory that a declared function returns
	 * (external_result) names its own part of it: a region mapped once
	 * and reached through an index pointer and a slots pointer
	 * (unsigned *idx = base; long *slots = base + 64) holds two
	 * objects, not one.  The part is named after the local. */
	const char *at = usr ? strrchr(usr, '@') : NULL, *name;
	size_t len;

	if (target && at && (name = object_external_name(target, &len)) != NULL) {
		char *part = object_external_key(name, len, at + 1);

		free(target);
		target = part;
	}
	for (int i = 0; i < x->aliases.n; i++)
		if (strcmp(x->aliases.v[i].usr, usr) == 0) {
			if (x->aliases.v[i].target && (!target || strcmp(x->aliases.v[i].target, target) != 0)) {
				free(x->aliases.v[i].target);
				x->aliases.v[i].target = NULL;
			}
			free(target);
			return;
		}
	grow(&x->aliases.v, &x->aliases.cap, x->aliases.n + 1, sizeof *x->aliases.v);
	x->aliases.v[x->aliases.n].usr = xstrdup(usr);
	x->aliases.v[x->aliases.n++].target = target;
}

static char *alias_target(struct ectx *x, CXCursor ref)
{
	CXString s = clang_getCursorUSR(ref);
	const char *usr = clang_getCString(s);
	char *r = NULL;

	for (int i = 0; usr && i < x->aliases.n; i++)
		if (strcmp(x->aliases.v[i].usr, usr) == 0 && x->aliases.v[i].target)
			r = xstrdup(x->aliases.v[i].target);
	clang_disposeString(s);
	return r;
}

/* The target of pointer parameter REF of the function being walked, as
 * "p:LINKKEY:N": the analysis replaces it, at each call, by the object the
 * caller passes (lock(&l) -> l).  NULL if REF is no parameter. */
int parameter_number(struct ectx *x, CXCursor ref)
{
	int n = clang_Cursor_getNumArguments(x->fn_cursor);

	if (clang_getCursorKind(ref) != CXCursor_ParmDecl)
		return -1;
	for (int i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(x->fn_cursor, i), ref))
			return i;
	return -1;
}

char *parameter_target(struct ectx *x, CXCursor ref)
{
	int n = parameter_number(x, ref);

	return n >= 0 ? object_param_key(x->fn->link_key, n) : NULL;
}

char *param_pointee_type_item(const char *object, CXCursor c, int lvalue)
{
	static const char *const qualifiers[] = { "const ", "volatile ", "restrict " };
	struct object_ref ref;
	CXType t = clang_getCursorType(strip(c));
	CXString s;
	const char *name;
	char *item = NULL;
	int again = 1;

	if (!object)
		return NULL;
	object_ref_parse(object, &ref);
	if (ref.kind != OBJ_PARAM)
		return NULL;
	if (!lvalue)
		t = clang_getPointeeType(t);
	if (t.kind == CXType_Invalid || t.kind == CXType_Void)
		return NULL;
	s = clang_getTypeSpelling(t);
	name = clang_getCString(s);
	/* (the word is the same whether a function sees it volatile or not:
	 * volatile int * and int * point to one int) */
	while (name && again) {
		again = 0;
		for (size_t i = 0; i < sizeof qualifiers / sizeof *qualifiers; i++)
			if (strncmp(name, qualifiers[i], strlen(qualifiers[i])) == 0) {
				name += strlen(qualifiers[i]);
				again = 1;
			}
	}
	if (name && *name) {
		struct dep_item d = { DEP_ADDRESS, DEP_TYPE, 0, 0, (char *)name, -1, 0, 0, 0, 0 };

		item = dep_item_text(&d);
	}
	clang_disposeString(s);
	return item;
}

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

/* The object that lvalue C designates, or NULL when it is not shared (a
 * local) or not known. */
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
char *object_of_lvalue(struct ectx *x, CXCursor c)
{
	char *r = nest_enter(x) ? object_of_lvalue_in(x, c) : NULL;

	nest_leave(x);
	return r;
}

/* The memory that call C returns, when a profile declares its function's
 * result shared with an agent outside the tree (NAME external none; a
 * driver's map_ring(), mmap() in a program that maps only shared
 * memory): object_external_key(), so that what is reached through locals
 * it was stored in has an object (findings/external.c); each local pointer
 * names its own part of it (note_alias).  NULL for any other call. */
static char *external_result(struct ectx *x, CXCursor c)
{
	CXCursor callee = clang_getCursorReferenced(c);
	char *name, *r = NULL;

	if (clang_getCursorKind(callee) != CXCursor_FunctionDecl || !contract_of(x, callee, OP_EXTERNAL))
		return NULL;
	name = spelling_of(callee);
	if (name)
		r = object_external_key(name, strlen(name), NULL);
	free(name);
	return r;
}

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
	if (k == CXCursor_CallExpr)
		return external_result(x, c);
	return NULL;
}

/* object_of_pointer, one level deeper (extract_int.h, nest_enter). */
char *object_of_pointer(struct ectx *x, CXCursor c)
{
	char *r = nest_enter(x) ? object_of_pointer_in(x, c) : NULL;

	nest_leave(x);
	return r;
}

/* The function that expression C names (f or &f), as a link key, or NULL. */
char *function_named(CXCursor c)
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
