/* analyzer/findings/evidence.c — facts, confidence levels and the
 * sentences that explain them (evidence.h). */
#include "evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int names_a_variable(const struct event *e);

const char *confidence_name(enum confidence c)
{
	return c == CONFIDENCE_HIGH ? "high" : c == CONFIDENCE_MEDIUM ? "medium" : "low";
}

enum confidence confidence_of(unsigned f)
{
	unsigned tied = f & (FACT_TIED_WRITER | FACT_TIED_READER);
	int depends = (f & (FACT_TESTED | FACT_POINTER)) != 0, threads = (f & FACT_THREADS) != 0;
	int ordered = (f & FACT_FLAG_ORDERED) != 0;

	if (f & FACT_POLLED)
		return threads && (f & FACT_VARIABLES) ? CONFIDENCE_HIGH : threads ? CONFIDENCE_MEDIUM : CONFIDENCE_LOW;
	if (f & (FACT_COUNTER | FACT_DATA_POLLED | FACT_C11_DEPENDENCY))
		return CONFIDENCE_LOW;
	/* (marked data is no data race: it is a bug only where the reader
	 * relies on the order, so only threads of the tree's own that run
	 * together lift it above low) */
	if ((f & FACT_MARKED_DATA) && !threads)
		return CONFIDENCE_LOW;
	/* (threads of the tree's own, or only a library's entry points that
	 * any thread may call; a named variable is one object, a field stands
	 * for every instance of its struct) */
	if (f & (FACT_LOST_UPDATE | FACT_STORE_BUFFERING | FACT_C11_VOLATILE))
		return threads && (f & FACT_VARIABLES) ? CONFIDENCE_HIGH : threads ? CONFIDENCE_MEDIUM : CONFIDENCE_LOW;
	/* (the lock's take is an acquire that expects what the store writes:
	 * its authors made the word a lock; the sections are not in view) */
	if (f & FACT_LOCK_WORD)
		return threads ? CONFIDENCE_HIGH : CONFIDENCE_MEDIUM;
	/* (the authors say the memory is shared and the missing order is in
	 * view; the other side is assumed, not seen: it may order for both,
	 * as a kernel's full barrier around a system call does) */
	if (f & FACT_EXTERNAL)
		return CONFIDENCE_MEDIUM;
	/* (likewise: both halves of the protocol are in view; what is not
	 * known without threads is only whether its two sides run together,
	 * which is what a sequence lock is for) */
	if (f & FACT_SEQLOCK)
		return (f & FACT_DISCARDED) ? (threads ? CONFIDENCE_MEDIUM : CONFIDENCE_LOW)
					    : threads ? CONFIDENCE_HIGH : CONFIDENCE_MEDIUM;
	if (f & FACT_LOCKSET) {
		int locked = (f & FACT_LOCKED_WRITES) != 0;

		return threads && locked ? CONFIDENCE_HIGH : threads ? CONFIDENCE_MEDIUM : CONFIDENCE_LOW;
	}
	if (tied == (FACT_TIED_WRITER | FACT_TIED_READER) && depends && (threads || ordered))
		return CONFIDENCE_HIGH;
	return tied ? CONFIDENCE_MEDIUM : CONFIDENCE_LOW;
}

/* Is E an event of FN's own body (not a callee's seen through a call)? */
static int own_event(const struct function *fn, const struct event *e)
{
	return fn && e->func && fn->name && strcmp(e->func, fn->name) == 0 && !e->orig;
}

/* Do items X and Y name the same source (a local, a parameter, an
 * event's value)? */
static int same_source(const struct dep_item *x, const struct dep_item *y)
{
	if (x->kind != y->kind)
		return 0;
	switch (x->kind) {
	case DEP_LOCAL:
		return x->local >= 0 ? x->local == y->local : strcmp(x->name, y->name) == 0;
	case DEP_EVENT:
		return x->n == y->n;
	case DEP_PARAM:
		return x->n == y->n && strcmp(x->name, y->name) == 0;
	default:
		return 0;
	}
}

/* Does an item of role RA in A's dependencies name the same source as an
 * item of role RB in B's? */
static int share_source(const struct event *a, enum dep_role ra, const struct event *b, enum dep_role rb)
{
	for (int i = 0; i < a->deps.n; i++)
		for (int k = 0; k < b->deps.n; k++)
			if (a->deps.v[i].role == ra && b->deps.v[k].role == rb &&
			    same_source(&a->deps.v[i], &b->deps.v[k]))
				return 1;
	return 0;
}

unsigned tie_facts(const struct function *fn, const struct event *data, const struct event *flag,
		   int flag_oid, unsigned which)
{
	if (flag->oid != flag_oid || !own_event(fn, data) || !own_event(fn, flag))
		return 0;
	if (is_named_variable(data) && is_named_variable(flag))
		return which;
	/* one instance: both addresses computed from the same pointer */
	if (share_source(data, DEP_ADDRESS, flag, DEP_ADDRESS))
		return which;
	/* the flag's store carries the pointer the data was written through */
	if (flag->access != ACC_READ && share_source(data, DEP_ADDRESS, flag, DEP_VALUE))
		return which;
	return 0;
}

int evidence_strength(unsigned f)
{
	/* Weights follow confidence_of: what alone lifts a level counts
	 * double. */
	int s = 0;

	s += f & FACT_THREADS ? 2 : 0;
	s += f & FACT_POINTER ? 2 : 0;
	s += f & FACT_TESTED ? 1 : 0;
	s += f & FACT_SAME_STRUCT ? 1 : 0;
	s += f & FACT_VARIABLES ? 1 : 0;
	s += f & FACT_FLAG_ORDERED ? 1 : 0;
	s += f & FACT_MOSTLY_MARKED ? 1 : 0;
	s += f & FACT_LOCKED_WRITES ? 1 : 0;
	s += f & FACT_TIED_WRITER ? 2 : 0;
	s += f & FACT_TIED_READER ? 2 : 0;
	s -= f & FACT_COUNTER ? 4 : 0;
	s -= f & FACT_DATA_POLLED ? 4 : 0;
	return s;
}

const char *struct_of(const char *key, size_t *n)
{
	const char *fi = key ? strstr(key, "@FI@") : NULL;

	if (!fi)
		return NULL;
	*n = (size_t)(fi - key) + 4;
	return key;
}

/* Is E's object a named variable (a global, a file or function static:
 * a clang USR that names no field)?  Its address is fixed: an address
 * dependency of an access to it can only be an index. */
static int names_a_variable(const struct event *e)
{
	return e->obj.kind == OBJ_USR && e->object && !strstr(e->object, "@FI@");
}

/* ... and one object, not an element of an array picked by an index
 * (all elements are one object to the analysis, whatever the index)? */
int is_named_variable(const struct event *e)
{
	if (!names_a_variable(e) || e->obj.elements)
		return 0;
	for (int i = 0; i < e->deps.n; i++)
		if (e->deps.v[i].role == DEP_ADDRESS)
			return 0;
	return 1;
}

int picked_by_index(const struct event *e)
{
	return e->obj.elements || (e->display && strchr(e->display, '['));
}

int is_counter(const struct analysis *a, int oid)
{
	const struct object_tally *t = analysis_tally(a, oid);

	return t->counting_rmws && !t->stores && !t->other_rmws && !t->ordered_writes && !t->ordered_reads;
}

int restarts_a_count(const struct analysis *a, const struct event *e)
{
	const struct object_tally *t = analysis_tally(a, e->oid);

	return e->marked && e->access == ACC_WRITE && stores_zero(e) && t->counting_rmws && t->stores == t->resets &&
	       !t->other_rmws;
}

int is_reference_count(const struct analysis *a, int oid)
{
	const struct object_tally *t = analysis_tally(a, oid);

	return t->counting_rmws && !t->other_rmws && t->stores == t->resets &&
	       t->increments && t->increments < t->counting_rmws;
}

int takes_a_ticket(const struct analysis *a, const struct event *e)
{
	return e->access == ACC_RMW && (is_counter(a, e->oid) || (increments(e) && is_reference_count(a, e->oid)));
}

unsigned object_facts(const struct analysis *a, const struct event *data, const struct event *flag)
{
	const struct object_tally *d = analysis_tally(a, data->oid);
	unsigned f = 0;

	if (d->marked > d->plain)
		f |= FACT_MOSTLY_MARKED;
	/* (not for a plain-flag or lockset finding, where the data is the
	 * flag: the callers pass no flag) */
	if (flag && flag->oid != data->oid && d->polled)
		f |= FACT_DATA_POLLED;
	if (flag && flag->oid != data->oid) {
		const struct object_tally *t = analysis_tally(a, flag->oid);
		size_t nd = 0, nf = 0;
		const char *sd = struct_of(data->object, &nd), *sf = struct_of(flag->object, &nf);

		if (sd && sf && nd == nf && strncmp(sd, sf, nd) == 0)
			f |= FACT_SAME_STRUCT;
		if (is_named_variable(data) && is_named_variable(flag))
			f |= FACT_VARIABLES;
		if (t->ordered_writes || t->ordered_reads)
			f |= FACT_FLAG_ORDERED;
		else if (is_counter(a, flag->oid))
			f |= FACT_COUNTER;
	}
	return f;
}

unsigned pairing_facts(const struct analysis *a, const struct function *fn,
		       const struct function *counterpart, const struct link *consumer, int flag_oid)
{
	unsigned f = 0;

	if (fn && counterpart && threads_started_together(a, fn, counterpart))
		f |= FACT_THREADS;
	/* (through a relay, the reader tests or follows another flag) */
	if (consumer && consumer->marked->oid != flag_oid)
		consumer = NULL;
	if (consumer && (consumer->how & LINK_TESTED))
		f |= FACT_TESTED;
	/* The value read leads to the data; not when the data is an element
	 * of a named array, whose address is fixed: there the value is an
	 * index (accumulator[state]), and an index publishes nothing. */
	if (consumer && (consumer->how & LINK_THROUGH_POINTER) && !names_a_variable(consumer->plain))
		f |= FACT_POINTER | FACT_TIED_READER;
	return f;
}

/* The sentence of each fact, in the order shown: FMT takes the names
 * FIRST and SECOND (a flag's facts say nothing without a flag). */
enum name_of { NO_NAME, DATA_NAME, FLAG_NAME };
static const struct {
	unsigned fact;
	const char *fmt;
	enum name_of first, second;
} sentences[] = {
	{ FACT_THREADS, "both sides run in threads that the tree starts and that run at the same time",
	  NO_NAME, NO_NAME },
	{ FACT_TIED_WRITER, "the writer accesses '%s' and '%s' together: one instance, or named variables",
	  DATA_NAME, FLAG_NAME },
	{ FACT_TIED_READER, "the reader accesses '%s' and '%s' together: one instance, or named variables",
	  FLAG_NAME, DATA_NAME },
	{ FACT_TESTED, "the reader tests '%s' before the access", FLAG_NAME, NO_NAME },
	{ FACT_LOCK_WORD, "'%s' is a lock word: a compare-and-swap with acquire takes it from the value this store writes back",
	  FLAG_NAME, NO_NAME },
	{ FACT_HELD_TEST, "the store comes after a test that saw '%s' hold the value the compare-and-swap stores: the holder gives the lock back",
	  FLAG_NAME, NO_NAME },
	{ FACT_SEQLOCK, "'%s' is a sequence: a reader reads it, reads the data and reads it again to retry, and a writer writes it before and after the data",
	  FLAG_NAME, NO_NAME },
	{ FACT_EXTERNAL, "'%s' and '%s' are memory shared with an agent outside the tree (a profile's external line): its side is assumed, not seen",
	  DATA_NAME, FLAG_NAME },
	{ FACT_POLLED, "a loop waits on a plain read of '%s' that another thread writes: a flag itself, accessed plainly",
	  DATA_NAME, NO_NAME },
	{ FACT_LOST_UPDATE, "'%s' is updated by plain accesses that two threads can make at once, and no access of it holds a lock",
	  DATA_NAME, NO_NAME },
	{ FACT_C11_VOLATILE, "'%s' is declared volatile in code that uses C11 atomics, so its authors share it; C11 makes no volatile access atomic",
	  DATA_NAME, NO_NAME },
	{ FACT_STORE_BUFFERING, "each side stores one of '%s' and '%s' and then tests what it loads of the other, with no full barrier between",
	  DATA_NAME, FLAG_NAME },
	{ FACT_MARKED_DATA, "'%s' is accessed marked but relaxed here: each access is atomic, but marking does not order it against '%s'",
	  DATA_NAME, FLAG_NAME },
	{ FACT_POINTER, "'%s' is reached through the pointer read from '%s'", DATA_NAME, FLAG_NAME },
	{ FACT_SAME_STRUCT, "'%s' and '%s' are fields of one struct", DATA_NAME, FLAG_NAME },
	{ FACT_VARIABLES, "'%s' and '%s' are both variables, not fields", DATA_NAME, FLAG_NAME },
	{ FACT_FLAG_ORDERED, "'%s' is written with a release or read with an acquire elsewhere in the tree",
	  FLAG_NAME, NO_NAME },
	{ 0, NULL, DATA_NAME, NO_NAME },   /* how the rest of the tree accesses the data */
	{ FACT_LOCKED_WRITES, "'%s' is written holding a lock at two or more sites", DATA_NAME, NO_NAME },
	{ FACT_COUNTER, "against: '%s' is only updated by arithmetic read-modify-writes, a counter rather than a flag",
	  FLAG_NAME, NO_NAME },
	{ FACT_C11_DEPENDENCY, "against: '%s' is reached through the pointer a C11 relaxed load of '%s' returned; the address dependency orders it everywhere but in C11's rules",
	  DATA_NAME, FLAG_NAME },
	{ FACT_DISCARDED, "against: the reader's retry throws away a value read while '%s' changes: no torn value is kept, only the accesses race",
	  DATA_NAME, NO_NAME },
	{ FACT_DATA_POLLED, "against: '%s' is itself a plain flag, polled in a loop elsewhere; its own races come first",
	  DATA_NAME, NO_NAME },
};

void evidence_sentences(const struct analysis *a, unsigned f, const struct event *data,
			const char *data_name, const char *flag_name,
			void (*fn)(const char *sentence, void *ctx), void *ctx)
{
	const struct object_tally *d = analysis_tally(a, data->oid);
	const char *names[] = { "", data_name, flag_name };

	for (size_t i = 0; i < sizeof sentences / sizeof *sentences; i++) {
		char *s;

		if (!sentences[i].fact) {
			if (!(f & (FACT_MOSTLY_MARKED | FACT_LOCKED_WRITES)) && !d->marked)
				continue;
			s = xasprintf("'%s' is accessed marked at %d site%s, plain at %d", data_name, d->marked,
				      d->marked == 1 ? "" : "s", d->plain);
		} else if (!(f & sentences[i].fact) ||
			   (!flag_name && (sentences[i].first == FLAG_NAME || sentences[i].second == FLAG_NAME))) {
			continue;
		} else if (sentences[i].fact == FACT_VARIABLES && (f & (FACT_POLLED | FACT_LOST_UPDATE | FACT_C11_VOLATILE))) {
			/* (a polled flag, or an update that races with another
			 * of itself, is its own "flag": one variable) */
			s = xasprintf("'%s' is a variable, not a field", data_name);
		} else {
			s = xasprintf(sentences[i].fmt, names[sentences[i].first], names[sentences[i].second]);
		}
		fn(s, ctx);
		free(s);
	}
}
