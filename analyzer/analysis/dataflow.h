/* analyzer/analysis/dataflow.h — the ordering analysis over every function of the
 * tree: which plain accesses can still be reordered past a marked access
 * (writer side), which marked reads can still be reordered past a plain
 * read (reader side), and the wider facts that pairing needs. */
#ifndef KCSAN_DATAFLOW_H
#define KCSAN_DATAFLOW_H

#include "analyzer/model/facts.h"
#include "analyzer/model/pairset.h"
#include "valuetests.h"

/* An unordered pattern: PLAIN and MARKED in function FN.  RANGE (reader
 * candidates, stored as (marked read, plain access)): the values of the
 * read on which the access runs (valuetests.h), a number for
 * analysis_range; -1 for every value. */
struct candidate {
	struct event *plain, *marked;
	struct function *fn;
	int range;
};

/* Any order between a plain write of D and a marked write of F (producer)
 * or a marked read of F and a plain access of D (consumer); FENCE is the
 * explicit barrier that ordered a producer, if any.  HOW (consumers) says
 * why the access belongs to the read, the evidence a finding shows:
 * LINK_TESTED, the read's value decides whether the access runs (a branch
 * or a wait loop on it); LINK_THROUGH_POINTER, the access's address is
 * computed from the value read (the data is reached through the pointer
 * the flag published).  For producers: LINK_OPEN_TO_READERS unless every
 * time the link was found, the plain access initialised fresh memory that
 * the marked write, storing the pointer to it, publishes in order (a
 * reader that follows that pointer sees it: pairing.c).  A consumer whose
 * access is marked (issue 12, shape 1) is always LINK_THROUGH_POINTER
 * (transfer.c, marked_data_dependence). */
#define LINK_TESTED          1u
#define LINK_THROUGH_POINTER 2u
#define LINK_OPEN_TO_READERS 4u
struct link {
	struct event *plain, *marked, *fence;
	struct function *fn;
	int ordered;
	unsigned how;
	int range;              /* consumers: the values of the read on which
				   the access runs (valuetests.h), a number
				   for analysis_range; -1 for every value */
};

/* (early: a plain read of D before a marked read of F in one function;
 * late: a plain access of D after a marked write of F, with no marked read
 * between them.)
 * A marked read of FROM followed by a marked write of TO: a relay. */
struct relay {
	const char *from, *to;
	int from_oid, to_oid;
	const struct function *fn;    /* where F is read and G written: the
					 relay runs in its threads only */
	int same_pair;                /* the relay of the same F and G found
					 in another function, or -1 */
	int by_increment;             /* every read of F that relays here is
					 an increment (increments()): no news
					 when F is a reference count (links.c) */
};

/* A marked access of a lock word (lockword.c): a store of a constant made
 * with nothing ordering its function's earlier accesses before it
 * (STORE), or a compare-and-swap with acquire that expects one constant
 * and stores another (a lock taken).  SEEN_HELD (a store): its function
 * stores only after a test saw the word hold the one value HELD, another
 * than it stores (readers = *lock; if (readers == WLOCK) *lock = 0;
 * valuetests.h). */
struct lock_word_op {
	struct event *e;
	struct function *fn;
	int seen_held;
	long long held;
};
enum lock_word_role { LOCK_WORD_STORE, LOCK_WORD_TAKE };

/* An access and the locks held at it, for the inconsistent-locking check
 * (plain accesses) and for critical sections that order a pair (marked).  COMPLETE: the locks of the callers are included (the access is
 * made in a function nobody calls, or seen through a call); otherwise the
 * record only tells which locks the access's own function holds. */
struct lock_record {
	struct event *e;
	struct function *fn;
	char **locks;
	int nlocks;
	int complete;
};

/* The thread entry points from which a function can be reached through
 * calls: main, constructors, thread start routines, and the functions
 * nothing in the tree calls (unknown_root).  MANY: more than fit. */
#define MAX_THREAD_ROOTS 4
struct thread_roots {
	int v[MAX_THREAD_ROOTS];
	unsigned char n, many;
};

/* The result of the analysis, read through the functions below (the
 * structure itself is the analysis' own: analysis/internal.h). */
struct analysis;

/* Index lists of the analysis, each walked as
 *     for (int i = analysis_first(a, LIST, key); i >= 0; i = analysis_next(a, LIST, i))
 * RECORDS_OF_EVENT (key: an event's gid): indexes into analysis_records;
 * COMPLETE_RECORDS_OF_EVENT (likewise): its complete records, the first
 * of each set of locks held of their own (what depends on a complete
 * record's locks alone is asked once per set);
 * PLAIN_RECORDS_OF_OBJECT (key: an object's oid): the complete records of
 * its plain accesses; RELAYS_FROM / RELAYS_TO (key: oid): indexes into
 * analysis_relays; CONSUMERS_OF_PLAIN (key: the plain access's gid):
 * indexes of its consumer links. */
enum analysis_list {
	RECORDS_OF_EVENT, COMPLETE_RECORDS_OF_EVENT, PLAIN_RECORDS_OF_OBJECT, RELAYS_FROM, RELAYS_TO,
	CONSUMERS_OF_PLAIN,
};
int analysis_first(const struct analysis *a, enum analysis_list list, int key);
int analysis_next(const struct analysis *a, enum analysis_list list, int i);

/* The writer-side and reader-side candidates (their count in *N). */
const struct candidate *analysis_writers(const struct analysis *a, int *n);
const struct candidate *analysis_readers(const struct analysis *a, int *n);
/* The values a candidate's or a link's RANGE number stands for, or NULL
 * for every value (-1). */
const struct vrange *analysis_range(const struct analysis *a, int range);
/* The functions analysed (their count in *N). */
const struct function *analysis_functions(const struct analysis *a, int *n);
/* Is the event at (BB, KB) of F (block, position) reachable from the one
 * at (BA, KA)? */
int event_reaches(const struct function *f, int ba, int ka, int bb, int kb);
/* May F and G (different), or two activations of F (G == F), run at the
 * same time? */
int run_together(const struct analysis *a, const struct function *f, const struct function *g);
/* Does event E synchronise: a marked access, a barrier, a lock or an
 * unlock?  (Code that makes one is written to run in several threads.) */
int synchronises(const struct event *e);
/* The lock word stores and takes of ROLE (their count in *N). */
const struct lock_word_op *analysis_lock_word_ops(const struct analysis *a, enum lock_word_role role, int *n);

/* The constant marked access E stores ("~%V", extract_compare.c), or the
 * one a compare-and-swap expects ("=%V": EXPECTED), in *V: 1, or 0 when it
 * is not known. */
int event_constant(const struct event *e, int expected, long long *v);

/* Which marked reads (and call results) each local of a function holds
 * the value of, flow-insensitively and through other locals (s =
 * READ_ONCE(seq); t = s & ~1): by event index, PARAM_SOURCE for a
 * parameter's value (valuedeps.c). */
struct derived { int *reads; int n, cap; };

/* In a derived's reads: the value comes from a parameter ("$KEY:N"). */
#define PARAM_SOURCE (-2)
/* In a derived's reads: the value is what call event I stored through the
 * local's address (get(&r)), in a function of N events: kept apart from
 * the call's result, I itself, which says nothing of the local. */
#define OUT_SOURCE(n, i) ((n) + (i))

struct deriv_map {
	struct derived *v;        /* by the local's number (facts.h) */
	int n;
};

/* Fills M for F (dm_free frees it); the entry of local number LOCAL, or
 * NULL (no local: -1). */
void compute_derived(const struct function *f, struct deriv_map *m);
/* The same, where a call that is passed the address of a local of F
 * (get(&r)) is a source of that local's value (OUT_SOURCE), when
 * STORES_READ(CTX, CALL, ARG) says the callee stores a marked read's value
 * through argument ARG (summary.out_tells). */
void compute_derived_through_calls(const struct function *f, struct deriv_map *m,
				   int (*stores_read)(const void *ctx, const struct event *call, int arg), const void *ctx);
struct derived *dm_get(struct deriv_map *m, int local);
void dm_free(struct deriv_map *m);

/* Does an address dependency on marked read R order what is reached
 * through it?  In the LKMM it does (READ_ONCE(gp)->x, rcu_dereference).
 * C11 orders nothing by a dependency (memory_order_consume, which would,
 * is taken for acquire), so a C11 or GNU atomic load with relaxed order
 * leaves what its value leads to unordered (DPDK's MCS unlock: the relaxed
 * load of me->next, then the store to me->next->locked; transfer.c). */
int dependency_orders(const struct event *r);

/* The constant K (in *K) that E stores on top of what it read of its own
 * object ("~!step:K", extract_compare.c): a compare-and-swap that stores
 * what it expected plus K, or a store of a read of its object plus K (a
 * sequence's bump).  1, or 0 for another event. */
int event_step(const struct event *e, long long *k);

/* The links of each kind (their count in *N): producers (a plain access
 * and a later marked write in one function), consumers (a marked read and
 * a later plain access), early (a plain read before a marked read), late
 * (a plain access after a marked write with no marked read between). */
enum link_kind { LINK_PRODUCER, LINK_CONSUMER, LINK_EARLY, LINK_LATE };
const struct link *analysis_links(const struct analysis *a, enum link_kind kind, int *n);
/* The producer or consumer links' indexes sorted by (flag oid, data oid). */
const int *analysis_links_by_flag(const struct analysis *a, enum link_kind kind);

const struct relay *analysis_relays(const struct analysis *a, int *n);
const struct lock_record *analysis_records(const struct analysis *a, int *n);
/* The locks held around the event of number GID by the callers that reached
 * it through a call (each once; their count in *N). */
const char *const *analysis_caller_locks(const struct analysis *a, int gid, int *n);
/* The first complete lock record of the event of number GID, or -1. */
int analysis_first_complete(const struct analysis *a, int gid);
/* Does record R itself hold lock L (its own locks: a complete record has
 * its callers' too, along one way of reaching it)? */
int record_holds(const struct lock_record *r, const char *l);
/* Does record R's access hold any lock, its own or one the callers that
 * reach it hold there? */
int record_locked(const struct analysis *a, const struct lock_record *r);
/* How many objects there are (oids run from 0 below it). */
int analysis_objects(const struct analysis *a);

/* May two activations of FN run at the same time? */
/* May functions F and G (different) run at the same time in two threads?
 * Not when every thread entry point that reaches one of them reaches the
 * other too and runs only once (two helpers that only main() calls). */
int may_run_concurrently(const struct analysis *a, const struct function *f, const struct function *g);

int runs_concurrently_with_itself(const struct analysis *a, const struct function *fn);

/* Is plain access P made before every thread that runs G is created, or
 * after it was joined, by the one thread that makes P and creates those
 * (created.c)?  Then P races with nothing G does. */
int made_before_started(const struct analysis *a, const struct event *p, const struct function *g);

/* Do F and G (or two activations of F, when G is F) run in threads that
 * the tree itself starts and that may run at the same time: every entry
 * point reaching them is known (main, a constructor, a start routine of
 * pthread_create; not a library function called from outside), and one of
 * them is a start routine?  The strongest evidence that two accesses can
 * meet; a library's API functions, which any thread may call, are not. */
int threads_started_together(const struct analysis *a, const struct function *f, const struct function *g);
/* Is access D, an event of function FN itself, reached by FN's own plain
 * pointer loads only: its address is the value of locals of FN that no
 * marked read, call result or parameter flows into (a plain walk of a
 * list)?  0 for an event of another function (a callee's, through a
 * call).  Worked out on each call (valuedeps.c). */
int reached_by_plain_loads(const struct function *fn, const struct event *d);

/* How the whole tree accesses one object: its access sites (each event of
 * the tree's functions once), and what its marked accesses are. */
struct object_tally {
	int plain, marked;        /* access sites, plain and marked */
	int ordered_writes;       /* marked writes or RMWs that release, or more */
	int ordered_reads;        /* marked reads or RMWs that acquire, or more */
	int stores;               /* marked stores (WRITE_ONCE, atomic_store) */
	int resets;               /* of them, stores of the constant 0 */
	int inits;                /* atomic_init(): marked stores that order
				     nothing, not counted in STORES */
	int polled;               /* plain reads made in a loop's condition */
	int counting_rmws;        /* RMWs that add, subtract, increment, decrement */
	int increments;           /* of them, those that add (increments()) */
	int other_rmws;           /* exchanges, compare-and-swaps, bit operations */
};
/* Is E a marked store of the constant 0 (atomic_set(&n, 0))?  Its value
 * is the primitive's second argument, as every store primitive of the
 * vocabulary spells it. */
int stores_zero(const struct event *e);
/* Is E an arithmetic read-modify-write (an add, a subtract, an increment
 * or a decrement; x++ on an _Atomic object), rather than an exchange, a
 * compare-and-swap or a bit operation? */
int counting_rmw(const struct event *e);
/* Is E a counting RMW that adds (an add, an increment, a compare-and-swap
 * storing more than it expected), rather than one that subtracts? */
int increments(const struct event *e);
/* Is object OID a struct field that only the activation owning an
 * instance ever touches (analysis/owned.c)?  No pairing on it is a race. */
int object_owner_only(const struct analysis *a, int oid);
/* Is access E made through memory its activation owns (an allocation of
 * its own, an argument every caller passes from owned memory, a thread's
 * exclusively handed argument: analysis/owned.c)?  Two such accesses are
 * of two instances or of one thread, never a race. */
int event_owned(const struct analysis *a, const struct event *e);
/* Is access E made through memory that its activation frees afterwards on
 * every path, without handing it on first (claimed.c)? */
int event_claimed(const struct analysis *a, const struct event *e);
/* Are accesses X and Y of one object each made through memory their own
 * activation owns, or each through memory it frees afterwards (owned.c)?
 * Then they are of two instances or of one thread: never a race. */
int both_owned(const struct analysis *a, const struct event *x, const struct event *y);
/* Can one program hold function FN (NULL: none) and the functions that
 * define the N events (at most MAX_LINKABLE; NULL entries skipped)?  Not
 * when two of their files both define one external function
 * (analysis/exclusive.c): the pattern mixes two programs. */
#define MAX_LINKABLE 8
int files_linkable(const struct analysis *a, const struct function *fn, const struct event *const *events, int n);
/* The tally of object OID (all zero for an unknown one). */
const struct object_tally *analysis_tally(const struct analysis *a, int oid);
/* A marked write or RMW of the tree, in the function whose own body makes
 * it (each event once, like the tally). */
struct marked_write {
	const struct event *e;
	const struct function *fn;
};
/* The marked writes of object OID (their count in *N). */
const struct marked_write *analysis_marked_writes(const struct analysis *a, int oid, int *n);

/* Runs the analysis over FNS (all functions of the tree, one per link
 * key).  The events of FNS must outlive the result, which the caller
 * frees with analysis_free. */
struct analysis *analyse(struct function *fns, int nfns);
/* The same in up to THREADS threads (the result is the same whatever
 * their number: analysis/split.c). */
struct analysis *analyse_threads(struct function *fns, int nfns, int threads);
void analysis_free(struct analysis *a);


/* Writer-side effect of an ordering: which pending plain access types it
 * orders (bit 1 << ACC_READ, ACC_WRITE, ACC_RMW).  Reader-side effect:
 * whether it orders earlier marked reads before later reads. */
unsigned writer_kills(enum ord o);
int reader_kills(enum ord o, int is_barrier);

#endif
