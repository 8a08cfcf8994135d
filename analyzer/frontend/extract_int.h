/* analyzer/frontend/extract_int.h — the context the front end's files share
 * while they walk one translation unit (struct ectx), and the few helpers
 * all of them use.
 *
 * Each part of the context belongs to one file, which declares it in its
 * own header with the functions that use it; the other files go through
 * those functions:
 *
 *   text     extract_text.h     the files' contents, the macro expansions
 *   sites    extract_sites.h    the vocabulary's sites, those being expanded
 *   macros   extract_macro.h    the project's macros that use vocabulary
 *   cfg      extract_stmt.h     break/continue targets, labels, switch
 *   locals   extract_locals.h   which locals stay private, points-to sets
 *   aliases  extract_object.h   local pointers that stand for one object
 *   fresh    extract_fresh.h    local pointers to memory not yet shared
 *   fnlocals extract_fnlocals.h local function pointers and what they hold
 *   owned    extract_owned.h    local pointers to memory allocated here
 *   spans    extract_span.h     libclang's extents and spellings, kept
 *
 * What stays here is what the walks of statements and expressions share:
 * the TU, the function being walked, the block events go to, and the
 * value flow of the expression being walked.  The files without state
 * (extract_expr.h, extract_primitive.h, extract_deps.h, extract_noreturn.h,
 * extract_uneval.h) are included where they are used. */
#ifndef KCSAN_EXTRACT_INT_H
#define KCSAN_EXTRACT_INT_H

#include "libclang.h"
#include "analyzer/model/facts.h"
#include "analyzer/model/vocab.h"

#include "extract_text.h"
#include "extract_sites.h"
#include "extract_macro.h"
#include "extract_stmt.h"
#include "extract_locals.h"
#include "extract_object.h"
#include "extract_fresh.h"
#include "extract_fnlocals.h"
#include "extract_owned.h"
#include "extract_span.h"
#include "analyzer/model/hashmap.h"

struct deps;

/* The deepest the walks go (see ectx.depth).  Real code stays below a few
 * hundred levels; a level costs at most a few kilobytes of stack, and the
 * scan walks on a thread with a stack far larger than this needs
 * (scan_workers.c). */
#ifndef MAX_NESTING
#define MAX_NESTING 4000
#endif

struct ectx {
	/* The translation unit. */
	CXTranslationUnit tu;
	const struct vocab *vocab;
	struct tu_facts *facts;
	const struct header_copies *copies; /* NULL: walk every function */
	struct { char **v; int n, cap; } harness; /* headers this TU defines main() in */
	struct source_text text;
	struct site_table sites;
	struct macro_tables macros;
	struct span_memo spans;           /* extents and spellings asked (extract_span.h) */
	struct hashmap wrappers;          /* per record type (its USR's hash): 1 +
					     whether all its members are atomics
					     (extract_object.c, has_atomic_member) */
	int c11_atomics;                  /* the TU declares C11 atomics: its
					     volatile objects are plain
					     (extract_model.c) */

	/* The function being walked. */
	struct function *fn;
	CXCursor fn_cursor;               /* its definition */
	int cur;                          /* the block events go to now */
	int nevents;                      /* events emitted in fn so far */
	struct cfg_state cfg;
	struct locals *locals;
	struct alias_table aliases;
	struct fresh_table fresh;
	/* Pointers that were fresh and have been handed on, with their old
	 * mark: a later marked store of one hands the memory on again (an
	 * MCS node swapped into the tail, then linked behind its
	 * predecessor).  Kept for the whole function, not saved and
	 * restored around branches as FRESH is; dropped when the local is
	 * assigned anew. */
	struct fresh_table handed;
	struct fn_local_table fnlocals;
	char *asm_text;                   /* the function as clang prints it,
					     once an asm statement asked
					     (extract_asm.c) */
	struct { CXCursor *v; int n, cap; } asm_stmts;  /* its asm statements,
					     in the order of its tree */
	struct owned_table owned;
	struct { char **v; int n, cap; } guards;   /* in force now (extract_guards.c) */
	char **guard_of;                  /* per event index: its guards' items */
	int nguard_of, guard_cap;

	/* The value flow of the expression being walked (statements set
	 * it up, expressions and primitives follow it). */
	struct deps *collect;             /* where locals read go, or NULL */
	int loop_cond;                    /* walking a loop's condition: a
					     plain read here is polled */
	int no_escape;                    /* a pointer read here is only tested
					     or dereferenced, not handed on */
	int conditional;                  /* inside an operand that may not be
					     evaluated (?:, && and ||, which stay
					     in one block): a call there that
					     never returns ends no path */
	CXCursor self_store;              /* the local pointer a store writes
					     through (n in n->next = &n[1]):
					     its value stored into its own
					     object is handed to no one */
	int cond_succ;                    /* 1 + the successor the branch about
					     to be walked goes to when its
					     condition holds, 0 unknown
					     (extract_compare.c) */
	unsigned discarded_start;         /* the expression statement being walked: */
	unsigned discarded_end;           /* its value is thrown away */

	/* How deep the recursive walks are nested now.  They recurse once per
	 * level of the code's nesting, so a pathological file (a 12,000-term
	 * sum is a 12,000-deep tree) would exhaust any stack: past
	 * MAX_NESTING levels the walk gives up, sets too_deep, and the TU
	 * fails with one line (extract.c) instead of crashing the scan. */
	int depth;
	int too_deep;
};

/* Enters one more level of a recursive walk: 0 when that is one too many
 * (then too_deep is set and the walk must return at once); every call is
 * paired with nest_leave, whatever it returned. */
static inline int nest_enter(struct ectx *x)
{
	if (++x->depth > MAX_NESTING)
		x->too_deep = 1;
	return !x->too_deep;
}

static inline void nest_leave(struct ectx *x)
{
	x->depth--;
}

/* extract.c: helpers over cursors and locations */
/* File location: for a token from a macro argument, where the argument
 * was written; for one from a macro body, where the macro was expanded. */
void loc_of(CXSourceLocation l, CXFile *f, unsigned *line, unsigned *col, unsigned *off);
/* The children of C (*OUT to be freed); returns how many. */
int children(CXCursor c, CXCursor **out);
/* The name of the file C is in, or NULL. */
/* The name of F, normalized as the compile database's paths are (no "."
 * or ".." parts), as a new string; NULL if F has none. */
char *file_name_of(CXFile f);
char *cursor_file_name(CXCursor c);
int is_ident_char(char c);
/* Does an unexposed attribute of FN have a token containing WORD
 * (case-insensitively)? */
int has_attribute_token(struct ectx *x, CXCursor fn, const char *word);
/* How calls name function FN across the tree: its name, or path:name for
 * a static function. */
char *function_link_key(CXCursor fn);
/* The profile's entry stating contract OP (vocab.h) of function FN, or
 * NULL. */
const struct vocab_entry *contract_of(struct ectx *x, CXCursor fn, enum op op);

#endif
