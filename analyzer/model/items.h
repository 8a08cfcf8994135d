/* analyzer/model/items.h — the small languages inside the facts, defined
 * once: dependency items (events.uses), object keys (objects.key, a call's
 * arguments, lock names) and argument lists (events.args).
 *
 * The front end writes them as text with the functions below, the database
 * keeps the text, and the loader (db/facts.c) parses it once per event into
 * the structs below, which are all the analysis reads.  Nothing else takes
 * these strings apart (the USR inside a "c:" key is clang's own grammar:
 * pairing reads its "@FI@" to tell a field's struct).
 *
 * Dependency list: items separated by ',' (the list may start and end
 * with one).  An item is a ROLE followed by a SOURCE:
 *     ROLE    ""        the accessed address (EV_ACCESS, EV_CALL), or
 *                       the value (EV_LOCAL);
 *             "~"       the value a write stores;
 *             "#N="     argument N of a call (from 0);
 *             "?N="     a condition: the event runs only where parameter
 *                       N of its function equals SOURCE ("?N!": differs
 *                       from it); SOURCE is a "%V" or "!null"
 *             "="       the value a compare-and-swap expects to find
 *                       (SOURCE is a "%V")
 *             "^SoV:"   on a branch's test event ("?test", "?loop"): the
 *                       value SOURCE (a marked read "@N", or a local that
 *                       holds one) compares as o with the integer constant
 *                       V on the way to the block's successor number S
 *                       (o: '=' ==, '!' !=, '<' <, '>' >, '{' <=, '}' >=);
 *                       the other successor is taken otherwise
 *     SOURCE  NAME      a local variable of the function
 *             "@N"      the event of index N of the function (a marked
 *                       read, or a call whose result is used)
 *             "$KEY:N"  parameter N of function KEY (link key)
 *             "!new"    memory fresh from an allocator
 *             "!new:KEY"   what function KEY returned
 *             "!newarg:N"  pointer parameter N, fresh in the calls that
 *                       pass fresh memory
 *             "!null"   a null pointer
 *             "!tls"    an address inside a thread-local variable
 *                       (__thread, _Thread_local): the thread's own
 *             "%V"      the integer constant V (an argument's value)
 *             "!reread:N" the address is computed from a plain re-read of
 *                       what marked read event N read before it (the
 *                       same lvalue: me->next->locked after a relaxed
 *                       load of me->next); kept apart from the address's
 *                       dependencies, since a plain load orders nothing
 *             "!volatile" the object is declared volatile in a TU that
 *                       follows C11 (extract_model.c): the access is
 *                       plain, and the declaration says it is shared
 *             "!step:K" (role "~" of a compare-and-swap) the value it
 *                       expected plus the constant K: a CAS that counts
 *             "!type:T" (a marked write or compare-and-swap through
 *                       a pointer parameter, object "p:KEY:N") the type
 *                       T of what the parameter points to, as declared
 *                       without qualifiers (ngx_atomic_t): the word two
 *                       functions of a lock library are each given
 *                       (findings/lockword.c)
 *             "!sharedtype" (a plain access of a field) the struct
 *                       whose field it is has a member that is an atomic
 *                       (declared _Atomic or volatile, or a wrapper of
 *                       such: rte_atomic16_t): a type made for threads
 *                       to share (findings/lostupdate.c)
 *             "!indexed" (role "#N=" of a call) argument N points into
 *                       one element of an array, picked by an index that
 *                       is no constant (&flags[i], &s->slot[cpu].word):
 *                       a claim of it claims that element alone
 *                       (findings/lostupdate.c)
 * Inside NAME and KEY, ',' and '\' are written "\," and "\\" (a link key
 * holds a path, and a path may hold a comma).
 *
 * Object key: "c:USR" (clang's USR of a global, a field; a trailing "[]"
 * means the elements of an array), "p:KEY:N" (what parameter N of
 * function KEY points to), "l:FUNCTION:NAME" (a local of FUNCTION whose
 * address never escapes), "f:KEY" (function KEY, its address taken),
 * "t:TYPE" (every object of a type); a lock held for reading is its key
 * with "shared:" before it.
 *
 * Argument list: the texts separated by U+001F (for a call: each
 * argument's object key, "" when it has none; for a macro or primitive:
 * each argument as written, for the fix texts). */
#ifndef KCSAN_ITEMS_H
#define KCSAN_ITEMS_H

#include <stddef.h>

enum dep_role { DEP_ADDRESS, DEP_VALUE, DEP_ARGUMENT, DEP_GUARD, DEP_COMPARE, DEP_EXPECTED };

enum dep_kind {
	DEP_LOCAL,       /* NAME */
	DEP_EVENT,       /* "@N" */
	DEP_PARAM,       /* "$KEY:N" */
	DEP_NEW,         /* "!new" */
	DEP_NEW_FROM,    /* "!new:KEY" */
	DEP_NEW_PARAM,   /* "!newarg:N" */
	DEP_NULL,        /* "!null" */
	DEP_KEPT,        /* "!kept:@N:A": what was fresh before call event N
			    passed it on as argument A, fresh still if that
			    callee keeps it (analysis/fresh.c) */
	DEP_OWN,         /* "!own": memory this activation allocated itself
			    (extract_owned.c, analysis/owned.c) */
	DEP_TLS,         /* "!tls": memory of a thread-local variable, the
			    calling thread's own (extract_expr.c,
			    analysis/privparams.c) */
	DEP_CONST,       /* "%V": the integer constant V */
	DEP_STEP,        /* "!step:K": what a compare-and-swap expected,
			    plus the constant K (extract_compare.c) */
	DEP_VOLATILE,    /* "!volatile": a plain access to an object declared
			    volatile in C11 code (extract_model.c) */
	DEP_REREAD,      /* "!reread:N": the address comes from a plain
			    re-read of what marked read event N read */
	DEP_TYPE,        /* "!type:T": the type of the object a marked
			    write through a pointer parameter reaches, as
			    declared (typedef names kept) */
	DEP_SHARED_TYPE, /* "!sharedtype": a field of a struct that has an
			    atomic member (extract_object.c,
			    has_atomic_member) */
	DEP_INDEXED,     /* "!indexed": a call's argument points into an
			    element picked by an index that is no constant */
};

struct dep_item {
	enum dep_role role;
	enum dep_kind kind;
	int arg;         /* DEP_ARGUMENT: the argument's number; DEP_COMPARE:
			    the successor reached when the comparison holds */
	int n;           /* DEP_EVENT, DEP_KEPT: the event's index; DEP_PARAM
			    and DEP_NEW_PARAM: the parameter's number */
	char *name;      /* DEP_LOCAL: the local; DEP_PARAM and DEP_NEW_FROM:
			    the function's link key; DEP_TYPE: the type;
			    otherwise NULL */
	int local;       /* DEP_LOCAL: the local's number in its function
			    (function_number_locals, facts.h), -1 before */
	int via;         /* DEP_KEPT: the argument of call event N that
			    passed the pointer on */
	long long value; /* DEP_CONST, DEP_COMPARE: V; DEP_STEP: K */
	int differs;     /* DEP_GUARD: "?N!": the parameter differs from the
			    source (else it equals it) */
	char cmp;        /* DEP_COMPARE: the comparison ('=', '!', '<', '>',
			    '{' for <=, '}' for >=) */
};

struct dep_list {
	struct dep_item *v;
	int n;
};

/* Parses dependency list TEXT (NULL: empty) into OUT.  Items that do not
 * follow the grammar are left out; returns how many were (0 for a list
 * written by the front end). */
int dep_list_parse(const char *text, struct dep_list *out);
void dep_list_free(struct dep_list *l);

/* Does L hold an item of ROLE and KIND? */
int dep_list_has(const struct dep_list *l, enum dep_role role, enum dep_kind kind);
/* Does L hold an item of KIND for argument ARG ("#ARG=...")? */
int dep_list_has_arg(const struct dep_list *l, int arg, enum dep_kind kind);

/* The text of item D (without separators): what dep_list_parse reads
 * back as D.  The caller frees it. */
char *dep_item_text(const struct dep_item *d);

/* The text of a source of kind KIND (role DEP_ADDRESS): N is the event's
 * index or the parameter's number, NAME the local or the function's link
 * key, as struct dep_item says.  The caller frees it. */
char *dep_source_text(enum dep_kind kind, int n, const char *name);

/* Does item text ITEM (one item, as written) have source kind KIND, in
 * any role? */
int dep_text_is(const char *item, enum dep_kind kind);

/* Every item of list TEXT whose role is DEP_ADDRESS and whose source is a
 * local or an event, in role ROLE (argument ARG): calls FN with each
 * item's text.  (What a stored value or a call argument depends on is
 * what its expression's address items name.) */
void dep_list_each_value(const char *text, enum dep_role role, int arg,
			 void (*fn)(const char *item, void *ctx), void *ctx);

/* Calls FN with the text of every item of list TEXT. */
void dep_list_each(const char *text, void (*fn)(const char *item, void *ctx), void *ctx);

/* Is item ITEM (its text, N bytes) in list LIST? */
int dep_list_text_has(const char *list, const char *item, size_t n);

/* The text of the item whose ROLE and ARG are given and whose source is
 * SOURCE, itself an item's text of role DEP_ADDRESS ("x" with DEP_VALUE
 * gives "~x"; "@3" with DEP_ARGUMENT and ARG 2 gives "#2=@3").  The
 * caller frees it. */
char *dep_item_with_role(const char *source, enum dep_role role, int arg);

enum object_kind {
	OBJ_NONE,        /* no object */
	OBJ_USR,         /* "c:USR" */
	OBJ_PARAM,       /* "p:KEY:N" */
	OBJ_LOCAL,       /* "l:FUNCTION:NAME" */
	OBJ_FUNCTION,    /* "f:KEY" */
	OBJ_TYPE,        /* "t:TYPE" */
	OBJ_OTHER,       /* anything else (a key of an older or foreign scan) */
};

/* What an object key says, as offsets into the key it was parsed from
 * (so that it stays valid when the struct holding key and ref is copied). */
struct object_ref {
	enum object_kind kind;
	int shared;          /* "shared:" before it (a lock held for reading) */
	int param;           /* OBJ_PARAM: the parameter's number */
	size_t fn_off, fn_len;   /* OBJ_PARAM, OBJ_FUNCTION: where the
				    function's link key is in the key */
	int elements;        /* ends in "[]": the elements of an array */
	int global;          /* "c:@NAME" or "c:@NAME[]": a global variable
				named at file scope (see scope_program_globals) */
};

/* The key of lock KEY held for reading ("shared:KEY"; the caller frees
 * it), and the key of the lock a key names whichever way it is held (KEY
 * itself, or what follows "shared:"). */
char *object_shared(const char *key);
const char *object_unshared(const char *key);
/* Is KEY a lock held for reading? */
int object_is_shared(const char *key);

/* The keys of what parameter N of function FN points to, and of function
 * FN itself.  The caller frees them. */
char *object_param_key(const char *fn, int n);
char *object_function_key(const char *fn);
/* The key of the memory that function NAME (LEN bytes), declared
 * external by a profile, returns: "c:@F@NAME[]", or, for the part of it a
 * local pointer PART reaches, "c:@F@NAME[]@PART" (PART NULL: the whole).
 * The caller frees it. */
char *object_external_key(const char *name, size_t len, const char *part);
/* The function's name in such a KEY (its length in *LEN), or NULL when
 * KEY is no such key. */
const char *object_external_name(const char *key, size_t *len);

/* Parses object key KEY (NULL: OBJ_NONE) into OUT. */
void object_ref_parse(const char *key, struct object_ref *out);

/* Is KEY, parsed as REF, the object parameter N of function FN points to
 * (any N when N < 0)? */
int object_is_param_of(const char *key, const struct object_ref *ref, const char *fn);

/* Is KEY, parsed as REF, the private local NAME of the function whose
 * link key is FN ("l:FN:NAME")? */
int object_is_local_of(const char *key, const struct object_ref *ref, const char *fn, const char *name);

/* The function a key of kind OBJ_FUNCTION or OBJ_PARAM names, copied
 * (NULL for other kinds).  The caller frees it. */
char *object_function(const char *key, const struct object_ref *ref);

/* KEY without the program it was scoped to (analysis/programs.c names a
 * global apart per program: "c:@name#/path/prog.c", "c:@buf#/path/p.c[]"):
 * the object as the source names it, the same in every program.  The
 * caller frees it. */
char *object_unscoped(const char *key);

/* The key of the lock that a single-writer group's operations hold for
 * the whole call (profile op "writer", extract.c): WRITER_LOCK_PREFIX
 * then the group's name.  A contract, not a lock in memory: it guards no
 * instance of anything. */
#define WRITER_LOCK_PREFIX "writer:"

/* Where the value of an EV_LOCAL event goes (events.defines): a local
 * (its name), or "?test" (a condition), "?ret" (the function's result),
 * "?loop" (a loop's condition).  On a read access, "?polled": the read is
 * made in a loop's condition itself (while (!stop), while
 * (atomic_read(&arrived) != n)), a wait on the object. */
enum value_sink { SINK_NONE, SINK_LOCAL, SINK_TEST, SINK_RETURN, SINK_LOOP, SINK_POLLED };

/* DEFINES (NULL: SINK_NONE) as a sink; an unknown "?..." is SINK_NONE. */
enum value_sink value_sink_parse(const char *defines);

/* An argument list: the texts, each NULL when empty, and each read as
 * an object key too (what a call's arguments are). */
struct arg_list {
	char **v;
	struct object_ref *ref;
	int n;
};

/* Splits argument list TEXT (NULL: no arguments) into OUT. */
void arg_list_parse(const char *text, struct arg_list *out);
/* Appends TEXT (NULL or "": an empty argument) to L, which takes it
 * (an empty text is freed and kept as NULL, as arg_list_parse reads it). */
void arg_list_add(struct arg_list *l, char *text);
/* The text of L (NULL when it has no argument).  The caller frees it. */
char *arg_list_text(const struct arg_list *l);
void arg_list_free(struct arg_list *l);

#endif
