/* analyzer/findings/evidence.h — how sure a finding is, and why: the facts
 * of the tree that make a reported pattern a real race (or only a shape),
 * and the confidence level they add up to (docs/design.md §7, SPEC §7
 * "confidence").
 *
 * The rules (pairing.c) say which facts hold for each pairing they find;
 * evidence.c turns facts into a level and a strength (the order inside a
 * level) and into the sentences the report shows. */
#ifndef KCSAN_EVIDENCE_H
#define KCSAN_EVIDENCE_H

#include "analyzer/analysis/dataflow.h"

/* Facts for a finding (bits).  Each names the evidence, not the rule. */
enum evidence_fact {
	/* Both sides run in threads the tree itself starts, which may run at
	 * the same time (threads_started_together). */
	FACT_THREADS       = 1u << 0,
	/* The reader tests the flag's value before the access: the access
	 * runs only on what it read (a branch or a wait loop). */
	FACT_TESTED        = 1u << 1,
	/* The access's address is computed from the value the flag read
	 * returned: the data is reached through the published pointer. */
	FACT_POINTER       = 1u << 2,
	/* The data and the flag are fields of one struct. */
	FACT_SAME_STRUCT   = 1u << 3,
	/* The data and the flag are both variables (globals or statics), not
	 * fields: the shape of a flag that publishes named data. */
	FACT_VARIABLES     = 1u << 9,
	/* Somewhere in the tree the flag is written with a release or read
	 * with an acquire: its authors treat it as a flag. */
	FACT_FLAG_ORDERED  = 1u << 4,
	/* Most of the tree's accesses to the data are marked: its authors
	 * know it is shared, and this plain access is the odd one. */
	FACT_MOSTLY_MARKED = 1u << 5,
	/* The data is written holding a lock at two or more sites. */
	FACT_LOCKED_WRITES = 1u << 6,
	/* Against: the flag is a counter.  Every marked update of it is an
	 * arithmetic RMW (an id, an index, a statistic) and nothing in the
	 * tree orders it: two increments are different RMWs, and making them
	 * release and acquire would order nothing between the two threads. */
	FACT_COUNTER       = 1u << 7,
	/* Not evidence but the rule: a lockset race (inconsistent locking),
	 * which has no flag whose relation to the data could be shown. */
	FACT_LOCKSET       = 1u << 8,
	/* In the writer's function itself, the data and the flag are tied:
	 * accessed through the same pointer (one instance, j->sum then
	 * j->done), or the flag stores the pointer the data was written
	 * through (node->x = 1; publish(&head, node)), or both are named
	 * variables.  FACT_TIED_READER: the same in the reader's function
	 * (or the data reached through the value the flag read). */
	FACT_TIED_WRITER   = 1u << 10,
	FACT_TIED_READER   = 1u << 11,
	/* Not evidence but the rule: a plain flag, read plainly in a loop's
	 * condition (a wait) while another thread writes it.  The object is
	 * a flag itself: its pairings as data published by some other flag
	 * come after this one. */
	FACT_POLLED        = 1u << 12,
	/* Against: the data is itself a plain flag, polled in a loop
	 * somewhere in the tree.  Its races are reported as such (the
	 * plain-flag and lockset rules); taking it for data that another
	 * flag publishes misreads it. */
	FACT_DATA_POLLED   = 1u << 13,
	/* Not evidence but the rule: the flag is a lock word (lockword.c),
	 * taken elsewhere by a compare-and-swap with acquire from the value
	 * this store writes back; the critical section is the callers'. */
	FACT_LOCK_WORD     = 1u << 14,
	/* Not evidence but the rule: a plain update (a read-modify-write, or
	 * a write after a read of the object) that two threads can make at
	 * once, no lock held anywhere on the object (lostupdate.c). */
	FACT_LOST_UPDATE   = 1u << 15,
	/* Not evidence but the shape: the data access is itself marked but
	 * relaxed (issue 12, shape 1): atomic, yet not ordered against the
	 * flag by its marking. */
	FACT_MARKED_DATA   = 1u << 16,
	/* Not evidence but the rule: a store then a tested load of another
	 * object, and crosswise in a thread that runs at the same time, no
	 * full barrier on either side (storebuffer.c). */
	FACT_STORE_BUFFERING = 1u << 17,
	/* Not evidence but the rule: a plain access of an object declared
	 * volatile in C11 code, which a write in another thread meets
	 * (pairing.c, c11_volatile_findings). */
	FACT_C11_VOLATILE  = 1u << 18,
	/* Not evidence but the rule: the flag is a sequence (seqlock.c): a
	 * reader reads it, reads the data and reads it again to retry, and
	 * a writer writes it before and after the data.  Both halves are in
	 * the tree, so its authors made it a sequence lock. */
	FACT_SEQLOCK       = 1u << 19,
	/* Against: the reader throws away what this read returns when it
	 * meets the write (a sequence lock's retry): no torn value is kept,
	 * only the two accesses race. */
	FACT_DISCARDED     = 1u << 20,
	/* Against: the reader reaches the data through the pointer a C11
	 * relaxed load returned.  The address dependency orders it for the
	 * LKMM and on every CPU; only C11's rules, which know no dependency
	 * order, leave it unordered (dependency_orders). */
	FACT_C11_DEPENDENCY = 1u << 21,
	/* The other side is not in the tree: the memory is declared shared
	 * with an agent outside it (a profile's "external" line,
	 * external.c), and the pattern is checked with that side assumed. */
	FACT_EXTERNAL      = 1u << 22,
	/* For a lock word's give-back (lockword.c): its function stores the
	 * free value only after a test saw the word hold the value the take
	 * stores, which an initialiser never does. */
	FACT_HELD_TEST     = 1u << 23,
};

enum confidence { CONFIDENCE_HIGH, CONFIDENCE_MEDIUM, CONFIDENCE_LOW };

/* "high", "medium", "low". */
const char *confidence_name(enum confidence c);

/* The level FACTS add up to.  A flag publishes data it is tied to, on
 * both sides, in the code that does it: the textbook shape (writer: data
 * then flag through one pointer; reader: flag tested then data through
 * it).  A plain access merely near an unrelated flag (a queue's head read
 * in a caller, a field of another instance of the same type) is the
 * commonest false alarm of real code, so only a pairing tied on both
 * sides is ever high.
 *   high    tied on both sides, the reader depending on the flag (tested,
 *           or the data reached through it), and either threads of the
 *           tree that run together or a flag the tree orders elsewhere;
 *           a lockset race between threads that run together on data
 *           written under a lock at two or more sites; a named variable
 *           polled plainly by one of threads that run together and
 *           written by another;
 *   medium  tied on one side; a lockset race between threads that run
 *           together; a polled field (one object for every instance of
 *           its struct) between threads that run together;
 *   low     the rest: the shape alone (the data merely beside the flag
 *           in a struct type shared by every instance is no tie), or a
 *           counter taken for a flag.
 * A finding observed at run time is high whatever these say (report). */
enum confidence confidence_of(unsigned facts);

/* The struct part of a field's object key, up to and including "@FI@"
 * ("c:@S@ring@FI@" of "c:@S@ring@FI@head"), its length in *N; NULL for an
 * object that is no field. */
const char *struct_of(const char *key, size_t *n);

/* Is E's object one named variable (a global or static, not a field and
 * not an element picked by an index)? */
int is_named_variable(const struct event *e);
/* Does E pick an element of an array by an index, as its source spells
 * it (counts[cpu]++, st[i].n, s->hist[b]++)?  The analysis names the
 * array (or the field) for every element, so two such accesses need not
 * touch the same memory: most often each thread has its slot. */
int picked_by_index(const struct event *e);

/* How much evidence FACTS hold: the order of findings inside one level
 * (more first). */
int evidence_strength(unsigned facts);

/* Is object OID a counter: every marked update of it an arithmetic RMW,
 * and none of its accesses ordered (FACT_COUNTER)?  A count that is also
 * stored (reset to 0 between rounds) is not: its readers often wait for
 * it (an event count, corpus 26), and then it is a flag. */
int is_counter(const struct analysis *a, int oid);
/* Is E a reset of a count (a marked store of 0 to an object otherwise
 * updated only by arithmetic RMWs)?  It publishes nothing: readers wait
 * for counts, which only the increments make. */
int restarts_a_count(const struct analysis *a, const struct event *e);

/* Does reading flag access E (the reader's side of a pairing) take an id
 * from a counter rather than observe a publication?  An increment that
 * hands out a ticket, an index or an arrival number is a different RMW
 * from the writer's: no release or acquire on the two would order
 * anything between them, so the pairing is no message passing at all.
 * So is an increment of a count whose other updates are ordered (a
 * reference count's release decrement): what the increment learns is
 * that the count was not zero, a reference taken, not another thread's
 * message; a decrement of it may be the last one, which acquires what
 * the others released, and stays a reader.  (A plain marked read that
 * tests the counter, waiting for it to reach a value, still observes the
 * writer's update.) */
int takes_a_ticket(const struct analysis *a, const struct event *e);
/* Is object OID a reference count, ordered or not: every marked update of
 * it an arithmetic RMW (compare-and-swaps that add a constant among
 * them), some adding and some subtracting, besides its atomic_init() and
 * resets to 0?  (A barrier's arrival count only adds; a semaphore is one,
 * and its increments, the ups, learn nothing either.) */
int is_reference_count(const struct analysis *a, int oid);

/* The facts of a data object and a flag object themselves (not of one
 * pairing): FACT_SAME_STRUCT, FACT_FLAG_ORDERED, FACT_MOSTLY_MARKED and
 * FACT_COUNTER.  FLAG may be NULL (a lockset race has none). */
unsigned object_facts(const struct analysis *a, const struct event *data, const struct event *flag);

/* FACT_TIED_WRITER or FACT_TIED_READER (WHICH) when DATA and FLAG, both
 * events of FN's own body, are tied (see the facts) and FLAG is an access
 * of the finding's flag object FLAG_OID itself; 0 otherwise.  (A pairing
 * found through a relay, F read then G written, ties the data to G, not
 * to the finding's flag F.) */
unsigned tie_facts(const struct function *fn, const struct event *data, const struct event *flag,
		   int flag_oid, unsigned which);

/* The facts of a pairing of FN's pattern with COUNTERPART's function
 * (FACT_THREADS) through consumer link CONSUMER (FACT_TESTED and
 * FACT_POINTER when it reads the finding's flag FLAG_OID itself; NULL
 * when the pairing is not through one). */
unsigned pairing_facts(const struct analysis *a, const struct function *fn,
		       const struct function *counterpart, const struct link *consumer, int flag_oid);

/* Calls FN with each sentence that explains FACTS for a finding on DATA
 * (named DATA_NAME) and FLAG (FLAG_NAME, may be NULL): "writer() and
 * reader() run in threads started by the tree, at the same time". */
void evidence_sentences(const struct analysis *a, unsigned facts, const struct event *data,
			const char *data_name, const char *flag_name,
			void (*fn)(const char *sentence, void *ctx), void *ctx);

#endif
