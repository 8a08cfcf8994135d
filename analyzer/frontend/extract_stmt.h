/* analyzer/frontend/extract_stmt.h — statements into the control-flow graph
 * of the function being walked (extract_stmt.c), and the state that needs:
 * where break and continue go, the labels, the innermost switch. */
#ifndef KCSAN_EXTRACT_STMT_H
#define KCSAN_EXTRACT_STMT_H

#include "libclang.h"

struct ectx;

struct switch_ctx {
	int head;          /* the block that evaluates the controlling expression */
	int has_default;
};

struct label {
	char *name;
	int block;
};

/* Grows with the nesting of the code: no limit of its own (the walk's
 * depth is bounded by MAX_NESTING, extract_int.h). */
struct cfg_state {
	int *brk, *cont;                  /* targets of break / continue */
	int nbrk, ncont, brkcap, contcap;
	struct label *labels;             /* the function's labels so far */
	int nlabels, labelcap;
	struct switch_ctx *sw;            /* innermost switch, or NULL */
	int dead;                         /* the unreachable block the last
					     jump started (code after a
					     return, break, goto), or -1 */
};

/* Walks statement C of the function being walked. */
void walk_stmt(struct ectx *x, CXCursor c);
/* Walks expression statement C (its value is thrown away). */
void walk_discarded(struct ectx *x, CXCursor c);
/* Walks C, a controlling expression, and records what it tests ("?test"). */
void walk_cond(struct ectx *x, CXCursor c);

/* A new block of the function being walked. */
int new_block(struct ectx *x);
/* Ends the current block with an edge to TO and starts an unreachable one. */
void jump(struct ectx *x, int to);
/* Ends the current block with an edge to TO, which becomes current. */
void fall_into(struct ectx *x, int to);

/* At the start of a function: no loops, no labels, no switch. */
void cfg_start_function(struct ectx *x);
void free_cfg_state(struct cfg_state *s);

#endif
