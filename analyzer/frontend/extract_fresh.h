/* analyzer/frontend/extract_fresh.h — the local pointers of the function
 * being walked that hold memory no other thread can reach yet
 * (extract_fresh.c), and the marks that say so in the facts. */
#ifndef KCSAN_EXTRACT_FRESH_H
#define KCSAN_EXTRACT_FRESH_H

#include "libclang.h"

struct ectx;

/* A local pointer holding fresh memory whose value has not escaped yet
 * (in walk order): accesses through it carry MARK in their uses. */
struct fresh_pointer {
	char *usr, *mark;
	int group;          /* nonzero: the locals holding copies of one fresh
			       pointer (new_node = node), handed on together */
};

struct fresh_table {
	struct fresh_pointer *v;
	int n, cap;
	int groups;         /* the last group number given */
};

/* Local pointer VAR now holds fresh memory whose accesses carry MARK
 * (taken over), or, MARK NULL, no longer does. */
void set_fresh(struct ectx *x, CXCursor var, char *mark);
/* The value of local pointer VAR is handed on (stored, passed, returned):
 * VAR and every copy of the same fresh pointer are fresh no longer. */
void hand_on_fresh(struct ectx *x, CXCursor var);
/* Is VALUE, assigned to a local pointer, a copy of a fresh local pointer
 * (node, (void *)node, node + 1, &node->list)?  Returns that local, or a
 * null cursor. */
CXCursor fresh_copy_source(struct ectx *x, CXCursor value);
/* Local pointer VAR now holds a copy of fresh local SOURCE: it carries
 * SOURCE's mark, and handing either on ends both. */
void copy_fresh(struct ectx *x, CXCursor var, CXCursor source);
/* The mark of local pointer VAR if it is fresh, else NULL. */
const char *fresh_mark(struct ectx *x, CXCursor var);
/* At the start of a function: nothing is fresh. */
void forget_fresh(struct ectx *x);
/* Frees T's entries and its array. */
void free_fresh(struct fresh_table *t);
/* At the entry of the function being walked: its pointer parameters are
 * fresh in the calls that pass fresh memory ("!newarg:N"). */
void fresh_parameters(struct ectx *x);
/* The mark VALUE makes a pointer fresh with, when it is a call: "!new"
 * for an allocator (malloc and the like, or a function the profile
 * declares 'alloc'), "!new:KEY" for another function; NULL otherwise. */
char *allocation_mark(struct ectx *x, CXCursor value);
/* What a "return VALUE;" tells about fresh memory (for allocator
 * wrappers): the mark of a fresh pointer or allocation returned, "!null"
 * for a null pointer, or NULL. */
char *return_mark(struct ectx *x, CXCursor value);
/* Is VALUE a null pointer constant (0, NULL, (void *)0)? */
int is_null_constant(CXCursor value);
/* The local pointer variable that lvalue or pointer C is reached through
 * (n in n->a, n->in.b, n[2], *n, &n[1], (char *)n + 8), or a null cursor. */
CXCursor base_pointer(CXCursor c);
/* Is VALUE the address held by or taken in the object of a local pointer
 * (p, (T *)p, &p->f, &p[i], p + 1, a tagged (unsigned long)p | 1, or the
 * call of a function of the translation unit that only returns its
 * parameter so: flag_bucket(p)), rather than a value loaded through it
 * (p->next, *p)?  Returns that local, or a null cursor. */
CXCursor pointer_value_base(struct ectx *x, CXCursor value);
/* Is CALL the call of such a function (one of this translation unit that
 * only returns a parameter, tagged or cast: flag_bucket(p))? */
int is_tagging_call(struct ectx *x, CXCursor call);
/* The mark of the fresh local pointer that lvalue or pointer C is reached
 * through, or NULL. */
const char *points_to_fresh(struct ectx *x, CXCursor c);
/* When pointer value VALUE (stored by a marked write, or passed as a
 * call's argument) is a pointer parameter not handed on yet, or the
 * address of a part of its object (node, &node->list, (void *)node), the
 * item that says the parameter is handed on there, in ROLE (argument
 * ARG): "~!newarg:N" or "#ARG=!newarg:N".  NULL otherwise, and for a
 * value read through the parameter (node->next).  The caller frees it. */
char *param_handed_on(struct ectx *x, CXCursor value, enum dep_role role, int arg);
/* The same for any fresh memory (malloc's, a wrapper's, a parameter's):
 * the item a marked write of VALUE carries when it hands fresh memory on
 * ("~!new", "~!new:KEY", "~!newarg:N"), so that the analysis knows it
 * publishes an initialisation (fresh.h, hands_on_fresh).  NULL when
 * VALUE is nothing fresh.  The caller frees it. */
char *fresh_handed_on(struct ectx *x, CXCursor value, enum dep_role role, int arg);
/* When pointer value VALUE, argument ARG of a call, is a parameter N of the
 * function being walked or the address of a part of its object (as
 * above), "#ARG=$KEY:N" (KEY: the function's link key), whether or not
 * it was handed on before: which parameter the callee receives; when it
 * is a null pointer constant, "#ARG=!null" (privparams.c).  NULL
 * otherwise.  The caller frees it. */
char *param_passed(struct ectx *x, CXCursor value, int arg);

/* A fresh local pointer passed as a call's argument ARG (its value, or an
 * address in its object). */
struct passed_fresh {
	CXCursor var;
	int arg;
};
/* Before a direct call's NARGS arguments ARGS are walked: the fresh
 * locals they pass, into *OUT (the caller frees it); returns how many. */
int note_passed_fresh(struct ectx *x, CXCursor *args, int nargs, struct passed_fresh **out);
/* After the call's event (index CALL_INDEX) is emitted: each of the N
 * locals V whose freshness the call ended is fresh again on condition
 * that the callee keeps the argument ("!kept:@CALL_INDEX:ARG"; a callee
 * that neither stores, returns nor publishes it, analysis/fresh.c). */
void keep_passed_fresh(struct ectx *x, const struct passed_fresh *v, int n, int call_index);
/* Retry loops: while (!cas(&s->head, old, node)) node->next = old;.  The
 * body runs only after a try that failed (a try that succeeds ends the
 * loop), so a fresh pointer that the condition's compare-and-swap handed
 * on is still the function's own there, and no longer after the loop.
 * fresh_save copies the table before the condition is walked (into
 * SAVED, which the caller frees with free_fresh);
 * fresh_retry_body, after it, makes the
 * pointers the condition handed on fresh again when the condition made a
 * marked read-modify-write of an event numbered FROM or later, recording
 * them in LOST; fresh_after_retry,
 * after the body, ends their freshness again and empties LOST (which the
 * caller frees with free_fresh). */
void fresh_save(struct ectx *x, struct fresh_table *saved);
/* The fresh pointers become those of SAVED again (fresh_save's copy). */
void fresh_restore(struct ectx *x, const struct fresh_table *saved);
void fresh_retry_body(struct ectx *x, const struct fresh_table *saved, int from, struct fresh_table *lost);
void fresh_after_retry(struct ectx *x, struct fresh_table *lost);
/* A loop's body (from event FROM on) runs again after its end: a fresh
 * pointer that the body hands on (cp[i].v = i; create(child, cp)) is no
 * longer fresh when the next round's accesses are made through it.  SAVED
 * is the table at the loop's entry (fresh_save); after the body, each of
 * the body's events that carries the mark a pointer had at the entry,
 * and names the pointer, gets the mark the pointer has at the body's end
 * instead ("!kept:@E:A": fresh if the call keeps it), or none.  Not when
 * each round hands on only an element picked by an index (&p[i]): the
 * next round's accesses are to another element, not handed on yet; nor
 * when the body tries a marked read-modify-write (a retry loop, which runs
 * again only after the try failed). */
void fresh_loop_again(struct ectx *x, const struct fresh_table *saved, int from);

/* At the end of the function: which pointer parameters were never handed
 * on, or only to calls ("#N=!newarg:N", "#N=!kept:@E:A"), in an EV_LOCAL
 * event "?kept" in the exit block (fresh.c: the callee keeps them). */
void note_kept_parameters(struct ectx *x);

#endif
