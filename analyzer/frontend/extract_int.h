/* analyzer/frontend/extract_int.h — state shared by the front end's files
 * (extract.c: translation unit and sites; extract_stmt.c: statements and
 * control flow; extract_expr.c: expressions, accesses and objects). */
#ifndef KCSAN_EXTRACT_INT_H
#define KCSAN_EXTRACT_INT_H

#include "libclang.h"
#include "analyzer/model/facts.h"
#include "analyzer/model/vocab.h"

#define SITE_MAX_ARGS 12

/* A use of a vocabulary name in the source: a macro expansion or a call
 * (or builtin) written as NAME(args).  Offsets are in the file. */
struct site {
	const struct vocab_entry *v;
	CXFile file;
	unsigned start, end;                 /* whole site, [start, end) */
	int nargs;
	unsigned astart[SITE_MAX_ARGS], aend[SITE_MAX_ARGS];
	unsigned line, col;
};

/* A growing string of ",name,name,@3," items: the locals and events an
 * address or a value depends on. */
struct deps {
	char *buf;
	size_t len, cap;
};

/* Adds every item of a ",a,@3," list to D (D may be NULL). */
void deps_merge_text(struct deps *d, const char *text);

struct file_text {
	CXFile file;
	const char *text;
	size_t size;
};

/* A top-level macro expansion in the file, [start, end). */
struct expansion_range {
	CXFile file;
	unsigned start, end;
};

/* A macro definition of the TU (extract_macro.c). */
struct macro_def {
	char *name;
	CXFile file;
	unsigned start, body, end;        /* NAME(params) body: offsets */
	char *first;                      /* the body's first identifier */
	int nparams;
	char *params[SITE_MAX_ARGS];
	struct site *inner;               /* vocabulary used in the body */
	int ninner;
	int project;                      /* not in a system header */
};

/* An invocation of a project macro whose body uses vocabulary: CALL has
 * the invocation's range and arguments in the file (CALL.v is NULL). */
struct macro_host {
	struct site call;
	char *name;
	CXFile def_file;
	unsigned def_off;
	int def;                          /* index in defs, -1 if unknown */
};

struct switch_ctx {
	int head;          /* the block that evaluates the controlling expression */
	int has_default;
};

/* The deepest the walks go (see ectx.depth).  Real code stays below a few
 * hundred levels; a level costs at most a few kilobytes of stack, and the
 * scan walks on a thread with a stack far larger than this needs
 * (scan_workers.c). */
#ifndef MAX_NESTING
#define MAX_NESTING 4000
#endif

struct ectx {
	CXTranslationUnit tu;
	const struct vocab *vocab;
	struct tu_facts *facts;
	struct function *fn;
	CXCursor fn_cursor;               /* the definition being walked */
	int cur;                          /* current basic block */
	int nevents;                      /* events emitted in fn so far */

	int *brk, *cont;                  /* targets of break / continue */
	int nbrk, ncont, brkcap, contcap;
	struct { char *name; int block; } *labels;
	int nlabels, labelcap;
	struct switch_ctx *sw;            /* innermost switch, or NULL */

	struct site *sites;               /* macro sites of the TU, by start */
	int nsites, sitecap;
	const struct site **active;       /* sites being expanded (nested) */
	int nactive, activecap;

	/* How deep the recursive walks are nested now.  They recurse once per
	 * level of the code's nesting, so a pathological file (a 12,000-term
	 * sum is a 12,000-deep tree) would exhaust any stack: past
	 * MAX_NESTING levels the walk gives up, sets too_deep, and the TU
	 * fails with one line (extract.c) instead of crashing the scan. */
	int depth;
	int too_deep;

	struct locals *locals;            /* the function's locals: which stay
					     private, where pointers point
					     (extract_locals.c) */
	struct { char *usr, *target; } *aliases;   /* local pointer -> object */
	int naliases, aliascap;
	/* Local pointers holding memory fresh from an allocator whose value has
	 * not escaped yet (in walk order): accesses through them initialise
	 * memory no other thread can reach (marked ",!new," in uses; see
	 * extract_fresh.c). */
	struct { char *usr, *mark; } *fresh;
	int nfresh, freshcap;
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

	struct deps *collect;             /* where locals read go, or NULL */
	unsigned discarded_start;         /* the expression statement being walked: */
	unsigned discarded_end;           /* its value is thrown away */

	struct file_text *texts;
	int ntexts, textcap;

	struct expansion_range *expansions;   /* every expansion, by start */
	int nexp, expcap;
	struct macro_def *defs;               /* by name, once finished */
	int ndefs, defcap;
	struct macro_host *hosts;             /* by start, once finished */
	int nhosts, hostcap;
};

/* extract.c */
const char *file_text(struct ectx *x, CXFile f, size_t *size);
void loc_of(CXSourceLocation l, CXFile *f, unsigned *line, unsigned *col, unsigned *off);
int children(CXCursor c, CXCursor **out);
int split_args(const char *text, size_t size, unsigned pos, struct site *s);
int is_ident_char(char c);
const struct site *site_containing(struct ectx *x, CXCursor c);
int site_from_call(struct ectx *x, CXCursor c, struct site *out);
char *cursor_file_name(CXCursor c);
/* Does an unexposed attribute of FN have a token containing WORD
 * (case-insensitively)?  (extract.c) */
int has_attribute_token(struct ectx *x, CXCursor fn, const char *word);
/* How calls name function FN across the tree: its name, or path:name for
 * a static function. */
char *function_link_key(CXCursor fn);

/* extract_expr.c */
enum mode { M_READ, M_WRITE, M_RMW, M_ADDR };
void walk_expr(struct ectx *x, CXCursor c, enum mode m);
struct event *emit(struct ectx *x, enum ev_kind kind, CXCursor at);
void walk_initializer(struct ectx *x, CXCursor var, CXCursor init);
void walk_asm(struct ectx *x, CXCursor c);
void note_marked_read(struct ectx *x, const struct event *e);

/* extract_deps.c */
/* Adds ITEM to D (either may be NULL: nothing to add). */
void deps_add(struct deps *d, const char *item);
void deps_merge(struct deps *into, const struct deps *from);
void deps_add_prefixed(struct deps *into, const char *text, const char *prefix);

/* extract_object.c */
CXCursor first_child(CXCursor c);
CXCursor strip(CXCursor c);
char *usr_of(CXCursor c);
char *spelling_of(CXCursor c);
char *display_text(struct ectx *x, CXCursor c);
int is_array_type(CXType t);
void forget_aliases(struct ectx *x);
void note_alias(struct ectx *x, const char *usr, char *target);
char *parameter_target(struct ectx *x, CXCursor ref);
char *object_of_lvalue(struct ectx *x, CXCursor c);
char *object_of_pointer(struct ectx *x, CXCursor c);
char *function_named(CXCursor c);

/* extract_primitive.c */
void handle_site(struct ectx *x, const struct site *s, CXCursor c, enum mode m);
void handle_call_in_macro(struct ectx *x, const struct vocab_entry *v, CXCursor c);

/* Is REF (a declaration) a variable local to the function being walked
 * (a parameter, or an automatic variable)? */
int is_local(CXCursor ref);
/* The operator of unary or binary operator C (children KIDS, N of them):
 * "&", "*", "++", "=", "+=", "==", ... ("" if unknown). */
void operator_of(struct ectx *x, CXCursor c, CXCursor *kids, int n, char *op, size_t oplen);
/* The outermost descendants of C written inside the argument ranges of
 * site S: ROOTS[i] gets argument i's expression (left null when not
 * found).  DEPTH is 0. */
void find_arg_roots(struct ectx *x, const struct site *s, CXCursor c, CXCursor *roots, int depth);

/* extract_locals.c */
/* Before walking function body BODY: which locals' addresses escape, and
 * what each local pointer may point to. */
void analyse_locals(struct ectx *x, CXCursor body);
void forget_locals(struct ectx *x);
/* Does the address of the local variable named USR escape to where
 * another thread could use it? */
int local_escapes(struct ectx *x, const char *usr);
/* "l:FUNCTION:v" when pointer expression C can point only into locals of
 * this function whose address does not escape (&v, an array v, p = &v
 * and its copies, (&v)->a, &v.a[2]); NULL otherwise. */
char *private_pointee(struct ectx *x, CXCursor c);
/* Is lvalue C part of such a local (v.a, (&v)->a, p->a with p = &v)? */
int private_lvalue(struct ectx *x, CXCursor c);

/* extract_fresh.c */
/* Local pointer VAR now holds fresh memory whose accesses carry MARK
 * (taken over), or, MARK NULL, no longer does. */
void set_fresh(struct ectx *x, CXCursor var, char *mark);
/* The mark of local pointer VAR if it is fresh, else NULL. */
const char *fresh_mark(struct ectx *x, CXCursor var);
void forget_fresh(struct ectx *x);
/* At the entry of the function being walked: its pointer parameters are
 * fresh in the calls that pass fresh memory ("!newarg:N"). */
void fresh_parameters(struct ectx *x);
/* The mark VALUE makes a pointer fresh with, when it is a call: "!new"
 * for an allocator, "!new:KEY" for another function; NULL otherwise. */
char *allocation_mark(CXCursor value);
/* What a "return VALUE;" tells about fresh memory (for allocator
 * wrappers): the mark of a fresh pointer or allocation returned, "!null"
 * for a null pointer, or NULL. */
char *return_mark(struct ectx *x, CXCursor value);
/* The local pointer variable that lvalue or pointer C is reached through
 * (n in n->a, n->in.b, n[2], *n, &n[1], (char *)n + 8), or a null cursor. */
CXCursor base_pointer(CXCursor c);
/* The mark of the fresh local pointer that lvalue or pointer C is reached
 * through, or NULL. */
const char *points_to_fresh(struct ectx *x, CXCursor c);

/* extract_uneval.c */
/* Is CALL one of the builtins that do not evaluate their operand
 * (__builtin_constant_p)? */
int unevaluated_call(CXCursor call);
/* When expression C (children KIDS, N of them) has operands that are not
 * evaluated (__builtin_offsetof's type, a compound literal's type,
 * _Generic's controlling expression and unselected associations): sets
 * WALK[i] for the children that are, and returns 1; else returns 0. */
int evaluated_operands(CXCursor c, CXCursor *kids, int n, unsigned char *walk);

/* extract_noreturn.c */
/* Does CALL never return (exit, abort, a function declared noreturn)? */
int never_returns(struct ectx *x, CXCursor call);

/* extract_text.c */
int spelling_loc(struct ectx *x, CXSourceLocation l, CXFile *f, unsigned *off);
int written_in_file(struct ectx *x, CXSourceLocation l);
/* C as text rebuilt from its AST (for what a macro body wrote). */
char *ast_text(struct ectx *x, CXCursor c);
/* The operator of unary or binary operator C (children KIDS, N of them)
 * written in a macro body: for a binary one "=" or "" (another operator),
 * for a unary one "&", "*", "++", "-", ... ("" if unknown). */
void ast_operator(struct ectx *x, CXCursor c, CXCursor *kids, int n, char *op, size_t oplen);
void note_expansion_range(struct ectx *x, CXFile f, unsigned start, unsigned end);
void sort_expansions(struct ectx *x);
int extent_is_text(struct ectx *x, CXCursor c, CXFile f, unsigned o1, unsigned o2);

/* Where and how a primitive is written, for emit_primitive. */
struct use_of {
	const struct vocab_entry *v;
	CXCursor *roots;        /* argument expressions (null cursors if unseen) */
	int nargs;
	char *args;             /* argument texts separated by U+001F, or NULL */
	const struct site *site;/* the macro site being expanded, or NULL */
	int discarded;
	unsigned line, col;
	int mode;               /* enum mode of the use, for OP_ACCESS */
};
/* Walks the arguments of primitive U (written at C) and emits its event. */
void emit_primitive(struct ectx *x, struct use_of *u, CXCursor c);

/* extract_macro.c */
void note_macro_definition(struct ectx *x, CXCursor def);
void note_macro_host(struct ectx *x, CXCursor expansion);
void finish_macro_tables(struct ectx *x);
void free_macro_tables(struct ectx *x);
/* If C is the expansion of a vocabulary macro written inside the body of
 * one of the project's macros, emits the primitive and returns 1. */
int handle_nested_site(struct ectx *x, CXCursor c, int mode);

/* extract_stmt.c */
void walk_stmt(struct ectx *x, CXCursor c);

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
void walk_discarded(struct ectx *x, CXCursor c);
int new_block(struct ectx *x);
void jump(struct ectx *x, int to);
/* Ends the current block with an edge to TO, which becomes current. */
void fall_into(struct ectx *x, int to);
/* Walks C, a controlling expression, and records what it tests ("?test"). */
void walk_cond(struct ectx *x, CXCursor c);

#endif
