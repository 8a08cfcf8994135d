/* analyzer/analysis/internal.h — what the files of the analysis share and
 * nothing outside analysis/ includes: the dataflow state, the summaries,
 * the call views, the whole program being analysed, the per-function
 * context, and the functions each file offers the others. */
#ifndef KCSAN_ANALYSIS_INTERNAL_H
#define KCSAN_ANALYSIS_INTERNAL_H

#include "dataflow.h"
#include "sets.h"
#include "fresh.h"
#include "caps.h"
#include "guards.h"
#include "held.h"
#include "analyzer/model/hashmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

/* The analysis' result (dataflow.h reads it for the others). */
struct analysis {
	struct candidate *writers, *readers;
	int nwriters, nreaders, wcap, rcap;
	struct link *producers, *consumers, *early, *late;
	int nproducers, nconsumers, nearly, nlate, pcap, ccap, ecap, lcap;
	struct relay *relays;
	int nrelays, relcap;
	/* duplicates: (plain gid, marked gid) -> index; relays by object ids */
	struct pairset wseen, rseen, pseen, cseen, eseen, lseen, relseen;
	struct vrange *ranges;        /* the value ranges of consumers and reader
					 candidates (recorded by one thread) */
	int nranges, rangecap;
	struct lock_word_op *lock_ops[2];     /* by enum lock_word_role */
	int nlock_ops[2], lock_op_cap[2];
	struct pairset lock_op_seen;  /* (gid, role) -> 1 */
	struct pairset recseen;       /* (function, event gid) -> lock record */
	int nobjects;
	struct event **clones;        /* callee events seen through a call */
	int nclones, clonecap;
	struct lock_record *records;  /* plain accesses that may run concurrently */
	int nrecords, reccap;
	/* Indexes for pairing, built at the end of analyse(): lists threaded
	 * through "next" arrays (-1 ends a list). */
	int ngids;
	int *rec_head, *rec_next;     /* records of each event (by gid) */
	/* Per event (by gid): the locks held around it by the callers that
	 * reached it through a call (the union over its incomplete records,
	 * without repeats), and its complete records, one per set of locks
	 * of their own (COMPLETE_RECORDS_OF_EVENT: the first of each set, in
	 * record order; complete_head is the first complete record, -1 for
	 * none).  Pairing asks these for every record; walking rec_head each
	 * time made the lock checks quadratic in the callers of a popular
	 * helper, whose access has a complete record for every uncalled
	 * function that reaches it (thousands in Open vSwitch) and nearly all
	 * of them hold one of a few sets. */
	const char ***caller_locks;
	int *ncaller_locks;
	int *complete_head, *complete_next;
	int *obj_head, *obj_next;     /* complete plain records of each object */
	int *fwd_head, *fwd_next;     /* relays from each object */
	int *bwd_head, *bwd_next;     /* relays to each object */
	int *cons_sorted, *prod_sorted;   /* link indexes by (flag, data) */
	int *cons_by_plain_head, *cons_by_plain_next;   /* consumers of each plain access */
	struct function *fns;         /* the functions analysed */
	int nfns;
	struct object_tally *tallies; /* per object (tally.c) */
	struct marked_write *mwrites; /* the marked writes, by object (tally.c) */
	int *mw_start;                /* per object: its first in mwrites; the
					 next object's start ends them */
	struct thread_roots *roots;   /* per function: the threads it runs in */
	unsigned char *unknown_root;  /* per function: an entry point called
					 from outside the tree (a library API,
					 a handler): any thread may run it */
	unsigned char *started_root;  /* per function: a thread start routine
					 of the tree (pthread_create's) */
	unsigned char *never_runs;    /* per function: internal linkage, and
					 nothing calls it or takes its address
					 (an unused static inline of a header) */
	int *program_of;              /* per function: 1 + the program (main's
					 file) it belongs to, 0 none, -1 several;
					 NULL with fewer than two programs */
	char **kept;                  /* lock names made by the analysis */
	struct hashmap kept_index;    /* lock name -> its position in kept */
	int nkept, keptcap;
	unsigned char *instances;     /* per function: 1 runs once, 2 may run in
					 several threads at once */
	struct pairset busy_creations;    /* (gid, 0): a pthread_create made
					     while other threads may run */
	struct pairset apart;         /* (root, root): start routines of main
					 whose threads never run together
					 (phases.c) */
	/* created.c: (access gid, start routine): the access is made while
	 * a thread of the routine that its maker created may run; per start
	 * routine, the one thread entry point every creation of it is made
	 * in (-1: none such); the functions by name (an event's func). */
	struct pairset made_while;
	int *creator_root;
	struct hashmap fn_by_name;
	unsigned char *owner_only;    /* per object: a field that only the
					 activation owning an instance touches
					 (owned.c) */
	int nowner_only;
	int *event_file;              /* per gid: the file number of the
					 function defining it, -1 unknown
					 (exclusive.c) */
	int nevent_files;
	int *file_of_fn;              /* per function: its file's number */
	struct pairset exclusive;     /* (file, file): no program links both */
	unsigned char *owned_events;  /* per gid: an access made through memory
					 its activation owns (owned.c) */
	int nowned_events;
	unsigned char *claimed_events;   /* per gid: an access made through
					    memory its activation frees
					    later (claimed.c) */
	int nclaimed_events;
	/* While the solver runs in several threads (split.c): held around
	 * the maps they share (the program's clones, kept_index); NULL in
	 * one thread. */
	pthread_mutex_t *shared_lock;
};

/* What a run of a function records (fn_ctx.emit): the facts of the
 * final run, by kind, so that the solver's threads can each record some
 * kinds (split.c).  Each kind goes to its own arrays of struct analysis. */
#define EMIT_WRITER 1u          /* writer_check: writers, producers, relays */
#define EMIT_READER 2u          /* reader_check: consumers, readers */
#define EMIT_LOCKS  4u          /* record_locks: records */
#define EMIT_EARLY  8u          /* early links */
#define EMIT_LATE   16u         /* late links (note_late) */
#define EMIT_BUSY   32u         /* busy_creations */
#define EMIT_ALL    63u
/* The kinds that read state.seen_plain, state.seen_reads and
 * state.published (fn_ctx.records). */
#define KEEPS_SEEN_PLAIN (EMIT_WRITER | EMIT_EARLY)
#define KEEPS_SEEN_READS (EMIT_WRITER | EMIT_READER)
#define KEEPS_PUBLISHED  EMIT_LATE

/* What an ordering kills (struct state.killed, writer_kills): the pending
 * plain accesses of each type, and the pending marked reads. */
#define K_READ   (1u << ACC_READ)
#define K_WRITE  (1u << ACC_WRITE)
#define K_RMW    (1u << ACC_RMW)
#define K_ALL    (K_READ | K_WRITE | K_RMW)
#define K_READER (1u << 8)      /* orders earlier marked reads */

/* The dataflow state at one point of a function (dataflow.c says what
 * each set holds). */
struct state {
	int reached;
	struct evset pend_plain, pend_reads, seen_plain, seen_reads;
	/* Marked stores as data (issue 12, shape 1: WRITE_ONCE(x, 1);
	 * WRITE_ONCE(ready, 1)): those not yet ordered before a later store,
	 * and all those made (for producer links).  Only a write fence, a
	 * fully ordered RMW, an unlock or a call whose callee orders writes
	 * orders them: a release or acquire-release access orders what came
	 * before it before itself alone, not before a later relaxed store
	 * (C11 and the LKMM alike). */
	struct evset pend_mdata, seen_mdata;
	struct fset fenced;
	unsigned killed;
	struct strset locks;
	/* Other threads, by the last thread event on some path.  The merge
	 * takes the greatest: after a loop of pthread_create they run (the
	 * path that skips the loop does not count), and after a loop of
	 * pthread_join they are joined (likewise), even if the loop may run
	 * zero times. */
	enum { THREADS_NONE_YET, THREADS_RUNNING, THREADS_JOINED } threads;
	int calm;                 /* no thread was ever created (must): main()
				     or a constructor before its first
				     pthread_create, on every path */
	struct evset published;   /* marked writes with no marked read since */
	int spawned;              /* this function created a thread before
				     (may: on some path), itself or in a callee */
	/* The start routines (function indexes) whose threads this thread
	 * may have created and not joined yet (may), itself or in a callee:
	 * an access made now may run while they do (created.c).  Emptied
	 * when the threads are joined. */
	struct intset running;
	int mb_before_rmw;        /* smp_mb__before_atomic waits for an RMW (must) */
	int after_rmw;            /* the last marked access was an RMW (must) */
};

/* The sets of a summary a call's view maps (struct call_view): the event
 * sets, then the exposed ones. */
enum { VIEW_EXIT_PLAIN, VIEW_EXIT_READS, VIEW_ALL_READS, VIEW_ALL_MWRITES, VIEW_ALL_PLAIN, VIEW_AFTER_SPAWN,
       NVIEWS, VIEW_ENTRY_MWRITES = NVIEWS, VIEW_ENTRY_PLAIN, NVIEW_SETS };

/* What a function's callers need to know of it (solver.c computes it,
 * transfer.c applies it at each call). */
struct summary {
	unsigned must_kill;
	struct evset exit_plain, exit_reads, all_plain, all_reads, all_mwrites;
	struct xset entry_mwrites, entry_plain;
	int calls_create;
	/* The plain accesses it makes, itself or in callees, after it created
	 * a thread (on some path): create_thread() storing the new thread's
	 * id in a table after pthread_create.  A caller's call that comes
	 * before its own thread creation is no initialisation for these. */
	struct evset after_spawn;
	int returns_value;        /* has a "return VALUE;" */
	struct evset waited;      /* all_reads that it waits for in a loop that
				     runs on every path */
	int returns_read;         /* returns a value computed from an exit read */
	int result_tells;         /* ... or a value chosen by testing one */
	/* Bit N: it stores, through parameter N, a value that carries a
	 * marked read nothing has ordered yet (get(int *out) { *out =
	 * READ_ONCE(flag); }): its own, a callee's result, or one a callee
	 * stored through a parameter of its own it passed on (transfer.c,
	 * note_stored_read).  The caller's local whose address it is passed
	 * then carries the read too (compute_derived_through_calls). */
	unsigned out_tells;
	/* A lock wrapper: the parameter whose lock it leaves held on every
	 * path (call_rcu_lock(&m)), or releases; -1 for none. */
	int lock_param, unlock_param;
	/* ... or the global lock it leaves held on every path
	 * (rcu_copy_mutex_lock(): pthread_mutex_lock(&rcu_copy_mutex)), or
	 * releases (its object key; NULL for none). */
	const char *lock_global, *unlock_global;
	int noreturn;             /* no path reaches the exit (every one ends in
				     exit(), abort() or the like): a call of it
				     ends the caller's path too */
	/* The locks held at each plain access of all_plain on every path,
	 * taken here or in a callee (held.c). */
	struct held_locks held;
	/* The start routines whose threads may still run when it returns
	 * (state.running at its exit): created inside, not joined. */
	struct intset exit_running;
	unsigned version;         /* counts the replacements (see call_view) */
	/* Per set of a call's view (VIEW_*, then VIEW_ENTRY_*), the positions
	 * of the events a call may see as other events (through_call): only
	 * these are asked about when a view is made (callview.c), worked out
	 * for version movable_of - 1 (0: not yet). */
	struct intset movable[NVIEW_SETS];
	unsigned movable_of;
};

/* A callee's summary sets as one call sees them (see through_call), kept
 * from one transfer of the call to the next: a function's CFG is walked
 * until its states settle, and the fixpoint walks it again whenever a
 * callee changes, but the view changes only with the callee's summary.
 * set[k] points at the summary's own set when no event in it changes. */
struct call_view {
	const struct summary *of;
	unsigned version;
	const struct evset *set[NVIEWS];
	struct evset copy[NVIEWS];
	/* the exposed sets, mapped (events the call passes nothing for left
	 * out), in the summary's order: the summary's own when no event in
	 * them changes, else entry_copy */
	const struct xset *entry_mwrites, *entry_plain;
	struct xset entry_copy[2];
	/* per event of set[VIEW_ALL_PLAIN]: the number of the set of locks
	 * the callee holds at it (of->held.sets), or NULL when it holds none
	 * anywhere; the summary's own array unless the call maps an access
	 * (held_copy then) */
	const unsigned *held_at;
	unsigned *held_copy;
	/* the view of the same call's next target (program.others) */
	struct call_view *next_target;
};

struct program {
	struct function *fns;
	int nfns;
	struct summary *sums;
	char **keys;              /* link keys sorted, with their index */
	int *key_fn;
	int *called;              /* called from somewhere in the tree */
	char *started;            /* started as a thread (find_starts) */
	unsigned char *creates, *joins;   /* calls pthread_create / _join itself */
	unsigned char *fork_child;        /* runs in a fork child (find_fork_children) */
	unsigned char *entry_calm;        /* called only before any thread exists */
	unsigned char *entry_quiet;       /* called only while no other thread runs */
	struct analysis *out;
	struct hashmap objects;   /* object key -> oid */
	struct hashmap clones;    /* (call gid, event gid) -> the callee's event
				     as that call sees it (through_call) */
	/* A clone of a clone, by what it stands for (see canonical_clone):
	 * "CALL ROOT FRESH ORIG OBJECT" -> the clone; the keys, owned, in
	 * canon_keys.  clone_root: clone gid -> the callee event it copies
	 * at the end of its chain of calls. */
	struct hashmap canon, clone_root;
	/* the leader's table of held_builder entries (held.h): only the
	 * leader's runs keep what locks are held */
	struct held_table held_table;
	char **canon_keys;
	int ncanon, canoncap;
	struct call_view **views;     /* by call event gid, made on first use */
	int nviews;
	/* For the branches constant arguments rule out (callview.c, W14),
	 * made before the solver runs and read-only then: per function,
	 * whether any of its events runs under a condition on a parameter;
	 * function index by name pointer (an event's func). */
	unsigned char *guarded;
	struct hashmap fn_by_name;
	int next_gid;
	struct { int oid; const char *function; } *fnptrs;   /* stores of &function */
	int nfnptrs, fnptrcap;
	struct summary **callee;      /* per call event gid: callee_of from its
					 own function (cache_callees) */
	const struct function **callee_from;
	int ncallees;
	/* A call through a function pointer that stores in the tree gave
	 * several functions reaches any of them: the targets after the first
	 * (callee[]), sorted by call gid (cache_callees; other_callees). */
	struct other_callee { int gid; struct summary *s; } *others;
	int nothers;
	/* The thread creations (pthread_create of a function of the tree,
	 * or a call of a thread-creating wrapper), by the event's gid: the
	 * start routine each creates (created.c). */
	struct creation { int gid, routine; } *created;
	int ncreated;
	unsigned *private_args;       /* per call event gid, bit N: argument N
					 is thread-private memory (privparams.c) */
	int nprivate_args;
};


/* In recseen: the function reached the access only holding no lock, at a
 * call site; no record was stored (see record_locks). */
#define NO_LOCKS_HELD (-2)

struct fn_ctx {
	struct program *p;
	struct function *fn;
	unsigned emit;                /* what this run records (EMIT_*) */
	/* What its final pass will record (EMIT_*, from the start of the
	 * run): the state's sets that only some kinds of facts read are kept
	 * only for them (KEEPS_*: a run that records none of those kinds, a
	 * recursive component's summary round or a leader whose followers
	 * record them, leaves them empty; no other part of the state or of
	 * the summary depends on them). */
	unsigned records;
	struct summary *sum;          /* being computed for fn */
	struct deriv_map derived;
	unsigned char *pre_spawn;     /* per event index: a thread is created
					 next, before any join (backward) */
	unsigned char *used;          /* per event index: value_used */
	unsigned char *decides;       /* per event index: decision_marks */
	struct event **by_index;      /* fn's events by index */
	int nevents;
	const struct event **copies;  /* value_copies(fn) */
	int ncopies;
	struct guards guards;         /* per block: the values it runs on */
	struct value_tests values;    /* per block: what those values were */
	int cur_block;                /* the block being walked */
	struct pairset origins;       /* (callee read gid, call index): the
					 calls that brought the read in */
	unsigned char *returns_read;  /* per call index: the callee's result
					 carries a marked read's value
					 (summary.returns_read) */
	/* The lock sets of this run (held.c): those of a root's records of
	 * accesses reached through calls, and during the final pass, when
	 * holds_locks, the locks held at each access the summary keeps. */
	struct held_builder held;
	int holds_locks;              /* a lock may be held somewhere in fn */
};

/* In fn_ctx.origins: the callee waited for the read in a loop that runs
 * on every path (summary.waited): it guards everything after the call. */
#define WAITED_IN_CALLEE 0x3fffffff

/* A call from function CALLER to function CALLEE (indexes of fns). */
struct call_edge { int caller, callee; };

/* state.c */
void state_free(struct state *s);
void state_copy(struct state *to, const struct state *from);
int state_merge(struct state *to, const struct state *from);
int quiet(const struct state *s);
int is_new(const struct event *e);
int same_object(const struct event *a, const struct event *b);
/* W, a plain write or RMW of this function, is reached: the pending
 * plain reads of the same location before it are ordered by whatever
 * orders W (coherence: a read cannot see a write that comes after its
 * own thread's later write to the location), and W stands for them. */
void subsume_reads(struct state *s, const struct event *w);
void kill_plain(struct state *s, unsigned kill, struct event *fence);
void kill_plain_only(struct state *s, unsigned kill, struct event *fence);
void kill_reads_of(struct state *s, const struct event *acquire);
void kill_reads(struct state *s);
void spawn(struct state *s);

/* valuedeps.c */
/* Does some source of the value write W stores (its "~" items: an event's
 * index, or one a local's value comes from, in map M) satisfy PRED(CTX,
 * INDEX)? */
int stored_value_any(struct deriv_map *m, const struct event *w, int (*pred)(const void *ctx, int index),
		     const void *ctx);
/* Does the value write W stores (its "~" items) come from marked read R
 * (both of the function whose map is M)? */
int stores_value_of(struct deriv_map *m, const struct event *w, const struct event *r);
/* The one definition of local LOCAL (an EV_LOCAL event) that reaches the
 * event at position K of block B of F, or NULL when none or several may,
 * or the local may be unset there. */
const struct event *reaching_definition(const struct function *f, int b, int k, int local);
/* The plain stores of F that store a value read from memory or returned
 * by a call (the copies a later plain read may read back: transfer.c,
 * reads_back), into *OUT (the caller frees it); their count. */
int value_copies(const struct function *f, struct deriv_map *m, const struct event ***out);
int depends_on(struct deriv_map *m, const struct event *p, const struct event *r);
/* Is P's address computed from R's value (P reached through the pointer
 * or index R read)?  Unlike depends_on, a value P stores does not count. */
int address_depends_on(struct deriv_map *m, const struct event *p, const struct event *r);
int depends_through_call(struct deriv_map *m, const struct event *call, const char *callee,
				const struct event *p, const struct event *r);
int names_value(const struct dep_item *d);
int event_count(const struct function *f);
int defines_sink(const struct event *e, enum value_sink sink);
unsigned char *sink_marks(const struct function *f, struct deriv_map *m, int n, enum value_sink sink,
				 const struct guards *always);
unsigned char *value_marks(const struct function *f, struct deriv_map *m, int n, int exported);
unsigned char *decision_marks(const struct function *f, struct deriv_map *m, int n);
void keep_exported(struct evset *set, const char *name, const unsigned char *exported, int n);
int from_param(struct deriv_map *m, const struct dep_item *d);

/* records.c */
/* (each returns the pattern's index, and tells in *ADDED, when not NULL,
 * whether it is new; its range is -1, every value, when new) */
int add_candidate(struct candidate **arr, int *n, int *cap, struct pairset *seen,
			 struct event *plain, struct event *marked, struct function *fn, int *added);
int add_link(struct link **arr, int *n, int *cap, struct pairset *seen, struct event *plain,
		    struct event *marked, struct event *fence, struct function *fn, int ordered,
		    unsigned how, int *added);
/* A pattern found at a place where its read's values are R: the range
 * number *SLOT (-1 for every value) becomes R when the pattern is new
 * (ADDED), or holds the values of both. */
void note_range(struct analysis *a, int *slot, int added, const struct vrange *r);
/* (HELD: the value a store's function saw the word hold, or NULL) */
void add_lock_word_op(struct analysis *a, struct event *e, struct function *fn, enum lock_word_role role,
		      const long long *held);
void add_relay(struct analysis *a, const struct event *from, const struct event *to, const struct function *fn);
void record_locks(struct analysis *a, struct event *e, struct function *fn,
			 const struct strset *held, int complete);
const char *kept_key(struct analysis *a, const char *key);

/* callview.c */
int intern_object(struct program *p, const char *key);
const char *call_argument(const struct event *call, int n, const struct object_ref **ref);
const char *passed_function(const struct event *call, int n);
int param_use(const struct event *e, const char *callee);
struct event *through_call(struct program *p, const struct event *call, const char *callee,
				  struct event *e);
/* Frees the views of function FI's calls (once no run of FI is left),
 * or the chain V (a call's views, one per target). */
void free_call_views(struct program *p, int fi);
void free_view_chain(struct call_view *v);
const struct call_view *call_view_of(struct program *p, const struct event *call,
				     struct summary *cs, const char *callee);
/* The position in p->keys (sorted) of the first definition of KEY, or of
 * where it would be. */
int first_definition(const struct program *p, const char *key);
struct summary *summary_of(struct program *p, const char *key, const struct function *from);
int function_index(void *prog, const char *key, const struct function *from);
int is_named(const struct event *e, const char *name);
struct summary *callee_of(struct program *p, const struct event *call, const struct function *from);
/* Works callee_of out once for every call of the tree's functions (after
 * number_events). */
void cache_callees(struct program *p);
/* The targets of CALL after callee_of's (a call through a pointer that
 * several functions were stored into); *N gets their number. */
const struct other_callee *other_callees(const struct program *p, const struct event *call, int *n);

/* programs.c */
void scope_program_globals(struct program *p);
void number_events(struct program *p);

/* transfer.c */
int compared_read(void *ctx, int b, int i, const struct dep_item *d);     /* (valuetests.h) */
int test_deps(void *ctx, const struct event *test, int **out, int *cap);
void find_lock_wrapper(struct program *p, const struct function *f, const struct state *exit, struct summary *sum);
/* The global lock F releases without ever taking it (so it is entered
 * with the lock held), or NULL. */
const char *lock_released_not_taken(struct program *p, const struct function *f);
void transfer(struct fn_ctx *c, struct state *s, struct event *e);
void note_pointer_reads(struct fn_ctx *c);

/* solver.c */
int is_constructor(const struct function *f);
void find_fork_children(struct program *p);
int starts_single_threaded(struct program *p, int fi);
void find_called(struct program *p);

/* privparams.c: after find_called.  Which pointer parameters every call
 * of the tree passes a private local or a private parameter for (and
 * whose function is never called through a pointer); and whether
 * argument N of CALL is thread-private memory: a private local, or such
 * a parameter of the caller. */
void find_private_params(struct program *p);
/* Functions whose address is taken (passed to a call, stored): their
 * callers are not all known.  The caller frees the result. */
unsigned char *address_taken(struct program *p);
/* Does CALL, made by function CALLER, pass for argument N what parameter
 * bits BITS (per function) ask for? */
typedef int (*param_passes_fn)(const struct program *p, const unsigned *bits, int caller,
			       const struct event *call, int n, void *ctx);
/* Does item D name a parameter of function FI itself ("$KEY:N", KEY FI's
 * own link key) whose bit is set in BITS (per function)? */
int own_param_set(const struct program *p, const unsigned *bits, int fi, const struct dep_item *d);
/* The greatest fixpoint of BITS (per function, bit N: parameter N; set
 * beforehand for the parameters that may hold): a bit is cleared when some
 * direct call passes for it what PASSES (given CTX) rejects. */
void params_fixpoint(struct program *p, unsigned *bits, param_passes_fn passes, void *ctx);
/* Per function, the parameters (bit N: parameter N) that a profile
 * contract names: the front end's EV_LOCAL markers called MARKER ("owner",
 * "exclusive") at the entry, each use "$KEY:N" (the caller frees it). */
unsigned *declared_params(const struct program *p, const char *marker);
/* owned.c: the struct fields only their owner touches (out->owner_only). */
void find_owner_only_fields(struct program *p);
/* claimed.c: the accesses through memory freed later (out->claimed_events);
 * after solve_summaries (a callee that never returns ends a path). */
void find_claimed_accesses(struct program *p);
/* callview.c: prepares p->guarded and p->fn_by_name (before the solver). */
void find_guarded_functions(struct program *p);
/* exclusive.c: the files no program links together (two definitions of
 * one external function) and the file of each event (out->event_file). */
void find_exclusive_files(struct program *p);
/* callview.c: the callee's own event that E copies through a chain of
 * calls (E itself unless E is a clone). */
const struct event *clone_root_of(struct program *p, const struct event *e);
/* callview.c: grows V, an array with *N entries of ELEM bytes per gid
 * (numbered before the summaries made clones), to every gid: a clone
 * takes its root's entry, any other new gid a copy of FILL.  Sets *N and
 * returns the array (V is reallocated). */
void *carry_to_clones(struct program *p, void *v, int *n, size_t elem, const void *fill);
int private_argument(const struct program *p, const struct event *call, int n);
struct call_edge *call_edges(struct program *p, int *n);
/* Runs the dataflow of function FI to its fixpoint, recording the facts
 * of kinds EMIT; a follower's run (split.c) records only them, and leaves
 * the summary as it is. */
void run_function(struct program *p, int fi, unsigned emit, int follower);
/* Frees the arrays summary S owns (not S). */
void summary_free(struct summary *s);
/* The summaries and the facts, in up to THREADS threads (split.c). */
void solve_summaries(struct program *p, int threads);

/* split.c: the final runs of the functions split over threads by the
 * kinds of facts they record.  The leader (the calling thread) solves the
 * summaries and records the kinds split_leader_emit names; each follower
 * runs every function again after the leader, in the same order,
 * recording the other kinds.  split_start gives NULL for fewer than two
 * threads (then the leader records everything). */
struct split;
struct split *split_start(struct program *p, int threads);
unsigned split_leader_emit(const struct split *s);
/* The leader finished the component MEMBERS (N functions). */
void split_push(struct split *s, const int *members, int n);
/* Waits until every follower has run every component pushed. */
void split_drain(struct split *s);
/* Drains, ends the followers and frees S (NULL: nothing). */
void split_finish(struct split *s);
/* Is the calling thread a follower? */
int split_following(void);

/* threads.c */
int start_routine(const struct program *p, const struct event *create);
/* A way one function starts activations of another: a thread creation
 * (pthread_create, or a call of a thread-creating wrapper: the event GID)
 * in FROM that starts TO, LOOP when it is in a loop. */
struct start_edge { int from, to, create, loop, gid; };
struct start_edge *find_starts(struct program *p, int *n);
void count_instances(struct program *p, const struct start_edge *edges, int n);
void find_quiet_entries(struct program *p);
void find_thread_roots(struct program *p);
/* Is block TO of F reachable from a successor of block FROM (a path of at
 * least one edge)? */
int successors_reach(const struct function *f, int from, int to);
/* The same, without entering a block B for which AVOID(F, B, CTX) holds
 * (AVOID NULL: any block). */
int successors_reach_avoiding(const struct function *f, int from, int to,
			      int (*avoid)(const struct function *f, int b, const void *ctx), const void *ctx);
/* Is E a direct pthread_join, or a call of a function that joins threads
 * itself (after find_quiet_entries)? */
int event_joins(struct program *p, const struct function *f, const struct event *e);
/* created.c: the creations of EDGES (N of them) by event, and per start
 * routine the one root that creates it (after count_instances); the
 * routines the creation E starts added to S's running; the access E
 * noted as made while S's running threads may run (callers: only in runs
 * that record EMIT_LOCKS, and only while S's running is not empty). */
void note_creations(struct program *p, const struct start_edge *edges, int n);
void created_threads(struct program *p, struct state *s, const struct event *e);
void note_made_while(struct fn_ctx *c, const struct state *s, const struct event *e);

/* phases.c: start routines whose threads never run together (out->apart). */
void find_phases(struct program *p);
/* Are start routines X and Y (function indexes) apart (find_phases)? */
int start_routines_apart(const struct analysis *a, int x, int y);

/* indexes.c */
int *new_heads(int n);
void build_indexes(struct analysis *a, int ngids);

/* tally.c: fills a->tallies (after the objects are numbered). */
void build_tallies(struct analysis *a);

#endif
