/* analyzer/frontend/extract_primitive.c — the uses of vocabulary primitives
 * (READ_ONCE, smp_store_release, pthread_mutex_lock, atomic builtins...):
 * finding their argument expressions, walking them, and emitting the
 * access, barrier or lock event the profile says the primitive is.  A
 * primitive is reached three ways: a macro site or a call written in the
 * file (handle_site), a call produced by a project macro
 * (handle_call_in_macro), or a vocabulary macro inside a project macro's
 * body (extract_macro.c, handle_nested_site). */
#include "extract_int.h"
#include "extract_compare.h"
#include "extract_deps.h"
#include "extract_expr.h"
#include "extract_primitive.h"
#include "extract_guards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The outermost descendants of C written inside argument ranges of S:
 * ROOTS[i] gets argument i's expression (null when not found). */
static void find_arg_roots(struct ectx *x, const struct site *s, CXCursor c, CXCursor *roots, int depth)
{
	CXCursor *kids;
	int n;

	if (depth > 64)
		return;
	n = children(c, &kids);
	for (int i = 0; i < n; i++) {
		struct span sp;
		CXFile f1, f2;
		unsigned o1, o2;
		int a, found = 0;

		cursor_span(x, kids[i], &sp);
		f1 = sp.f1, o1 = sp.o1;
		f2 = sp.f2, o2 = sp.o2;
		if (f1 && f2 && clang_File_isEqual(f1, s->file) && clang_File_isEqual(f2, s->file))
			for (a = 0; a < s->nargs; a++)
				if (s->args[a].start <= o1 && o2 <= s->args[a].end && o2 > o1) {
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

CXCursor *site_arg_roots(struct ectx *x, const struct site *s, CXCursor c)
{
	CXCursor *roots = xmalloc(((size_t)s->nargs + 1) * sizeof *roots);

	for (int i = 0; i < s->nargs; i++)
		roots[i] = clang_getNullCursor();
	find_arg_roots(x, s, c, roots, 0);
	return roots;
}

/* The argument texts of site S as an argument list's text; "" for a site
 * without arguments (as the loader has always read it). */
static char *arg_texts(struct ectx *x, const struct site *s)
{
	size_t size;
	const char *text = file_text(x, s->file, &size);
	struct arg_list l = { 0 };
	char *out;

	for (int a = 0; a < s->nargs; a++) {
		unsigned i = s->args[a].start, e = s->args[a].end;

		while (i < e && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n'))
			i++;
		while (e > i && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\n'))
			e--;
		arg_list_add(&l, e > i ? xasprintf("%.*s", (int)(e - i), text + i) : NULL);
	}
	out = arg_list_text(&l);
	arg_list_free(&l);
	return out ? out : xstrdup("");
}

/* Does primitive V start a thread (its fourth argument the new thread's
 * argument)?  The analysis knows thread creation by this name too
 * (analysis/threads.c). */
static int is_thread_creation(const struct vocab_entry *v)
{
	return v->name && strcmp(v->name, "pthread_create") == 0;
}

/* How pointer argument C is shown as the object it points to: &cfg as
 * cfg (then *ADDRESS, unless NULL, is set), anything else as written. */
static char *pointee_display(struct ectx *x, CXCursor c, int *address)
{
	char *display = display_text(x, c);
	int taken = display && display[0] == '&';

	if (taken)
		memmove(display, display + 1, strlen(display));
	if (address)
		*address = taken;
	return display;
}

/* Is C the address of an object declared const (&proto, with static
 * const struct node proto)?  Nothing writes it, so reading it races with
 * nothing (its fields are those of every instance: the reads would pair
 * with the writes of all the others). */
static int address_of_const(struct ectx *x, CXCursor c)
{
	CXCursor *kids;
	int n, r = 0;
	char op[8];

	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
		return 0;
	n = children(c, &kids);
	operator_of(x, c, kids, n, op, sizeof op);
	if (n == 1 && strcmp(op, "&") == 0)
		r = clang_isConstQualifiedType(clang_getCursorType(strip(kids[0])));
	free(kids);
	return r;
}

/* The objects that a plain copy reads through pointer argument C (its
 * source, profiles' src=N), each with how it is shown: a struct's or a
 * union's fields (copied_fields, extract_object.c), or the one object C
 * points to.  Fills OUT for C; returns how many objects (none when
 * C points to no shared object: a private local, a const one, or nothing
 * known).  An array named as the argument is left out: the walk of the
 * argument already reads it (an array's name is taken as a read of it,
 * although C only converts it to its address: owned.c's owner-only
 * fields rely on those reads, and reading the array here too would make
 * two sites of one call). */
static int copied_objects(struct ectx *x, CXCursor c, struct copied *out)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(strip(c)));
	CXType pointee = clang_getPointeeType(t);
	char *obj, *display;
	int address;

	if (is_array_type(t) || address_of_const(x, c) || !(obj = object_of_pointer(x, c)))
		return 0;
	display = pointee_display(x, c, &address);
	pointee = clang_getCanonicalType(pointee);
	if (pointee.kind == CXType_Record) {
		copied_fields(pointee, display ? display : "?", address ? "." : "->", 1, out);
		free(obj);
		free(display);
		return out->n;
	}
	grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
	out->v[out->n].object = obj;
	out->v[out->n++].display = display;
	return out->n;
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
	/* memcpy's source (src=N): the objects read, plainly, before the
	 * write, and what their address depends on */
	struct copied src = { 0 };
	char *src_uses = NULL;
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
	if (u->site)
		push_active_site(x, u->site);
	/* Arguments in order: the object's address first collects "uses",
	 * the value arguments are ordinary reads. */
	for (int a = 0; a < u->nargs; a++) {
		if (clang_Cursor_isNull(u->roots[a]))
			continue;
		if (a == v->obj_arg) {
			/* The object's address is only accessed, never handed
			 * on: atomic_store(&n->next, p) keeps n fresh. */
			x->no_escape++;
			x->collect = &uses;
			walk_expr(x, u->roots[a], v->lvalue ? M_ADDR : M_READ);
			x->collect = outer;
			x->no_escape--;
			deps_merge(outer, &uses);
			obj = v->lvalue ? object_of_lvalue(x, u->roots[a]) : object_of_pointer(x, u->roots[a]);
			/* memset(n, 0, sizeof *n), WRITE_ONCE(n->next, p),
			 * atomic_store(&n->next, p): an access to fresh memory
			 * initialises it, marked or not (a marked one publishes
			 * nothing, transfer.c) */
			deps_add(&uses, points_to_fresh(x, u->roots[a]));
			deps_add(&uses, owned_mark(x, u->roots[a]));
			/* (a lock word through a pointer parameter: its type,
			 * "!type:T") */
			if (!v->plain && (op == OP_WRITE || op == OP_RMW)) {
				char *type = param_pointee_type_item(obj, u->roots[a], v->lvalue);

				deps_add(&uses, type);
				free(type);
			}
			display = v->lvalue ? display_text(x, u->roots[a]) : pointee_display(x, u->roots[a], NULL);
		} else {
			/* The values a primitive writes (WRITE_ONCE(ack,
			 * READ_ONCE(flag)): "~ITEM" in its uses, like a store's. */
			struct deps value = { 0 };
			/* A marked write of fresh memory or of a pointer
			 * parameter not handed on before (cmpxchg(&s->head,
			 * old, node)) publishes it: "~!new", "~!newarg:N" say
			 * so (fresh.c), taken before the walk ends the
			 * freshness. */
			char *publishes = !v->plain && (op == OP_WRITE || op == OP_RMW)
				? fresh_handed_on(x, u->roots[a], DEP_VALUE, 0) : NULL;

			x->collect = &value;
			walk_expr(x, u->roots[a], M_READ);
			x->collect = outer;
			/* What a marked read-modify-write returns is the location's
			 * own value (its event, note_marked_read below), not what
			 * it was given: a CAS retry loop (while (!cas(&s->head,
			 * old, n))) waits for the CAS to succeed, not for the read
			 * that gave it OLD. */
			if (op != OP_RMW || v->plain)
				deps_merge(outer, &value);
			/* (its address is what the pointer's value depends on) */
			if (a == v->src_arg && v->plain && copied_objects(x, u->roots[a], &src)) {
				struct deps addr = { 0 };

				deps_merge(&addr, &value);
				deps_add(&addr, points_to_fresh(x, u->roots[a]));
				deps_add(&addr, owned_mark(x, u->roots[a]));
				src_uses = addr.buf;
			}
			deps_add_role(&uses, value.buf, DEP_VALUE, 0);
			deps_add(&uses, publishes);
			free(publishes);
			/* (a constant stored: "~%V", extract_compare.c) */
			if (a == v->val_arg && !v->plain && (op == OP_WRITE || op == OP_RMW)) {
				char *stored = stored_constant_item(u->roots[a]);

				deps_add(&uses, stored);
				free(stored);
			}
			/* (a store of its object's value plus a constant: a
			 * counting store, "~!step:K") */
			if (a == v->val_arg && !v->plain && op == OP_WRITE) {
				char *step = store_step_item(x, u->roots[a], obj);

				deps_add(&uses, step);
				free(step);
			}
			/* (a compare-and-swap that counts: "~!step:K") */
			if (a == v->val_arg && v->cmp_arg >= 0 && v->cmp_arg < u->nargs && !v->plain && op == OP_RMW &&
			    !clang_Cursor_isNull(u->roots[v->cmp_arg])) {
				char *step = cas_step_item(x, u->roots[a], u->roots[v->cmp_arg]);

				deps_add(&uses, step);
				free(step);
			}
			/* (what a compare-and-swap expects: "=%V") */
			if (a == v->cmp_arg && !v->plain && op == OP_RMW) {
				char *expected = expected_constant_item(x, u->roots[a]);

				deps_add(&uses, expected);
				free(expected);
			}
			free(value.buf);
			/* pthread_create(&t, attr, fn, arg): ARG goes to the new
			 * thread ("#3=!own" when this activation owned it; it owns
			 * nothing through it from here on, extract_owned.c) */
			if (a == 3 && is_thread_creation(v) && hand_to_thread(x, u->roots[a])) {
				char *item = dep_item_with_role("!own", DEP_ARGUMENT, 3);

				deps_add(&uses, item);
				free(item);
			}
		}
	}
	if (u->site)
		pop_active_site(x, u->site);
	x->no_escape = saved_no_escape;
	x->self_store = saved_self;

	if (ord == ORD_ARG) {
		struct arg_list l;

		arg_list_parse(u->args, &l);
		if (v->order_arg < l.n) {
			const char *order = l.v[v->order_arg] ? l.v[v->order_arg] : "";

			ord = ord_from_memory_order(order);
			/* C11: a seq_cst load is an acquire (earlier plain
			 * stores may pass it), a seq_cst store a release. */
			if (is_seq_cst_order(order) && op == OP_READ)
				ord = ORD_ACQUIRE;
			else if (is_seq_cst_order(order) && op == OP_WRITE)
				ord = ORD_RELEASE;
		} else {
			ord = v->dflt;       /* absent: the profile's default= */
		}
		arg_list_free(&l);
	}
	for (int i = 0; i < src.n; i++) {
		struct event *r = emit(x, EV_ACCESS, c);

		r->line = u->line;
		r->col = u->col;
		r->access = ACC_READ;
		r->ord = ORD_NONE;
		r->name = xstrdup(v->name);
		r->object = src.v[i].object;
		r->display = src.v[i].display;
		r->uses = src_uses ? xstrdup(src_uses) : NULL;
	}
	free(src.v);
	free(src_uses);
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
		e->object = object_shared(obj);
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
	/* a read made in a loop's condition: waited for (extract_stmt.c) */
	if (kind == EV_ACCESS && e->access == ACC_READ && x->loop_cond)
		e->defines = xstrdup("?polled");
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
	struct use_of u = { s->v, NULL, s->nargs, NULL, s, 0, s->line, s->col, m };
	size_t size;

	if (s->v->op == OP_IGNORE)
		return;                 /* data_race(): deliberately unmarked */
	u.roots = site_arg_roots(x, s, c);
	u.args = file_text(x, s->file, &size) ? arg_texts(x, s) : NULL;
	u.discarded = s->start == x->discarded_start && s->end == x->discarded_end;
	emit_primitive(x, &u, c);
	free(u.args);
	free(u.roots);
}

/* Emits primitive V used at C, whose argument expressions are ARGS (N of
 * them, in the order they are written). */
static void emit_with_arguments(struct ectx *x, const struct vocab_entry *v, CXCursor c,
				CXCursor *args, int n)
{
	struct use_of u = { v, args, n, NULL, NULL, 0, 0, 0, M_READ };
	CXFile f;
	unsigned off;
	struct arg_list texts = { 0 };

	for (int i = 0; i < n; i++) {
		char *t = display_text(x, args[i]);
		CXCursor fn = clang_getCursorReferenced(strip(args[i]));

		long long k;

		if (!t && clang_getCursorKind(fn) == CXCursor_FunctionDecl)
			t = spelling_of(fn);       /* a start routine, for pthread_create */
		/* An argument with no text of its own, as a macro passes
		 * it on (rte_atomic_load_explicit(p, rte_memory_order_relaxed)
		 * expands to __atomic_load_n(p, memorder) and memorder to a
		 * built-in macro): its value when it is a constant, so that
		 * a memory order is read (0 relaxed ... 5 seq_cst). */
		if ((!t || strcmp(t, "?") == 0) && integer_constant(args[i], &k)) {
			free(t);
			t = xasprintf("%lld", k);
		}
		arg_list_add(&texts, t);
	}
	/* (a call without arguments keeps "", as it always has) */
	u.args = arg_list_text(&texts);
	if (!u.args)
		u.args = xstrdup("");
	arg_list_free(&texts);
	loc_of(clang_getCursorLocation(c), &f, &u.line, &u.col, &off);
	emit_primitive(x, &u, c);
	free(u.args);
}

/* A primitive called inside a macro of the project's own (BL_RUN2(...)
 * expanding to pthread_create): no argument text, but the call's children
 * are its arguments. */
void handle_call_in_macro(struct ectx *x, const struct vocab_entry *v, CXCursor c)
{
	CXCursor *kids;
	int n = children(c, &kids);

	if (v->op != OP_IGNORE)
		emit_with_arguments(x, v, c, kids + 1, n > 0 ? n - 1 : 0);
	free(kids);
}

/* The name of the atomic builtin that expression C is (__c11_atomic_load,
 * __atomic_fetch_add: clang's AtomicExpr, which libclang shows as an
 * unexposed expression without a name), or NULL: the identifier where its
 * first token is spelled, which may be in a macro body (stdatomic.h's
 * "#define atomic_load_explicit __c11_atomic_load").  libclang's
 * clang_getSpellingLocation gives the file location instead; spelling_loc
 * lexes at the true one (extract_text.c). */
static char *atomic_builtin_name(struct ectx *x, CXCursor c)
{
	CXFile f;
	unsigned off, e;
	size_t size;
	const char *text;
	char *name;

	if (!spelling_loc(x, clang_getRangeStart(cursor_extent(x, c)), &f, &off) ||
	    !(text = file_text(x, f, &size)) || off >= size)
		return NULL;
	if (strncmp(text + off, "__c11_atomic_", 13) != 0 && strncmp(text + off, "__atomic_", 9) != 0)
		return NULL;
	for (e = off; e < size && is_ident_char(text[e]); e++)
		;
	name = xmalloc(e - off + 1);
	memcpy(name, text + off, e - off);
	name[e - off] = '\0';
	return name;
}

/* The operands of an atomic builtin with N of them, in the order libclang
 * gives them (clang keeps them as pointer, order, value 1, failure order,
 * value 2, weak: those the builtin has), rearranged into OUT in the order
 * in which they are written: pointer, values, weak, orders.  0 for a
 * count no builtin has. */
static int source_order(CXCursor *kids, int n, CXCursor *out)
{
	static const int load_or_init[] = { 0, 1 },           /* (p, order) (p, value) */
		one_value[] = { 0, 2, 1 },                     /* (p, v, order) */
		two_values[] = { 0, 2, 3, 1 },                 /* GNU exchange (p, v, ret, order) */
		c11_cas[] = { 0, 2, 4, 1, 3 },                 /* (p, exp, des, ok, fail) */
		gnu_cas[] = { 0, 2, 4, 5, 1, 3 };              /* (p, exp, des, weak, ok, fail) */
	static const int *const by_count[] = { NULL, NULL, load_or_init, one_value,
					       two_values, c11_cas, gnu_cas };

	if (n < 2 || n > 6)
		return 0;
	for (int i = 0; i < n; i++)
		out[i] = kids[by_count[n][i]];
	return 1;
}

int handle_atomic_builtin(struct ectx *x, CXCursor c, CXCursor *kids, int n)
{
	CXCursor args[6];
	int done = 0;
	char *name = n >= 2 ? atomic_builtin_name(x, c) : NULL;
	const struct vocab_entry *v = name ? vocab_find(x->vocab, name, NULL) : NULL;

	if (v && v->op != OP_IGNORE && source_order(kids, n, args)) {
		emit_with_arguments(x, v, c, args, n);
		done = 1;
	}
	free(name);
	return done;
}
