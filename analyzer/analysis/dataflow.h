/* analyzer/analysis/dataflow.h — the ordering analysis over every function of the
 * tree: which plain accesses can still be reordered past a marked access
 * (writer side), which marked reads can still be reordered past a plain
 * read (reader side), and the wider facts that pairing needs. */
#ifndef KCSAN_DATAFLOW_H
#define KCSAN_DATAFLOW_H

#include "analyzer/model/facts.h"
#include "analyzer/model/pairset.h"

/* An unordered pattern: PLAIN and MARKED in function FN. */
struct candidate {
	struct event *plain, *marked;
	struct function *fn;
};

/* Any order between a plain write of D and a marked write of F (producer)
 * or a marked read of F and a plain access of D (consumer); FENCE is the
 * explicit barrier that ordered a producer, if any. */
struct link {
	struct event *plain, *marked, *fence;
	struct function *fn;
	int ordered;
};

/* (early: a plain read of D before a marked read of F in one function;
 * late: a plain access of D after a marked write of F, with no marked read
 * between them.)
 * A marked read of FROM followed by a marked write of TO: a relay. */
struct relay {
	const char *from, *to;
	int from_oid, to_oid;
};

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

struct analysis {
	struct candidate *writers, *readers;
	int nwriters, nreaders, wcap, rcap;
	struct link *producers, *consumers, *early, *late;
	int nproducers, nconsumers, nearly, nlate, pcap, ccap, ecap, lcap;
	struct relay *relays;
	int nrelays, relcap;
	/* duplicates: (plain gid, marked gid) -> index; relays by object ids */
	struct pairset wseen, rseen, pseen, cseen, eseen, lseen, relseen;
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
	 * without repeats), and its first complete record (-1: none).  Pairing
	 * asks these for every record; walking rec_head each time made the
	 * lock checks quadratic in the callers of a popular helper. */
	const char ***caller_locks;
	int *ncaller_locks;
	int *first_complete;
	int *obj_head, *obj_next;     /* complete plain records of each object */
	int *fwd_head, *fwd_next;     /* relays from each object */
	int *bwd_head, *bwd_next;     /* relays to each object */
	int *cons_sorted, *prod_sorted;   /* link indexes by (flag, data) */
	int *cons_by_plain_head, *cons_by_plain_next;   /* consumers of each plain access */
	signed char *lock_cache;      /* under_common_lock per object: -1 unknown */
	struct function *fns;         /* the functions analysed */
	struct thread_roots *roots;   /* per function: the threads it runs in */
	unsigned char *unknown_root;  /* per function: an entry point called
					 from outside the tree (a library API,
					 a handler): any thread may run it */
	char **kept;                  /* lock names made by the analysis */
	int nkept, keptcap;
	unsigned char *instances;     /* per function: 1 runs once, 2 may run in
					 several threads at once */
};

/* May two activations of FN run at the same time? */
/* May functions F and G (different) run at the same time in two threads?
 * Not when every thread entry point that reaches one of them reaches the
 * other too and runs only once (two helpers that only main() calls). */
int may_run_concurrently(const struct analysis *a, const struct function *f, const struct function *g);

int runs_concurrently_with_itself(const struct analysis *a, const struct function *fn);

/* Runs the analysis over FNS (all functions of the tree, one per link
 * key).  The events of FNS must outlive OUT. */
void analyse(struct function *fns, int nfns, struct analysis *out);
void analysis_free(struct analysis *a);


/* Writer-side effect of an ordering: which pending plain access types it
 * orders (bit 1 << ACC_READ, ACC_WRITE, ACC_RMW).  Reader-side effect:
 * whether it orders earlier marked reads before later reads. */
unsigned writer_kills(enum ord o);
int reader_kills(enum ord o, int is_barrier);

#endif
