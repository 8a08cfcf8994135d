/* analyzer/frontend/extract_asm.c — inline assembly: the fence an asm
 * statement makes, and the memory its operands name.
 *
 * GCC's extended asm names the memory its instructions touch as operands:
 * "=m" (*dst) is written, "+m" (v->cnt) read and written, "m" (x) read.
 * When an atomic instruction is among the instructions (x86's lock prefix,
 * or xchg; arm64's exclusive pairs and LSE atomics; PowerPC's reservations;
 * RISC-V's AMOs), the memory operands are what it updates: each is one
 * marked RMW.  That is how hand-written atomics look: DPDK's x86
 * rte_atomic*.h and rte_spinlock.h, liburcu's x86 uatomic, Concurrency
 * Kit's ck_pr, older kernels'.  Any other memory operand is one access the
 * compiler neither splits nor merges: a marked read or write, ordered by
 * nothing unless its instruction is an acquire load or a release store
 * (arm64's ldar, stlr).  An asm with no memory operand is a fence, or only
 * a compiler barrier (a "memory" clobber orders nothing at run time).
 *
 * libclang gives the operands' expressions (the statement's children:
 * the outputs, then the inputs) but neither the template nor the
 * constraints, and the source text has them unexpanded (MPLOCKED
 * "cmpxchgw ...", a template built from a macro's parameter).  Both are
 * read from the enclosing function as clang prints it, macros expanded
 * and adjacent literals joined: the Nth asm statement of that text is the
 * Nth of the function's tree.  The function is printed once, at its first
 * asm statement. */
#include "extract_int.h"
#include "extract_asm.h"
#include "extract_asm_text.h"
#include "extract_expr.h"
#include "extract_object.h"

#include <stdlib.h>
#include <string.h>

/* Are A and B one statement?  (Two cursors of one statement need not be
 * equal to clang_equalCursors: they remember the path they were reached
 * by.)  Where the file has it, and where its text is spelled: a macro used
 * twice spells two statements at one place. */
static int same_statement(CXCursor a, CXCursor b)
{
	CXSourceRange ra = clang_getCursorExtent(a), rb = clang_getCursorExtent(b);
	CXSourceLocation la[3] = { clang_getRangeStart(ra), clang_getRangeStart(ra), clang_getRangeEnd(ra) };
	CXSourceLocation lb[3] = { clang_getRangeStart(rb), clang_getRangeStart(rb), clang_getRangeEnd(rb) };

	for (int i = 0; i < 3; i++) {
		CXFile fa, fb;
		unsigned oa, ob;

		if (i == 0) {
			clang_getFileLocation(la[i], &fa, NULL, NULL, &oa);
			clang_getFileLocation(lb[i], &fb, NULL, NULL, &ob);
		} else {
			clang_getSpellingLocation(la[i], &fa, NULL, NULL, &oa);
			clang_getSpellingLocation(lb[i], &fb, NULL, NULL, &ob);
		}
		if (oa != ob || !clang_File_isEqual(fa, fb))
			return 0;
	}
	return 1;
}

static enum CXChildVisitResult collect_asm(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ectx *x = d;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_GCCAsmStmt) {
		grow(&x->asm_stmts.v, &x->asm_stmts.cap, x->asm_stmts.n + 1, sizeof *x->asm_stmts.v);
		x->asm_stmts.v[x->asm_stmts.n++] = c;
	}
	return CXChildVisit_Recurse;
}

/* Takes apart asm statement C of the function being walked, from the
 * function as clang prints it.  At the function's first asm statement the
 * function is printed and its asm statements listed, in the order of its
 * tree, which is the order of the printed text.  Returns 0, or -1 when it
 * cannot. */
static int parts_of(struct ectx *x, CXCursor c, struct asm_parts *out)
{
	const char *at;
	int n = 0;

	if (!x->asm_text) {
		CXString s = clang_getCursorPrettyPrinted(x->fn_cursor, NULL);

		x->asm_text = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
		clang_disposeString(s);
		clang_visitChildren(x->fn_cursor, collect_asm, x);
	}
	while (n < x->asm_stmts.n && !same_statement(x->asm_stmts.v[n], c))
		n++;
	if (n == x->asm_stmts.n || !(at = asm_nth(x->asm_text, n)))
		return -1;
	return asm_parse(at, out);
}

void forget_asm(struct ectx *x)
{
	free(x->asm_text);
	x->asm_text = NULL;
	free(x->asm_stmts.v);
	memset(&x->asm_stmts, 0, sizeof x->asm_stmts);
}

/* Walks memory operand KID as an access of mode M, then makes it the asm's:
 * marked, named NAME, with order ORD. */
static void memory_access(struct ectx *x, CXCursor kid, enum mode m, const char *name, enum ord ord,
			  int discarded)
{
	struct event *e = walk_lvalue(x, kid, m);

	if (!e)
		return;
	e->marked = 1;
	free(e->name);
	e->name = xstrdup(name);
	e->ord = ord;
	e->discarded = discarded;
}

/* Has operand I an earlier memory operand (IN_MEMORY) with the same
 * expression (the "=m" (*dst) and "m" (*dst) of a compare-and-swap: one
 * access)? */
static int repeats_memory(const struct asm_parts *p, const unsigned char *in_memory, int i)
{
	for (int j = 0; j < i; j++)
		if (in_memory[j] && strcmp(p->ops[j].expr, p->ops[i].expr) == 0)
			return 1;
	return 0;
}

/* Is operand KID a local variable?  Its value is unknown after the asm
 * anyway (an operand makes it escape, extract_locals.c), and it is no
 * shared object. */
static int local_operand(CXCursor kid)
{
	CXCursor k = strip(kid);

	return clang_getCursorKind(k) == CXCursor_DeclRefExpr && is_local(clang_getCursorReferenced(k));
}

void walk_asm(struct ectx *x, CXCursor c)
{
	struct asm_parts p = { 0 };
	struct asm_atomicity a;
	CXCursor *kids;
	unsigned char *in_memory;         /* per operand: names memory */
	int n = children(c, &kids), memory = 0, register_out = 0;
	const char *extra;

	if (parts_of(x, c, &p) < 0 || p.nops != n) {
		/* unreadable: a compiler barrier, as the text shows it */
		struct event *e = emit(x, EV_BARRIER, c);

		e->ord = ORD_NONE;
		e->name = xstrdup("asm");
		asm_parts_free(&p);
		free(kids);
		return;
	}
	asm_atomicity_of(p.template, &a);
	extra = asm_arch_memory_letters(p.template);
	in_memory = xcalloc((size_t)n + 1, 1);
	for (int i = 0; i < n; i++) {
		in_memory[i] = (unsigned char)asm_memory_constraint(p.ops[i].constraint, extra);
		memory += in_memory[i];
		register_out += p.ops[i].output && !in_memory[i];
	}
	/* the inputs' values, read before the instructions run (a "+r"
	 * output's too) */
	for (int i = 0; i < n; i++)
		if ((!p.ops[i].output || strchr(p.ops[i].constraint, '+')) && !in_memory[i] && !local_operand(kids[i]))
			walk_expr(x, kids[i], M_READ);
	/* no atomic memory operand: a fence, or a compiler barrier (an
	 * atomic that names its memory in the text, lock; addl $0, (%rsp),
	 * is a full fence; one that swaps registers orders nothing) */
	if (!a.atomic || !memory) {
		struct event *e = emit(x, EV_BARRIER, c);

		e->ord = a.atomic && !a.register_xchg ? a.ord : a.fence;
		e->name = xstrdup("asm");
	}
	for (int i = 0; i < n; i++) {
		const struct asm_operand *op = &p.ops[i];

		/* (an empty template touches no memory: "+m" (x) there only
		 * tells the compiler that x may have changed) */
		if (!a.instructions || !in_memory[i] || repeats_memory(&p, in_memory, i))
			continue;
		if (a.atomic) {
			/* the RMW: its old value comes out in a register
			 * output, or it is made for its effect */
			memory_access(x, kids[i], M_RMW, a.name, a.ord, register_out == 0);
			continue;
		}
		if (!op->output || strchr(op->constraint, '+'))
			memory_access(x, kids[i], M_READ, "asm", asm_access_order(p.template, 0), 0);
		if (op->output)
			memory_access(x, kids[i], M_WRITE, "asm", asm_access_order(p.template, 1), 0);
	}
	/* register outputs: written after the instructions */
	for (int i = 0; i < n; i++)
		if (p.ops[i].output && !in_memory[i] && !local_operand(kids[i]))
			walk_expr(x, kids[i], M_WRITE);
	free(in_memory);
	free(a.name);
	asm_parts_free(&p);
	free(kids);
}
