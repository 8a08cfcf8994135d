/* analyzer/model/vocab.h — the vocabulary of marked accesses, barriers and locks.
 *
 * The analyser recognises primitives by name only: a macro expansion or a
 * call whose name is in the active vocabulary.  The vocabulary is data:
 * built-in profiles (profiles/NAME.prof, embedded at build time) and user
 * profile files in the same format (see profiles/README and the manual,
 * section PROFILES).  One line per name:
 *
 *     NAME  OP  ORDER  [key=value ...]
 *
 *   OP     read | write | rmw | access | barrier | lock | unlock | ignore
 *          (access: an lvalue macro such as CMM_ACCESS_ONCE(x), a marked
 *          read or write as it is used: assigned to, a write; incremented,
 *          an RMW; otherwise a read)
 *   ORDER  relaxed | acquire | release | acq_rel | full | wmb | rmb | none | arg
 *          | before_rmw | after_rmw  (full barriers that only order together
 *          with the atomic read-modify-write that follows or precedes them)
 *          | consume  (a read of a pointer, rcu_dereference: relaxed, and
 *          it guards only the accesses made through the value it returns)
 *          | grace  (a barrier that waits for an RCU grace period,
 *          synchronize_rcu: full, and every reader that began before it
 *          has finished)
 *   keys   obj=N        index of the argument naming the object (default 0)
 *          lvalue=1     the object argument is the object itself (READ_ONCE)
 *                       rather than a pointer to it
 *          plain=1      an unmarked access through a function (memcpy's
 *                       destination is a plain write)
 *          src=N        with plain=1: the function also reads the memory
 *                       argument N points to, plainly (memcpy's source)
 *          val=N        with write or rmw: argument N is the value the
 *                       primitive stores into its object as it is (a store,
 *                       an exchange, a compare-and-swap's new value); a
 *                       constant there tells which readers the write can
 *                       publish to (a reader that goes on only on another
 *                       value never acts on it)
 *          cmp=N        with rmw: argument N is the value a compare-and-swap
 *                       expects to find (or a pointer to it: &expected); a
 *                       constant there, with a constant stored (val=N) and
 *                       an acquire, makes the object a lock word that a
 *                       store of the expected value releases
 *          shared=1     with lock: a shared (read) lock, which does not
 *                       exclude other holders of the same shared lock
 *          order-arg=N  with ORDER arg: the argument holding the memory order
 *          default=ORDER  with ORDER arg: the order when that argument is
 *                       absent (default full).  A seq_cst order read from
 *                       the argument is an acquire load or a release store
 *                       (C11: it does not order earlier plain stores before
 *                       a load), full for an RMW.
 *          then=ORDER   a second ordering applied after the access
 *                       (smp_store_mb: a write, then a full barrier)
 *          header=FILE[,FILE...]  only when the macro or function is
 *                       defined in a file of one of those names
 *                       (atomic_fetch_add means one thing in kcsan/lkmm.h
 *                       and another in <stdatomic.h>)
 *          release-fix="TEMPLATE"  acquire-fix="TEMPLATE"
 *                       the suggested replacement, $0 $1 ... being the
 *                       argument texts
 */
#ifndef KCSAN_VOCAB_H
#define KCSAN_VOCAB_H

#include <stddef.h>
#include <stdio.h>

enum op {
	OP_READ, OP_WRITE, OP_RMW, OP_BARRIER, OP_LOCK, OP_UNLOCK, OP_IGNORE,
	OP_ACCESS,        /* read, write or RMW as the lvalue is used */
	OP_WRITER,        /* not a primitive: a function of the tree that is
			     a writer operation of a single-writer structure
			     (its callers serialise every writer of GROUP) */
	OP_FORK_CHILD,    /* not a primitive: a function of the tree that runs
			     only in the child of fork(), where the thread
			     that forked is the only one */
	OP_OWNER,         /* not a primitive: a function of the tree whose
			     pointer parameter obj=N is the calling thread's
			     own instance (a per-thread record) */
	OP_ALLOC,         /* not a primitive: a function that returns memory
			     its caller owns, as malloc does (a pool's
			     allocation) */
	OP_EXCLUSIVE,     /* not a primitive: a function the caller calls with
			     the instances its pointer parameters obj=N,...
			     point to to itself (CK's ck_stack_push_spnc,
			     "single producer, no concurrent consumers") */
	OP_EXTERNAL,      /* not a primitive: memory shared with an agent
			     outside the tree (another process, the kernel,
			     a device): a struct or union (every field), a
			     field TYPE.FIELD, a global variable, or a
			     function whose result points to such memory
			     (findings/external.c) */
};

/* Memory orderings, as the analysis sees them.  The writer-side and
 * reader-side effects of each are in analysis/state.c. */
enum ord {
	ORD_NONE, ORD_RELAXED, ORD_ACQUIRE, ORD_RELEASE, ORD_ACQ_REL, ORD_FULL,
	ORD_WMB, ORD_RMB, ORD_ARG,
	ORD_BEFORE_RMW,   /* smp_mb__before_atomic: full, for a following RMW only */
	ORD_AFTER_RMW,    /* smp_mb__after_atomic: full, after a preceding RMW only */
	ORD_CONSUME,      /* a pointer read (rcu_dereference): relaxed, and it
			     orders, publishes and guards only what is reached
			     through the value it returns */
	ORD_GRACE,        /* an RCU grace period (synchronize_rcu): a full
			     barrier that also waits for every reader that
			     began before it */
};

struct vocab_entry {
	char *name;
	enum op op;
	enum ord ord;
	enum ord then;        /* ORD_NONE, or a barrier after the access */
	int obj_arg;          /* -1: no object */
	unsigned obj_mask;    /* OP_OWNER, OP_EXCLUSIVE: the parameters (bit N:
				 parameter N; obj=N or obj=N,M,...) */
	int lvalue;
	int plain;            /* the access is plain, not marked */
	int src_arg;          /* plain: the argument whose memory it also
				 reads (src=N), -1 for none */
	int val_arg;          /* write, rmw: the argument whose value it
				 stores (val=N), -1 for none */
	int cmp_arg;          /* rmw: the argument a compare-and-swap expects
				 (cmp=N), -1 for none */
	int shared;           /* a read lock */
	int order_arg;
	enum ord dflt;        /* ORD_ARG with the argument absent */
	char *release_fix;
	char *acquire_fix;
	char *header;         /* NULL: any definition */
	char *group;          /* OP_WRITER: the structure whose writers are
				 serialised (group=; default "writer") */
	char *origin;         /* the profile it comes from, and its line */
	int line;
	int builtin;          /* from a built-in profile */
};

struct vocab {
	struct vocab_entry *entries;
	size_t count, cap;
	int sorted;
};

/* Adds the built-in profile NAME ("lkmm", "c11", "gnu", "pthread") or the
 * profile file at path NAME (read once, to EOF: it may be a pipe).  Later
 * definitions of a name replace earlier ones.  When TEXT is not NULL, *TEXT
 * gets the file's content (the caller frees it; NULL for a built-in
 * profile).  On error returns -1 with a one-line message in ERR. */
int vocab_load(struct vocab *v, const char *name, char **text, char *err, size_t errlen);

/* Parses profile TEXT (ORIGIN names it in messages). */
int vocab_parse(struct vocab *v, const char *text, const char *origin, char *err, size_t errlen);

/* Returns the entry for NAME defined in file DEFINED_IN (may be NULL when
 * unknown), or NULL.  An entry with a matching header= wins over one
 * without.  The vocabulary must not change while lookups run (it is shared
 * read-only by the workers). */
const struct vocab_entry *vocab_find(const struct vocab *v, const char *name,
				     const char *defined_in);

/* The entry that states contract OP (OP_WRITER: a writer operation;
 * OP_FORK_CHILD: runs in a fork child; OP_OWNER: its parameters obj_mask
 * are the caller's own instances; OP_ALLOC: returns memory its caller
 * owns; OP_EXCLUSIVE: nothing else touches what its parameters obj_mask
 * point to during the call; OP_EXTERNAL: the memory NAME names or
 * returns is shared with an agent outside the tree) of
 * function NAME (defined in
 * DEFINED_IN), or NULL.  vocab_find never returns such entries: a call of
 * such a function is an ordinary call. */
const struct vocab_entry *vocab_find_contract(const struct vocab *v, const char *name,
					      const char *defined_in, enum op op);

/* Makes lookups fast; call once after loading.  A later definition of a
 * name (and header=) replaces an earlier one; when a user profile replaces
 * a built-in entry with another meaning (atomic_read is a relaxed read in
 * kcsan/lkmm.h and something else in many code bases), a one-line warning
 * goes to WARN (when not NULL): a silent override would change the
 * analysis of every use of the name. */
void vocab_finish(struct vocab *v, FILE *warn);

void vocab_free(struct vocab *v);

const char *ord_name(enum ord o);
int ord_parse(const char *s, enum ord *out);

/* Maps a memory-order spelling (memory_order_release, __ATOMIC_ACQUIRE, the
 * numbers 0-5) to an ordering; unknown spellings give ORD_FULL, the
 * conservative choice for an order computed at run time. */
enum ord ord_from_memory_order(const char *text);

/* Is TEXT a seq_cst memory order (not liburcu's CMM_SEQ_CST_FENCE)? */
int is_seq_cst_order(const char *text);

/* Is NAME, the primitive an access came through, a C11 or GNU atomic
 * (<stdatomic.h>'s atomic_load and *_explicit functions, the __atomic_*
 * and __c11_atomic_* builtins, an _Atomic object's own access), whose
 * memory model is C11's rather than the LKMM's?  NULL: no. */
int is_c11_atomic(const char *name);

#endif
