/* analyzer/frontend/extract_asm_text.h — the text of an asm statement
 * (extract_asm_text.c): taken apart, and what its instructions and
 * operands are.  No libclang. */
#ifndef KCSAN_EXTRACT_ASM_TEXT_H
#define KCSAN_EXTRACT_ASM_TEXT_H

#include "analyzer/model/vocab.h"

/* One operand of an extended asm, as the statement spells it. */
struct asm_operand {
	int output;          /* in the outputs' list (else an input) */
	char *constraint;    /* "=m", "+q", "[lv]", "0" ... */
	char *expr;          /* the C expression between its parentheses */
};

/* An asm statement taken apart: its template (the instructions, adjacent
 * literals joined and macros expanded) and its operands in order. */
struct asm_parts {
	char *template;
	struct asm_operand *ops;
	int nops, cap;
};

/* Takes apart the asm statement that TEXT starts with ("asm volatile
 * (...)", as clang prints it) into *OUT.  Returns 0, or -1 when TEXT is
 * not one (then *OUT holds nothing to free). */
int asm_parse(const char *text, struct asm_parts *out);
void asm_parts_free(struct asm_parts *p);

/* The start of the Nth asm statement (from 0) in TEXT, a function as
 * clang prints it, string literals skipped; NULL if it has fewer. */
const char *asm_nth(const char *text, int n);

/* What the instructions of a template do to the memory operands. */
struct asm_atomicity {
	int instructions;    /* how many (0: an empty template, which touches
				no memory whatever its operands say) */
	int atomic;          /* an atomic RMW instruction is among them */
	enum ord ord;        /* the order it makes (the RMW's, or the
				fence's when none is atomic) */
	enum ord fence;      /* the order of its fences alone (an x86
				locked instruction is one) */
	int register_xchg;   /* the atomic is an x86 xchg whose text names
				no memory: with no memory operand either, it
				swaps two registers, atomic and fence of
				nothing */
	char *name;          /* "asm cmpxchgw": the RMW's mnemonic, which
				tells a counting RMW from a claim (tally.c);
				the caller frees it */
};

/* Reads the instructions of TEMPLATE (as asm_parse left it). */
void asm_atomicity_of(const char *template, struct asm_atomicity *out);

/* The memory constraints of the architecture that TEMPLATE's instructions
 * are written for, beyond "m", "o" and "V": "Q" for arm64, "A" for
 * RISC-V, "" otherwise (both are register classes on x86). */
const char *asm_arch_memory_letters(const char *template);
/* Is C (a constraint) one of a memory operand, EXTRA counting as memory
 * too?  Only constraints that allow memory alone count. */
int asm_memory_constraint(const char *c, const char *extra);
/* The order of a memory operand's single load (WRITE 0) or store (WRITE
 * 1) that is no atomic: an acquire for arm64's ldar, a release for stlr,
 * else relaxed. */
enum ord asm_access_order(const char *template, int write);

#endif
