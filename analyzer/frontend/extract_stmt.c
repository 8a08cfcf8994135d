/* analyzer/frontend/extract_stmt.c — statements into a control-flow graph.
 *
 * Each function becomes basic blocks joined by edges: if/else, the three
 * loops, switch with fall-through, break, continue, return, and goto
 * (label by label; a computed goto may reach every label).  Expressions are
 * left to extract_expr.c, which appends events to the current block.  The
 * condition of an if or a loop becomes the branches it makes: each operand
 * of its &&, || and ! is tested in a block of its own (walk_jumps).
 * Elsewhere (a value assigned or returned), && || and ?: join again after
 * their operands (extract_expr.c). */
#include "extract_int.h"
#include "extract_compare.h"
#include "extract_guards.h"
#include "extract_deps.h"
#include "extract_asm.h"
#include "extract_expr.h"
#include "extract_primitive.h"

#include <stdlib.h>
#include <string.h>

int new_block(struct ectx *x)
{
	return function_add_block(x->fn);
}

/* Ends the current block with an edge to TO and starts an unreachable one
 * (what follows a jump can only be reached through a label or case). */
void jump(struct ectx *x, int to)
{
	block_add_edge(x->fn, x->cur, to);
	x->cur = x->cfg.dead = new_block(x);
}

void fall_into(struct ectx *x, int to)
{
	block_add_edge(x->fn, x->cur, to);
	x->cur = to;
}

void cfg_start_function(struct ectx *x)
{
	struct cfg_state *s = &x->cfg;

	s->nbrk = s->ncont = 0;
	s->dead = -1;
	for (int i = 0; i < s->nlabels; i++)
		free(s->labels[i].name);
	s->nlabels = 0;
}

void free_cfg_state(struct cfg_state *s)
{
	free(s->brk);
	free(s->cont);
	for (int i = 0; i < s->nlabels; i++)
		free(s->labels[i].name);
	free(s->labels);
}

static int label_block(struct ectx *x, const char *name)
{
	struct cfg_state *s = &x->cfg;

	for (int i = 0; i < s->nlabels; i++)
		if (strcmp(s->labels[i].name, name) == 0)
			return s->labels[i].block;
	grow(&s->labels, &s->labelcap, s->nlabels + 1, sizeof *s->labels);
	s->labels[s->nlabels].name = xstrdup(name);
	s->labels[s->nlabels].block = new_block(x);
	return s->labels[s->nlabels++].block;
}

static void push_loop(struct ectx *x, int brk, int cont)
{
	struct cfg_state *s = &x->cfg;

	grow(&s->brk, &s->brkcap, s->nbrk + 1, sizeof *s->brk);
	s->brk[s->nbrk++] = brk;
	if (cont >= 0) {
		grow(&s->cont, &s->contcap, s->ncont + 1, sizeof *s->cont);
		s->cont[s->ncont++] = cont;
	}
}

static void pop_loop(struct ectx *x, int had_cont)
{
	struct cfg_state *s = &x->cfg;

	if (s->nbrk > 0)
		s->nbrk--;
	if (had_cont && s->ncont > 0)
		s->ncont--;
}

/* An expression statement: its value is thrown away, which tells an
 * atomic RMW used for its effect (set_bit(...);) from one whose result
 * decides what follows. */
void walk_discarded(struct ectx *x, CXCursor c)
{
	struct span sp;

	cursor_span(x, c, &sp);
	x->discarded_start = sp.o1;
	x->discarded_end = sp.o2;
	walk_expr(x, c, M_READ);
	x->discarded_start = x->discarded_end = 0;
}

static void walk_any(struct ectx *x, CXCursor c)
{
	if (clang_isExpression(clang_getCursorKind(c)))
		walk_discarded(x, c);
	else
		walk_stmt(x, c);
}

/* Walks C, an expression whose value is used as SINK says ("?test": a
 * condition decides where control goes; "?ret": the function returns
 * it), and records what the value depends on in a local event that
 * defines SINK.  The analysis counts a marked read as guarding what
 * follows only when its value is used somewhere like this (dataflow.c,
 * value_used): READ_ONCE(count) added into a statistic decides nothing. */
static void walk_value(struct ectx *x, CXCursor c, const char *sink)
{
	struct deps d = { 0 }, *outer = x->collect;
	struct event *e;
	/* (a branch's: which successor its condition holding leads to;
	 * conditions inside this one set their own) */
	int true_succ = x->cond_succ - 1, from = x->nevents;
	/* Whether a value returned is fresh memory (known before the return
	 * hands it on): the analysis finds allocator wrappers from it. */
	char *fresh = strcmp(sink, "?ret") == 0 ? return_mark(x, c) : NULL;

	x->cond_succ = 0;
	x->collect = &d;
	walk_expr(x, c, M_READ);
	x->collect = outer;
	if (fresh)
		deps_add(&d, fresh);
	free(fresh);
	/* (a return of a value is recorded even when the value depends on
	 * nothing: it tells the analysis that the function returns one) */
	if (!d.buf && strcmp(sink, "?ret") != 0)
		return;
	deps_merge_text(outer, d.buf);
	/* (the comparison is the test's own: not merged into an outer
	 * value) */
	if (d.buf && strcmp(sink, "?ret") != 0) {
		char *compare = compare_item(x, c, true_succ, from);

		deps_add(&d, compare);
		free(compare);
	}
	e = emit(x, EV_LOCAL, c);
	e->defines = xstrdup(sink);
	e->uses = d.buf;
}


/* A controlling expression: testing a pointer (if (!n)) hands it to no
 * one, so it does not end the pointer's freshness (extract_expr.c). */
void walk_cond(struct ectx *x, CXCursor c)
{
	x->no_escape++;
	walk_value(x, c, "?test");
	x->no_escape--;
}

/* The operator that condition C applies last, when it is "&&", "||" or
 * "!" (in OP), with its operands in *KIDS (the caller frees them); 0 for
 * any other expression.  Parentheses, implicit conversions and
 * __builtin_expect (likely(), unlikely()) are looked through. */
static int logical_operator(struct ectx *x, CXCursor c, char *op, size_t oplen, CXCursor **kids)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		int n = children(c, kids);

		op[0] = '\0';
		if ((k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr) && n == 1) {
			c = (*kids)[0];
		} else if (k == CXCursor_CallExpr && n >= 2 && is_expect_call(c)) {
			c = (*kids)[1];
		} else {
			if (k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator)
				operator_of(x, c, *kids, n, op, oplen);
			if ((k == CXCursor_BinaryOperator && n == 2 && (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0)) ||
			    (k == CXCursor_UnaryOperator && n == 1 && strcmp(op, "!") == 0))
				return n;
			free(*kids);
			*kids = NULL;
			return 0;
		}
		free(*kids);
		*kids = NULL;
	}
}

/* Is condition C a constant the compiler folds (1, 0, sizeof(long) ==
 * 8, an enumerator)?  Its value into *V. */
static int constant_condition(CXCursor c, long long *v)
{
	return clang_isExpression(clang_getCursorKind(c)) && evaluates_to_integer(c, v);
}

/* Walks condition C of a statement as jumping code: control goes on to
 * block WHEN_TRUE where C holds and to WHEN_FALSE where it does not.  An
 * &&, a || or a ! is taken apart into the branches it makes, so that the
 * graph has no path that the program cannot take: with one test of the
 * whole value after both operands, while (!(*lock == 0 && cas(lock, 0,
 * 1))) seemed to leave the loop when *lock != 0 too, past the
 * compare-and-swap that orders the critical section after the read.
 * Every other operand is tested by a value event of its own, of kind
 * SINK, at the end of its own block, whose edges are WHEN_TRUE then
 * WHEN_FALSE, or the other way round when FALSE_FIRST (a for loop's test,
 * whose exit is its first edge). */
static void walk_jumps(struct ectx *x, CXCursor c, const char *sink, int when_true, int when_false,
		       int false_first)
{
	CXCursor *kids = NULL;
	char op[8];
	int n = logical_operator(x, c, op, sizeof op, &kids);
	long long value;

	if (n == 1) {                       /* !E: E's outcomes swapped */
		walk_jumps(x, kids[0], sink, when_false, when_true, false_first);
	} else if (n == 2) {
		int right = new_block(x);

		/* A && B: B runs where A holds; A || B: where A does not */
		if (op[0] == '&')
			walk_jumps(x, kids[0], sink, right, when_false, false_first);
		else
			walk_jumps(x, kids[0], sink, when_true, right, false_first);
		x->cur = right;
		walk_jumps(x, kids[1], sink, when_true, when_false, false_first);
	} else if (constant_condition(c, &value)) {
		/* while (1), do ... while (0), if (sizeof(long) == 8): one
		 * way only.  With the other edge, a path left while (1) at its
		 * head, past the body that takes a lock before the break.  Its
		 * accesses are still made: clang folds (c = 1, 1) too, the
		 * side effect ignored (a literal makes none). */
		walk_expr(x, c, M_READ);
		block_add_edge(x->fn, x->cur, value ? when_true : when_false);
	} else {
		x->cond_succ = false_first ? 2 : 1;
		walk_value(x, c, sink);
		block_add_edge(x->fn, x->cur, false_first ? when_false : when_true);
		block_add_edge(x->fn, x->cur, false_first ? when_true : when_false);
	}
	free(kids);
}

/* The condition C of an if ("?test") or of a loop ("?loop"), as jumping
 * code (walk_jumps): control goes on to WHEN_TRUE where it holds, to
 * WHEN_FALSE where it does not (FALSE_FIRST: the test's first edge).
 * Testing a pointer hands it to no one (it stays fresh, extract_expr.c).
 * A read tested in a loop's condition is waited on, and what follows the
 * loop runs only once it has the value wanted.  WAITS: the loop has no
 * step of its own (a while or do loop, a for loop without an increment),
 * so a plain read in its condition polls the object (pairing.c's plain
 * flags); a counting loop (for (i = 0; i < n; i++)) reads its bound, it
 * does not wait for it. */
static void walk_condition(struct ectx *x, CXCursor c, const char *sink, int waits, int when_true, int when_false,
			   int false_first)
{
	x->no_escape++;
	x->loop_cond += waits;
	walk_jumps(x, c, sink, when_true, when_false, false_first);
	x->loop_cond -= waits;
	x->no_escape--;
}

/* Walks BRANCH of an if statement.  A branch that cannot fall through
 * (it ends in a return, a break, a goto) hands nothing on to the code
 * after the if, which only the other branch reaches: the fresh pointers
 * it handed on are fresh again there (rculfhash's unique-add path stores
 * the node into an iterator and returns; the insert path publishes it). */
static void walk_branch(struct ectx *x, CXCursor branch)
{
	struct fresh_table before = { 0 };

	fresh_save(x, &before);
	walk_any(x, branch);
	if (x->cur == x->cfg.dead)
		fresh_restore(x, &before);
	free_fresh(&before);
}

static void walk_if(struct ectx *x, CXCursor *k, int n)
{
	int then_b, else_b, join, guarded;

	if (n < 2)
		return;
	then_b = new_block(x);
	join = new_block(x);
	else_b = n >= 3 ? new_block(x) : join;
	walk_condition(x, k[0], "?test", 0, then_b, else_b, 0);
	x->cur = then_b;
	guarded = branch_guards_enter(x, k[0], 1);
	walk_branch(x, k[1]);
	if (guarded)
		branch_guards_leave(x);
	fall_into(x, join);
	if (n >= 3) {
		x->cur = else_b;
		guarded = branch_guards_enter(x, k[0], 0);
		walk_branch(x, k[2]);
		if (guarded)
			branch_guards_leave(x);
		fall_into(x, join);
	}
	x->cur = join;
}

static void walk_while(struct ectx *x, CXCursor *k, int n)
{
	int head = new_block(x), body = new_block(x), out = new_block(x), from = x->nevents;
	struct fresh_table saved = { 0 }, lost = { 0 };

	if (n < 2)
		return;
	fall_into(x, head);
	fresh_save(x, &saved);
	walk_condition(x, k[0], "?loop", 1, body, out, 0);
	fresh_retry_body(x, &saved, from, &lost);
	x->cur = body;
	push_loop(x, out, head);
	walk_any(x, k[1]);
	pop_loop(x, 1);
	fresh_loop_again(x, &saved, from);
	fall_into(x, head);
	x->cur = out;
	fresh_after_retry(x, &lost);
	free_fresh(&saved);
	free_fresh(&lost);
}

static void walk_do(struct ectx *x, CXCursor *k, int n)
{
	int body = new_block(x), cond = new_block(x), out = new_block(x), from = x->nevents;
	struct fresh_table saved = { 0 };

	if (n < 2)
		return;
	fall_into(x, body);
	fresh_save(x, &saved);
	push_loop(x, out, cond);
	walk_any(x, k[0]);
	pop_loop(x, 1);
	/* (what the condition hands on is handed on when the loop ends: a
	 * compare-and-swap that repeats the body only when it failed) */
	fresh_loop_again(x, &saved, from);
	free_fresh(&saved);
	fall_into(x, cond);
	walk_condition(x, k[1], "?loop", 1, body, out, 0);
	x->cur = out;
}

/* for (init; cond; inc) body: libclang omits absent parts, so the parts
 * are told apart by where they stand relative to the two semicolons. */
static void walk_for(struct ectx *x, CXCursor c, CXCursor *k, int n)
{
	CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor();
	CXFile f;
	unsigned l, col, start, semi1 = 0, semi2 = 0, rparen = 0;
	size_t size;
	const char *text;
	int head, body, step, out, from;
	struct fresh_table saved = { 0 };

	if (n < 1)
		return;
	loc_of(clang_getRangeStart(clang_getCursorExtent(c)), &f, &l, &col, &start);
	text = f ? file_text(x, f, &size) : NULL;
	if (text && start + 3 < size && strncmp(text + start, "for", 3) == 0) {
		int depth = 0;

		for (unsigned i = start + 3; i < size; i++) {
			if (text[i] == '(')
				depth++;
			else if (text[i] == ')' && --depth == 0) {
				rparen = i;
				break;
			} else if (text[i] == ';' && depth == 1) {
				if (!semi1)
					semi1 = i;
				else if (!semi2)
					semi2 = i;
			}
		}
	}
	if (rparen && semi2) {
		for (int i = 0; i < n - 1; i++) {
			unsigned o;
			CXFile ff;

			loc_of(clang_getRangeStart(clang_getCursorExtent(k[i])), &ff, &l, &col, &o);
			if (o < semi1)
				init = k[i];
			else if (o < semi2)
				cond = k[i];
			else if (o < rparen)
				inc = k[i];
		}
	} else if (n == 4) {
		init = k[0];
		cond = k[1];
		inc = k[2];
	} else {
		/* Written by a macro and parts missing: run them all up front. */
		for (int i = 0; i < n - 1; i++)
			walk_any(x, k[i]);
	}
	if (!clang_Cursor_isNull(init))
		walk_any(x, init);
	head = new_block(x);
	body = new_block(x);
	step = new_block(x);
	out = new_block(x);
	fall_into(x, head);
	from = x->nevents;
	fresh_save(x, &saved);
	/* (the exit is the test's first edge, the body its second) */
	if (!clang_Cursor_isNull(cond))
		walk_condition(x, cond, "?loop", clang_Cursor_isNull(inc), body, out, 1);
	else
		block_add_edge(x->fn, x->cur, body);
	x->cur = body;
	push_loop(x, out, step);
	walk_any(x, k[n - 1]);
	pop_loop(x, 1);
	fall_into(x, step);
	if (!clang_Cursor_isNull(inc))
		walk_expr(x, inc, M_READ);
	fresh_loop_again(x, &saved, from);
	free_fresh(&saved);
	fall_into(x, head);
	x->cur = out;
}

static void walk_switch(struct ectx *x, CXCursor *k, int n)
{
	struct switch_ctx sw, *saved = x->cfg.sw;
	int out = new_block(x);

	if (n < 2)
		return;
	walk_value(x, k[0], "?test");
	sw.head = x->cur;
	sw.has_default = 0;
	x->cfg.sw = &sw;
	x->cur = new_block(x);          /* code before the first case: dead */
	push_loop(x, out, -1);
	walk_any(x, k[n - 1]);
	pop_loop(x, 0);
	fall_into(x, out);
	if (!sw.has_default)
		block_add_edge(x->fn, sw.head, out);
	x->cfg.sw = saved;
	x->cur = out;
}

static void walk_case(struct ectx *x, CXCursor c, CXCursor *k, int n)
{
	int b = new_block(x);

	fall_into(x, b);                 /* fall-through from the case above */
	if (x->cfg.sw) {
		block_add_edge(x->fn, x->cfg.sw->head, b);
		if (clang_getCursorKind(c) == CXCursor_DefaultStmt)
			x->cfg.sw->has_default = 1;
	}
	/* case VALUE: STMT — the value is a constant; only the statement runs. */
	if (n >= 1)
		walk_any(x, k[n - 1]);
}

void walk_stmt(struct ectx *x, CXCursor c);

static void walk_stmt_in(struct ectx *x, CXCursor c)
{
	enum CXCursorKind kind = clang_getCursorKind(c);
	const struct site *s = site_containing(x, c);
	CXCursor *k;
	int n;

	if (clang_isExpression(kind)) {
		walk_discarded(x, c);
		return;
	}
	if (s) {
		/* A statement written by a vocabulary macro (smp_mb() as inline
		 * assembly, do { ... } while (0) bodies): the macro is the event. */
		handle_site(x, s, c, M_READ);
		return;
	}
	if (handle_nested_site(x, c, M_READ))
		return;
	n = children(c, &k);
	switch (kind) {
	case CXCursor_CompoundStmt:
		for (int i = 0; i < n; i++)
			walk_any(x, k[i]);
		break;
	case CXCursor_IfStmt:
		walk_if(x, k, n);
		break;
	case CXCursor_WhileStmt:
		walk_while(x, k, n);
		break;
	case CXCursor_DoStmt:
		walk_do(x, k, n);
		break;
	case CXCursor_ForStmt:
		walk_for(x, c, k, n);
		break;
	case CXCursor_SwitchStmt:
		walk_switch(x, k, n);
		break;
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		walk_case(x, c, k, n);
		break;
	case CXCursor_BreakStmt:
		if (x->cfg.nbrk)
			jump(x, x->cfg.brk[x->cfg.nbrk - 1]);
		break;
	case CXCursor_ContinueStmt:
		if (x->cfg.ncont)
			jump(x, x->cfg.cont[x->cfg.ncont - 1]);
		break;
	case CXCursor_ReturnStmt:
		for (int i = 0; i < n; i++)
			walk_value(x, k[i], "?ret");
		jump(x, x->fn->exit);
		break;
	case CXCursor_GotoStmt: {
		CXCursor label = clang_getCursorReferenced(c);
		CXString name = clang_getCursorSpelling(label);

		jump(x, label_block(x, clang_getCString(name)));
		clang_disposeString(name);
		break;
	}
	case CXCursor_IndirectGotoStmt:
		for (int i = 0; i < n; i++)
			walk_expr(x, k[i], M_READ);
		/* Conservatively, any label (labels defined later are joined
		 * when they are created; the function exit stands in). */
		for (int i = 0; i < x->cfg.nlabels; i++)
			block_add_edge(x->fn, x->cur, x->cfg.labels[i].block);
		jump(x, x->fn->exit);
		break;
	case CXCursor_LabelStmt: {
		CXString name = clang_getCursorSpelling(c);

		fall_into(x, label_block(x, clang_getCString(name)));
		clang_disposeString(name);
		for (int i = 0; i < n; i++)
			walk_any(x, k[i]);
		break;
	}
	case CXCursor_DeclStmt:
		for (int i = 0; i < n; i++) {
			CXCursor init;

			if (clang_getCursorKind(k[i]) != CXCursor_VarDecl)
				continue;
			/* Only the initialiser: an expression in the type
			 * (__typeof__(x) v;) is not evaluated. */
			init = clang_Cursor_getVarDeclInitializer(k[i]);
			if (!clang_Cursor_isNull(init))
				walk_initializer(x, k[i], init);
		}
		break;
	case CXCursor_GCCAsmStmt:
		walk_asm(x, c);
		break;
	default:
		for (int i = 0; i < n; i++)
			walk_any(x, k[i]);
		break;
	}
	free(k);
}

/* walk_stmt, one level deeper (extract_int.h, nest_enter). */
void walk_stmt(struct ectx *x, CXCursor c)
{
	if (nest_enter(x))
		walk_stmt_in(x, c);
	nest_leave(x);
}
