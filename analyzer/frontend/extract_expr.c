/* analyzer/frontend/extract_expr.c — expressions: the walk that finds which
 * shared objects an expression reads or writes, in evaluation order, with
 * the control flow inside it (?:, && and ||), the calls it makes, and the
 * values locals receive.  Objects are named by extract_object.c, and
 * vocabulary primitives are emitted by extract_primitive.c.
 *
 * Every access also carries "uses": the locals (and marked reads, as
 * "@N") its address is computed from (extract_deps.c). */
#include "extract_int.h"
#include "extract_compare.h"
#include "extract_guards.h"
#include "extract_deps.h"
#include "extract_expr.h"
#include "extract_model.h"
#include "extract_noreturn.h"
#include "extract_primitive.h"
#include "extract_uneval.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct event *emit(struct ectx *x, enum ev_kind kind, CXCursor at)
{
	struct event *e = block_add_event(&x->fn->blocks[x->cur]);
	CXFile f;
	unsigned l, col, off;

	e->kind = kind;
	e->index = x->nevents++;
	loc_of(clang_getCursorLocation(at), &f, &l, &col, &off);
	if (f)
		e->file = file_name_of(f);
	e->line = l;
	e->col = col;
	branch_guards_note_event(x, e);
	return e;
}

/* A marked read's value may feed an address: record it in the current
 * dependency collector as "@N". */
void note_marked_read(struct ectx *x, const struct event *e)
{
	char *item;

	if (!x->collect || e->access == ACC_WRITE)
		return;
	item = dep_source_text(DEP_EVENT, e->index, NULL);
	deps_add(x->collect, item);
	free(item);
}

/* How the type of lvalue C marks its access. */
enum marking { NOT_MARKED, MARKED_ATOMIC, MARKED_VOLATILE,
	       C11_VOLATILE };   /* an object declared volatile in a TU that
				    declares C11 atomics: plain (extract_model.c) */

static enum marking marking_of(struct ectx *x, CXCursor c)
{
	CXType t = clang_getCursorType(c);

	if (t.kind == CXType_Atomic || clang_getCanonicalType(t).kind == CXType_Atomic)
		return MARKED_ATOMIC;
	/* (volatile through a typedef: typedef volatile unsigned long
	 * ngx_atomic_t is volatile only in its canonical type) */
	if (!clang_isVolatileQualifiedType(t) && !clang_isVolatileQualifiedType(clang_getCanonicalType(t)))
		return NOT_MARKED;
	return !x->c11_atomics || is_volatile_cast_access(c) ? MARKED_VOLATILE : C11_VOLATILE;
}

/* Does marking M mark the access (_Atomic, or volatile where volatile
 * marks)? */
static int marks(enum marking m)
{
	return m == MARKED_ATOMIC || m == MARKED_VOLATILE;
}

/* Calls FN(W, CTX) for each access W of the function being walked that
 * was made before plain read E, to E's lvalue: the same object, written
 * the same way (me->next both times, *entries both times). */
static void each_earlier_access_of(struct ectx *x, const struct event *e,
				   void (*fn)(const struct event *w, void *ctx), void *ctx)
{
	if (e->kind != EV_ACCESS || e->access != ACC_READ || e->marked || !e->object || !e->display)
		return;
	for (int b = 0; b < x->fn->nblocks; b++)
		for (int i = 0; i < x->fn->blocks[b].nevents; i++) {
			const struct event *w = &x->fn->blocks[b].events[i];

			if (w->index < e->index && w->kind == EV_ACCESS && w->object && w->display &&
			    strcmp(w->object, e->object) == 0 && strcmp(w->display, e->display) == 0)
				fn(w, ctx);
		}
}

/* (each_earlier_access_of) A marked read of the lvalue: "!reread:N". */
static void add_reread_item(const struct event *r, void *uses)
{
	char *item;

	if (!r->marked || r->access != ACC_READ)
		return;
	item = xasprintf("!reread:%d", r->index);
	deps_add(uses, item);
	free(item);
}

/* The base of an access was just walked (events from index FROM on): when
 * its value is a plain read of an lvalue that a marked read of this
 * function read before (me->next->locked = 0 after while
 * (!__atomic_load_n(&me->next, ...))), adds "!reread:N" for each such
 * marked read N to USES.  By coherence the re-read returns that value or
 * a newer one: the access reaches what the marked read found.  Not an
 * address dependency (a plain load orders nothing, and may even be made
 * first): the item stays out of the address's dependencies (facts.c). */
static void note_reread(struct ectx *x, int from, struct deps *uses)
{
	const struct block *cur = &x->fn->blocks[x->cur];
	const struct event *last = cur->nevents ? &cur->events[cur->nevents - 1] : NULL;

	/* (the base's read is the last event, in the block being walked) */
	if (last && last->index >= from)
		each_earlier_access_of(x, last, add_reread_item, uses);
}

/* Adds to INTO the value item ITEM of a store ("~@N", "~local"), without
 * its role mark: what a plain re-read of the stored lvalue carries. */
static void add_forwarded_item(const char *item, void *into)
{
	if (item[0] == '~' && (item[1] == '@' || item[1] == '_' || isalpha((unsigned char)item[1])))
		deps_add(into, item + 1);
}

/* (each_earlier_access_of) A plain store to the lvalue: what it stored. */
static void add_stored_items(const struct event *w, void *into)
{
	if (w->access == ACC_WRITE && !w->marked && w->uses)
		dep_list_each(w->uses, add_forwarded_item, into);
}

/* Plain read E (of this function) reads back what an earlier plain store
 * of this function wrote to the same lvalue, written the same way
 * (*entries = r->prod.tail - head; if (n > *entries) ...; a cached copy
 * q->seen = READ_ONCE(q->head) tested later): the value read is that
 * store's (or a racing write's, which is a race of its own), for what it
 * decides and for what it addresses (issue 12, shape 4: the flag's value
 * stored rather than tested).  The stored value's marked reads and
 * locals go to INTO, the enclosing expression's value.  An address
 * computed from it depends on the marked read as if no store were
 * between: a CPU's load cannot take the stored value before the store
 * has it (Armv8 orders data dependency; rfi), and the compiler may keep
 * it in a register. */
static void note_forwarded(struct ectx *x, const struct event *e, struct deps *into)
{
	if (into)
		each_earlier_access_of(x, e, add_stored_items, into);
}

/* Is lvalue C one named instance of memory every thread sees: a global
 * or static variable that is not const, or a part of one reached without
 * a pointer (cfg, cfg.inner, table[i], table[i].inner)?  Only the copy
 * of such an instance is taken field by field (record_copy): a struct
 * reached through a pointer is, in most code, a value handed around (a
 * uuid, an address, a key copied from record to record), and since a
 * field is one object for every instance, each such copy would meet
 * every other access of the type's fields in the tree (Open vSwitch:
 * 1,190 low findings, uuid copies against the one function that sets a
 * uuid's version bits). */
static int named_instance(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k;
		CXCursor base;

		c = strip(c);
		k = clang_getCursorKind(c);
		if (k == CXCursor_DeclRefExpr) {
			CXCursor ref = clang_getCursorReferenced(c);

			return clang_getCursorKind(ref) == CXCursor_VarDecl && !is_local(ref) &&
			       clang_getCursorTLSKind(ref) == CXTLS_None &&
			       !clang_isConstQualifiedType(clang_getCursorType(ref));
		}
		if (k != CXCursor_MemberRefExpr && k != CXCursor_ArraySubscriptExpr)
			return 0;
		base = strip(first_child(c));
		if (clang_Cursor_isNull(base) || clang_getCursorType(base).kind == CXType_Pointer ||
		    (k == CXCursor_ArraySubscriptExpr && !is_array_type(clang_getCursorType(base))))
			return 0;
		c = base;
	}
}

/* Lvalue C, of a struct or union type, is read or written whole (M):
 * copy = cfg, cfg = *c, a struct passed or returned by value.  A field is
 * an object of its own whatever the instance, so the copy of a named
 * instance (named_instance) accesses each of its fields too, as
 * memcpy()'s source does (copied_fields): the writer's cfg.rate = 10 and
 * the reader's copy = cfg meet on 'rate' (issue 12, shape 6).  Emits a
 * plain access of each field, with the address's USES, besides the access
 * of the whole that the caller emits. */
static void record_copy(struct ectx *x, CXCursor c, enum mode m, const char *uses)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	struct copied fields = { 0 };
	char *display;

	if (t.kind != CXType_Record || marks(marking_of(x, c)) || !named_instance(c))
		return;
	display = display_text(x, c);
	copied_fields(t, display ? display : "?", ".", 1, &fields);
	for (int i = 0; i < fields.n; i++) {
		struct event *e = emit(x, EV_ACCESS, c);

		e->access = m == M_WRITE ? ACC_WRITE : ACC_READ;
		e->object = fields.v[i].object;
		e->display = fields.v[i].display;
		e->uses = uses ? xstrdup(uses) : NULL;
	}
	free(fields.v);
	free(display);
}

/* Is BASE, the struct (or pointer to it) whose member is accessed, of a
 * type with an atomic member (extract_object.c, has_atomic_member)? */
static int of_shared_type(struct ectx *x, CXCursor base)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(base));

	if (t.kind == CXType_Pointer)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	return t.kind == CXType_Record && has_atomic_member(x, t);
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
	int deref_only;
	enum marking marking;

	x->collect = &uses;
	/* The base of an access is only dereferenced, not handed on (a
	 * fresh pointer stays fresh), unless the access is itself an
	 * address taken (&n->f) outside any enclosing access. */
	deref_only = m != M_ADDR || x->no_escape > 0;
	if (k == CXCursor_DeclRefExpr) {
		CXCursor ref = clang_getCursorReferenced(c);

		if (is_local(ref)) {
			char *spelling = spelling_of(ref), *name = dep_source_text(DEP_LOCAL, 0, spelling);
			int param = parameter_number(x, ref);

			deps_add(&uses, name);
			free(name);
			free(spelling);
			/* "$KEY:N": reached through parameter N, for the callers
			 * that pass a private local (callview.c, through_call). */
			if (param >= 0) {
				char *item = dep_source_text(DEP_PARAM, param, x->fn->link_key);

				deps_add(&uses, item);
				free(item);
			}
			if (m == M_READ && !x->no_escape && !clang_equalCursors(ref, x->self_store))
				hand_on_fresh(x, ref);
			/* &p handed on: whatever p holds after this may have
			 * been stored through the pointer (an out-parameter),
			 * neither fresh nor owned */
			if (m == M_ADDR && !deref_only) {
				hand_on_fresh(x, ref);
				address_handed_on(x, ref);
			}
		}
	} else if (k == CXCursor_MemberRefExpr && n >= 1) {
		int arrow = clang_getCursorType(kids[0]).kind == CXType_Pointer, from = x->nevents;

		x->no_escape += deref_only || !arrow;
		walk_expr(x, kids[0], arrow ? M_READ : M_ADDR);
		x->no_escape -= deref_only || !arrow;
		if (arrow)
			note_reread(x, from, &uses);
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
	if (k != CXCursor_DeclRefExpr) {
		deps_add(&uses, points_to_fresh(x, c));
		deps_add(&uses, owned_mark(x, c));
	}

	obj = m == M_ADDR || is_signal_flag(clang_getCursorType(c)) ? NULL : object_of_lvalue(x, c);
	if (obj && (m == M_READ || m == M_WRITE))
		record_copy(x, c, m, uses.buf);
	if (obj) {
		marking = marking_of(x, c);
		e = emit(x, EV_ACCESS, c);
		e->access = m == M_WRITE ? ACC_WRITE : m == M_RMW ? ACC_RMW : ACC_READ;
		e->object = obj;
		e->display = display_text(x, c);
		/* (plain, and shared by its author's word: "!volatile") */
		if (marking == C11_VOLATILE)
			deps_add(&uses, "!volatile");
		/* (a field of a type its author made for sharing) */
		if (!marks(marking) && k == CXCursor_MemberRefExpr && n >= 1 && of_shared_type(x, kids[0]))
			deps_add(&uses, "!sharedtype");
		e->uses = uses.buf;
		uses.buf = NULL;
		if (marks(marking)) {
			int atomic = marking == MARKED_ATOMIC;

			e->marked = 1;
			e->name = xstrdup(atomic ? "_Atomic" : "volatile");
			e->ord = !atomic ? ORD_RELAXED : e->access == ACC_READ ? ORD_ACQUIRE
				: e->access == ACC_WRITE ? ORD_RELEASE : ORD_FULL;
			note_marked_read(x, e);
		} else {
			note_forwarded(x, e, outer);
		}
		/* a read the loop waits on (pairing.c's plain flags, tally.c's
		 * counters that readers wait for) */
		if (e->access == ACC_READ && x->loop_cond && !e->defines)
			e->defines = xstrdup("?polled");
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

/* The lvalue whose address argument ARG is: the operand of &, or an
 * array that decays; a null cursor for any other argument. */
static CXCursor address_taken(struct ectx *x, CXCursor arg)
{
	CXCursor c = strip(arg), *k, lv = clang_getNullCursor();
	char op[8];
	int n;

	if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
		n = children(c, &k);
		operator_of(x, c, k, n, op, sizeof op);
		if (n == 1 && strcmp(op, "&") == 0)
			lv = strip(k[0]);
		free(k);
		return lv;
	}
	return is_array_type(clang_getCursorType(c)) ? c : lv;
}

/* The base of member or element access C when it is reached without a
 * pointer (s.a, arr[i]), else a null cursor (p->a, p[i]: memory the
 * pointer holds). */
static CXCursor direct_base(CXCursor c)
{
	enum CXCursorKind kind = clang_getCursorKind(c);
	CXCursor base;

	if (kind != CXCursor_MemberRefExpr && kind != CXCursor_ArraySubscriptExpr)
		return clang_getNullCursor();
	base = strip(first_child(c));
	if (clang_Cursor_isNull(base) || clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer)
		return clang_getNullCursor();
	return base;
}

/* Does ARG point into a thread-local variable: &v, &v.a, &v[i] (through
 * members and elements of v itself, no pointer on the way), or an array v
 * that decays, where v is __thread or _Thread_local?  That memory is the
 * calling thread's own ("#N=!tls": privparams.c takes the callee's
 * parameter for private when every call passes such memory).  A pointer
 * held in a thread-local variable may point anywhere: not this. */
static int points_to_thread_local(struct ectx *x, CXCursor arg)
{
	for (CXCursor c = address_taken(x, arg); !clang_Cursor_isNull(c); c = direct_base(c)) {
		if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
			CXCursor ref = clang_getCursorReferenced(c);

			return clang_getCursorKind(ref) == CXCursor_VarDecl && clang_getCursorTLSKind(ref) != CXTLS_None;
		}
	}
	return 0;
}

/* Does ARG point into one element of an array picked by an index that is
 * no constant: &flags[i], &sw->in_use[lcore].v (the element's members
 * included, up to the first pointer on the way)?  A claim of that word
 * claims the element alone ("#N=!indexed": findings/lostupdate.c). */
static int points_into_indexed_element(struct ectx *x, CXCursor arg)
{
	long long v;

	for (CXCursor c = address_taken(x, arg); !clang_Cursor_isNull(c);) {
		CXCursor *k;
		int n, indexed = 0;

		if (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
			n = children(c, &k);
			indexed = n == 2 && !integer_constant(k[1], &v);
			free(k);
			if (indexed)
				return 1;
		}
		c = direct_base(c);
	}
	return 0;
}

/* ARG, argument N of a call, points into fresh memory (map_init(m) right
 * after m = malloc(...)): "#N=MARK" in the call's uses says so, before
 * passing the pointer ends its freshness.  The callee's writes through
 * that parameter initialise it (fresh.c).  A parameter's own "!newarg"
 * mark is not fresh memory: it is passed on only when ARG is the pointer
 * itself, to say which callee parameter receives it (fresh.c: a callee
 * that publishes it publishes the caller's parameter). */
static void note_fresh_argument(struct ectx *x, struct deps *calldeps, CXCursor arg, int n)
{
	const char *fresh = points_to_fresh(x, arg);
	char *item;

	if (!fresh)
		return;
	/* A pointer parameter passed on: "#N=!newarg:M" tells fresh.c which
	 * parameter of the callee receives it (the callee may publish it). */
	item = dep_text_is(fresh, DEP_NEW_PARAM) ? param_handed_on(x, arg, DEP_ARGUMENT, n)
		: dep_item_with_role(fresh, DEP_ARGUMENT, n);
	if (!item)
		return;
	deps_add(calldeps, item);
	free(item);
}

/* Emits call C's event, to function TARGET (a link key; NULL: through a
 * pointer), with its USES and ARGS texts (all three taken). */
static struct event *emit_call(struct ectx *x, CXCursor c, char *target, char *uses, char *args)
{
	struct event *e = emit(x, EV_CALL, c);

	/* The call's result, when it is part of a value ("@N" as for a
	 * marked read): a caller that tests what a callee returns
	 * (if (ready()) ...) is guarded by the reads the callee returns. */
	if (x->collect) {
		char *item = dep_source_text(DEP_EVENT, e->index, NULL);

		deps_add(x->collect, item);
		free(item);
	}
	e->uses = uses;
	e->target = target;
	e->name = spelling_of(c);
	e->args = args;
	return e;
}

static void walk_call(struct ectx *x, CXCursor c)
{
	CXCursor *kids;
	int n = children(c, &kids);
	struct event *e;
	char *target, *args;
	const struct fn_local *local;
	size_t len = 0;
	struct arg_list targets = { 0 };

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

	struct passed_fresh *passed = NULL;
	int npassed = n > 1 ? note_passed_fresh(x, kids + 1, n - 1, &passed) : 0;

	/* A pointer passed is handed on; not to a function that only returns
	 * it tagged (flag_bucket(node)): what becomes of the call's value
	 * decides, as for the pointer itself (extract_fresh.c). */
	if (!is_tagging_call(x, c))
		x->no_escape = 0;
	x->self_store = clang_getNullCursor();
	for (int i = 1; i < n; i++) {
		char *obj = clang_getCursorType(kids[i]).kind == CXType_Pointer ||
			    is_array_type(clang_getCursorType(kids[i])) ? object_of_pointer(x, kids[i]) : NULL;

		if (!obj)
			obj = private_local(x, kids[i]);
		if (!obj && (obj = function_named(kids[i])) != NULL) {
			/* "f:KEY": a function handed to the callee, which may be a
			 * thread-creating wrapper (create_thread(fn, arg)). */
			char *f = object_function_key(obj);

			free(obj);
			obj = f;
		}
		arg_list_add(&targets, obj);
		len++;
		note_fresh_argument(x, &calldeps, kids[i], i - 1);
		if (!clang_Cursor_isNull(owned_value(x, kids[i]))) {
			/* "#N=!own": the callee gets memory this activation owns */
			char *item = dep_item_with_role("!own", DEP_ARGUMENT, i - 1);

			deps_add(&calldeps, item);
			free(item);
		}
		if (points_to_thread_local(x, kids[i])) {
			char *item = dep_item_with_role("!tls", DEP_ARGUMENT, i - 1);

			deps_add(&calldeps, item);
			free(item);
		}
		if (points_into_indexed_element(x, kids[i])) {
			char *item = dep_item_with_role("!indexed", DEP_ARGUMENT, i - 1);

			deps_add(&calldeps, item);
			free(item);
		}
		if ((obj = param_passed(x, kids[i], i - 1)) != NULL) {
			deps_add(&calldeps, obj);
			free(obj);
		}
		if ((obj = constant_argument(kids[i], i - 1)) != NULL) {
			deps_add(&calldeps, obj);
			free(obj);
		}
		x->collect = &argdeps;
		walk_expr(x, kids[i], M_READ);
		x->collect = outer;
		if (argdeps.buf) {
			deps_merge(outer, &argdeps);
			deps_add_role(&calldeps, argdeps.buf, DEP_ARGUMENT, i - 1);
			free(argdeps.buf);
			memset(&argdeps, 0, sizeof argdeps);
		}
	}
	x->no_escape = saved;
	x->self_store = self;
	target = link_key_of_callee(c);
	args = arg_list_text(&targets);
	arg_list_free(&targets);
	/* A call through a local pointer that holds only named functions
	 * (extract_fnlocals.c): one branch per function, each a direct call.
	 * Not inside an operand that stays in one block (?:, &&, ||). */
	local = !target && n > 0 && !x->conditional ? function_local_called(x, kids[0]) : NULL;
	if (local) {
		int from = x->cur, join = new_block(x);

		for (int i = 0; i < local->n; i++) {
			x->cur = new_block(x);
			block_add_edge(x->fn, from, x->cur);
			emit_call(x, c, xstrdup(local->targets[i]), calldeps.buf ? xstrdup(calldeps.buf) : NULL,
				  args ? xstrdup(args) : NULL);
			block_add_edge(x->fn, x->cur, join);
		}
		x->cur = join;
		free(calldeps.buf);
		free(args);
		free(passed);
		free(kids);
		return;
	}
	e = emit_call(x, c, target, calldeps.buf, args);
	/* ... unless the callee keeps it (a direct call only: which function
	 * a pointer reaches is not known when the marks are resolved) */
	if (e->target)
		keep_passed_fresh(x, passed, npassed, e->index);
	free(passed);
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
	int escaping = usr && local_escapes(x, usr), saved;
	int pointer = clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Pointer;
	char *fn = function_named(value);
	/* A copy of a fresh pointer into another local (new_node = node)
	 * hands nothing on: both hold the same private memory, and handing
	 * either on later ends both (extract_fresh.c: groups).  Any other
	 * read of one hands it on. */
	CXCursor source = pointer && !escaping ? fresh_copy_source(x, value) : clang_getNullCursor();
	CXCursor self = x->self_store;

	x->collect = &from;
	saved = x->no_escape;
	x->no_escape = !clang_Cursor_isNull(source);
	x->self_store = clang_getNullCursor();
	walk_expr(x, value, M_READ);
	x->no_escape = saved;
	x->self_store = self;
	x->collect = outer;
	deps_merge(outer, &from);
	/* A function's address kept in a local (test_to_do = stress_test)
	 * is taken: a call through the local may reach it even when the
	 * call stays one through an unknown pointer (extract_fnlocals.c),
	 * so the function is no static that nothing calls. */
	if (fn) {
		struct event *e = emit(x, EV_LOCAL, at);

		e->target = fn;
	}
	if (pointer) {
		if (!clang_Cursor_isNull(source) && !clang_equalCursors(source, var))
			copy_fresh(x, var, source);
		else
			set_fresh(x, var, escaping ? NULL : allocation_mark(x, value));
		set_owned(x, var, value, escaping);
	}
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
	char *publishes = NULL;

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
		/* An _Atomic store of fresh memory or of an unpublished
		 * pointer parameter publishes it, as a primitive's would
		 * (extract_primitive.c). */
		if (marks(marking_of(x, target)))
			publishes = fresh_handed_on(x, rhs, DEP_VALUE, 0);
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
	if (b->nevents && b->events[b->nevents - 1].kind == EV_ACCESS &&
	    b->events[b->nevents - 1].access == ACC_WRITE) {
		struct event *w = &b->events[b->nevents - 1];
		/* (a volatile or _Atomic store of a constant: "~%V",
		 * extract_compare.c) */
		char *stored = w->marked ? stored_constant_item(rhs) : NULL;
		/* (its own value plus a constant: "~!step:K") */
		char *step = store_step_item(x, rhs, w->object);
		/* (through a pointer parameter: what it points to, "!type:T") */
		char *type = w->marked ? param_pointee_type_item(w->object, lhs, 1) : NULL;

		if (value.buf || stored || step || type) {
			struct deps all = { 0 };

			deps_merge_text(&all, w->uses);
			deps_add_role(&all, value.buf, DEP_VALUE, 0);
			if (w->marked)
				deps_add(&all, publishes);
			deps_add(&all, stored);
			deps_add(&all, step);
			deps_add(&all, type);
			free(w->uses);
			w->uses = all.buf;
		}
		free(stored);
		free(step);
		free(type);
	}
	free(value.buf);
	free(publishes);
	/* Storing a function's address (j->complete = mark_done): the store
	 * names the function, for calls through that pointer. */
	if (b->nevents && b->events[b->nevents - 1].kind == EV_ACCESS &&
	    b->events[b->nevents - 1].access == ACC_WRITE && (fn = function_named(rhs)))
		b->events[b->nevents - 1].target = fn;
}

/* COND ? KIDS[1] : KIDS[2], as control flow: each operand runs only on
 * one outcome of the condition, so what it reads is guarded by what the
 * condition tests (return READ_ONCE(flag) ? data : 0;).  The operands'
 * values still flow into whatever collects the whole expression's. */
static void walk_conditional(struct ectx *x, CXCursor *kids, enum mode m)
{
	int then_b, else_b, join;

	x->cond_succ = 1;           /* then: succ[0] */
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

int is_expect_call(CXCursor c)
{
	char *name = spelling_of(c);
	int is = name && (strcmp(name, "__builtin_expect") == 0 ||
			  strcmp(name, "__builtin_expect_with_probability") == 0);

	free(name);
	return is;
}

/* __builtin_expect(V, E) (likely/unlikely, caa_unlikely) is V: walked
 * as V itself, not as a call that V's value is passed to, which would
 * make a read only tested inside a helper look handed on to its callers
 * (liburcu's if (caa_unlikely(uatomic_load(&gp->futex) == -1))).
 * Returns 1 when C was such a call. */
static int walk_expect(struct ectx *x, CXCursor c, enum mode m)
{
	CXCursor *kids;
	int n;

	if (!is_expect_call(c))
		return 0;
	n = children(c, &kids);
	if (n >= 2)
		walk_expr(x, kids[1], m);
	for (int i = 2; i < n; i++)
		walk_expr(x, kids[i], M_READ);
	free(kids);
	return 1;
}

/* Is OPERANDS[0] OP OPERANDS[1] a comparison, or a test of a few low bits
 * (an and with a constant below 4096: is_bucket(node) returns
 * (unsigned long)node & BUCKET_FLAG), whose value cannot carry a pointer
 * operand on?  (An and with a large mask, & ~FLAGS_MASK, keeps the pointer:
 * it is not one.) */
static int tells_only_bits(const char *op, const CXCursor *operands)
{
	static const char *const comparisons[] = { "==", "!=", "<", ">", "<=", ">=" };

	for (size_t i = 0; i < sizeof comparisons / sizeof comparisons[0]; i++)
		if (strcmp(op, comparisons[i]) == 0)
			return 1;
	if (strcmp(op, "&") != 0)
		return 0;
	for (int i = 0; i < 2; i++) {
		CXEvalResult ev = clang_Cursor_Evaluate(operands[i]);
		long long v = ev && clang_EvalResult_getKind(ev) == CXEval_Int ? clang_EvalResult_getAsLongLong(ev) : -1;
		int small = v >= 0 && v < 4096;

		if (ev)
			clang_EvalResult_dispose(ev);
		if (small)
			return 1;
	}
	return 0;
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
	record_fields(t, &fields);
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
			free_site(&call_site);
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
	/* (an atomic builtin no site covers: an implicit conversion, the
	 * commonest unexposed node, has one child and is not one) */
	if (k == CXCursor_UnexposedExpr && n >= 2 && handle_atomic_builtin(x, c, kids, n)) {
		free(kids);
		return;
	}
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
			int telling = tells_only_bits(op, kids);

			/* (p == q, (uintptr_t)p & FLAG: a truth value or a few
			 * bits of a pointer hand the pointer on to no one) */
			x->no_escape += telling;
			walk_expr(x, kids[0], M_READ);
			x->conditional += lazy;       /* (x || abort()) */
			walk_expr(x, kids[1], M_READ);
			x->conditional -= lazy;
			x->no_escape -= telling;
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

/* T var = INIT; — like an assignment to the local. */
void walk_initializer(struct ectx *x, CXCursor var, CXCursor init)
{
	if (is_local(var))          /* static locals are initialised once, constantly */
		assign_local(x, var, init, var);
}

/* Walks lvalue C as an access of mode M; returns the access event it made
 * of the lvalue itself (the last one: its address's reads come first), or
 * NULL when it names no object. */
struct event *walk_lvalue(struct ectx *x, CXCursor c, enum mode m)
{
	int from = x->nevents;
	struct block *b;
	struct event *e;

	walk_expr(x, c, m);
	b = &x->fn->blocks[x->cur];
	if (x->nevents == from || b->nevents == 0)
		return NULL;
	e = &b->events[b->nevents - 1];
	return e->kind == EV_ACCESS && e->index >= from && e->object ? e : NULL;
}
