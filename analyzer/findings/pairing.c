/* analyzer/findings/pairing.c — findings from the ordering analysis (pairing.h).
 *
 * Rules, in the words a reviewer would use:
 *  - missing-release: a plain access to D can be reordered after a marked
 *    write of F, and somewhere in the tree F is read and then D accessed
 *    (directly, or through a relay: F read, G written, G read, D read).
 *  - missing-acquire: a marked read of F can be reordered after a plain
 *    read of D that does not depend on it, and somewhere D is written and
 *    then F (or a relay to F) written.
 *  - unpaired-barrier: a fence (smp_wmb, smp_mb, a release fence) orders a
 *    write of D before a write of F, and a reader of F then D has no read
 *    barrier or acquire to pair with it.
 *  - data-race (inconsistent locking): D is written holding a lock L in one
 *    place and accessed holding none of its locks in another, where
 *    both may run concurrently (not main() before pthread_create or after
 *    pthread_join).  The lock shows that the author meant D to be shared.
 *  - data-race (early read): a plain read of D made before the read of F
 *    that guards it (and after none), while D is published through F.
 *  - data-race (late access): a plain access of D after the write of F that
 *    publishes it, with no marked read (a handshake) between them.
 *  - sequence locks (seqlock.c): a read section's data read not ordered
 *    after the sequence's first read or before its re-read
 *    (missing-acquire), an update's data write not ordered after the
 *    sequence's first write or before its second (missing-release), a
 *    plain write of the sequence (data-race).  The pairings the rules
 *    above find through a sequence, inside its sections and updates, are
 *    left to these.
 *  - No finding when every plain access of D holds one common lock, or when
 *    nothing pairs with the pattern (nobody reads F then D): precision
 *    matters more than volume.
 */
#include "pairing.h"
#include "evidence.h"
#include "sites.h"
#include "external.h"
#include "lockword.h"
#include "lostupdate.h"
#include "storebuffer.h"
#include "seqlock.h"
#include "locksets.h"
#include "links.h"
#include "db.h"
#include "db/findings.h"
#include "analyzer/model/hashmap.h"
#include "analyzer/model/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is plain access E made after an acquire of some flag it reads? */
static int ordered_after_acquire(const struct analysis *a, const struct event *e)
{
	int n;
	const struct link *consumers = analysis_links(a, LINK_CONSUMER, &n);

	for (int k = analysis_first(a, CONSUMERS_OF_PLAIN, e->gid); k >= 0; k = analysis_next(a, CONSUMERS_OF_PLAIN, k))
		if (consumers[k].ordered)
			return 1;
	return 0;
}

/* Data reached only through a pointer parameter of a function nobody in
 * the tree calls (a thread's argument): each activation may get its own
 * object, so nothing shows that it is shared. */
static int unknown_target(const struct event *data)
{
	return data->obj.kind == OBJ_PARAM;
}

/* How the data access is marked: "plain", or "relaxed" for a marked access
 * with no order of its own (issue 12, shape 1: marked but unordered). */
static const char *marking_word(const struct event *e)
{
	return e->marked ? "relaxed" : "plain";
}

/* FACT_MARKED_DATA for a marked data access. */
static unsigned marked_data(const struct event *e)
{
	return e->marked ? FACT_MARKED_DATA : 0;
}

static const char *access_word(const struct event *e)
{
	return e->access == ACC_WRITE ? "write" : e->access == ACC_RMW ? "read-modify-write" : "read";
}

/* Expands a fix template: $N is argument N of the event. */
static char *expand_fix(const char *tmpl, const struct event *e)
{
	size_t len = 0, size = strlen(tmpl) + 1;
	char *out;

	for (int i = 0; i < e->argv.n; i++)
		size += e->argv.v[i] ? 4 * strlen(e->argv.v[i]) : 0;   /* each $N at most 4 times */
	out = xmalloc(size);
	for (const char *t = tmpl; *t; t++) {
		if (*t == '$' && t[1] >= '0' && t[1] <= '9') {
			int want = t[1] - '0';
			const char *a = want < e->argv.n ? e->argv.v[want] : NULL;
			size_t n = a ? strlen(a) : 0;

			if (len + n + 1 > size)
				out = xrealloc(out, size = 2 * (len + n + 1));
			if (a)
				memcpy(out + len, a, n);
			len += n;
			t++;
			continue;
		}
		if (len + 2 > size)
			out = xrealloc(out, size *= 2);
		out[len++] = *t;
	}
	out[len] = '\0';
	return out;
}

/* The suggested fix of marked access E: its primitive's release-fix (or
 * acquire-fix) with E's arguments, else FALLBACK. */
static char *fix_or(const struct vocab *v, const struct event *e, int release, const char *fallback)
{
	const struct vocab_entry *ve = e->name ? vocab_find(v, e->name, NULL) : NULL;
	const char *tmpl = ve ? (release ? ve->release_fix : ve->acquire_fix) : NULL;

	if (!ve && e->name) {
		/* Entries limited to one header (header=) are looked up by name. */
		for (size_t i = 0; i < v->count; i++)
			if (strcmp(v->entries[i].name, e->name) == 0) {
				tmpl = release ? v->entries[i].release_fix : v->entries[i].acquire_fix;
				break;
			}
	}
	if (tmpl)
		return expand_fix(tmpl, e);
	return xstrdup(fallback);
}

static char *fix_for(const struct vocab *v, const struct event *e, int release)
{
	return fix_or(v, e, release, release ? "smp_wmb(); /* or make this write a release */"
					     : "smp_rmb(); /* after this read, or make it an acquire */");
}

/* One run of pairing: where its rows go, and what it keeps meanwhile. */
struct writer {
	struct findings_tx *tx;
	const struct analysis *a;
	struct sites *sites;       /* the pairings found, one finding per site */
	signed char *lock_cache;   /* under_common_lock per object: -1 unknown */
	struct object_row *rows;   /* the objects table's rows, per object */
	struct seqlocks seq;       /* the tree's sequence locks (seqlock.h) */
	int external;              /* the profiles declare memory external
				      (external.h) */
};

/* An object's row in the objects table, and the name it was last
 * interned with (an event's string, alive until the analysis is freed). */
struct object_row {
	long long id;              /* 0: not interned yet */
	const char *name;
};

/* The objects table's row of E's object.  A tree's candidates name the
 * same few thousand objects hundreds of thousands of times (Open
 * vSwitch: 140,000 candidates, 10,000 objects), and each interning is a
 * query and an update: the row is kept per analysis object (E's oid; the
 * analysis interns one per key) and asked again only when the object
 * comes with another name, of which kdb_intern keeps the least. */
static long long object_id(struct writer *w, const struct event *e)
{
	const char *name = e->display ? e->display : e->object;
	struct object_row *r;

	if (e->oid < 0 || e->oid >= analysis_objects(w->a))
		return findings_object(w->tx, e->object, name);
	r = &w->rows[e->oid];
	if (r->id <= 0 || strcmp(r->name, name) != 0) {
		r->id = findings_object(w->tx, e->object, name);
		r->name = name;
	}
	return r->id;
}

static long long store_candidate(struct writer *w, const char *side, const struct candidate *c)
{
	const struct event *plain = strcmp(side, "writer") == 0 ? c->plain : c->marked;
	const struct event *marked = strcmp(side, "writer") == 0 ? c->marked : c->plain;

	return findings_candidate(w->tx, side, c->fn->id, plain->id, marked->id, object_id(w, plain),
				  object_id(w, marked));
}

/* Hands a pairing to the collection (sites.h): KIND of DATA with FLAG found
 * in FN, MSG and FIX taken, the locations given as role and event pairs
 * (the first is the site), NLOCS of them. */
static void found(struct writer *w, const char *kind, char *msg, const struct event *data,
		  const struct event *flag, const struct function *fn, const struct event *fix_at, char *fix,
		  long long pair, unsigned facts, int nlocs, const struct site_loc *locs)
{
	struct pairing p = { kind, msg, data, flag, fn, fix_at, fix, pair, { { 0 } }, nlocs, facts, 0 };
	const struct event *events[4];

	/* A field that only its owner touches races with nothing
	 * (analysis/owned.c), whichever rule paired it; nor do accesses of
	 * two programs (files that define one function twice). */
	for (int i = 0; i < nlocs && i < 4; i++)
		events[i] = locs[i].e;
	if (object_owner_only(w->a, data->oid) || !files_linkable(w->a, fn, events, nlocs < 4 ? nlocs : 4)) {
		free(msg);
		free(fix);
		return;
	}
	memcpy(p.locs, locs, sizeof *locs * (size_t)nlocs);
	sites_add(w->sites, &p);
}


static const char *name_of(const struct event *e)
{
	return e->display ? e->display : e->object;
}

static long long store_pair(struct writer *w, const struct event *data, const struct event *flag,
			    long long wc, long long rc)
{
	return findings_pair(w->tx, object_id(w, data), object_id(w, flag), wc, rc);
}

/* Has an earlier candidate of the same list the same plain access and the
 * same flag object?  (One finding per access and flag.)  Remembers it. */
static int seen_before(struct pairset *seen, const struct event *plain, const struct event *flag)
{
	if (pairset_get(seen, plain->gid, flag->oid) >= 0)
		return 1;
	pairset_put(seen, plain->gid, flag->oid, 1);
	return 0;
}

/* Is the pattern of DATA and FLAG (accesses of FN's candidate) on memory
 * shared with an agent outside the tree, both of them (external.c)?  Then
 * the side the tree lacks is that agent's, and the pattern is checked with
 * it assumed: the agent reads what the tree publishes, and publishes what
 * it reads, as the LKMM's other side would. */
static int assumed_other_side(const struct writer *w, const struct vocab *v, const struct function *fn,
			      const struct event *data, const struct event *flag)
{
	return w->external && external_memory(v, fn, flag) && external_memory(v, fn, data);
}

static void writer_findings(struct writer *w, const struct analysis *a, const struct vocab *v)
{
	struct pairset seen = { 0 };
	int n;
	const struct candidate *writers = analysis_writers(a, &n);

	for (int i = 0; i < n; i++) {
		const struct candidate *c = &writers[i];
		const struct link *cons;
		long long cid, pid;
		char *msg, *fix;
		unsigned facts;

		cid = store_candidate(w, "writer", c);
		if (seen_before(&seen, c->plain, c->marked) || under_common_lock(a, w->lock_cache, c->plain->oid) ||
		    unknown_target(c->plain) || restarts_a_count(a, c->marked) ||
		    seqlock_owns(&w->seq, c->fn, c->plain, c->marked->oid))
			continue;
		cons = find_consumer(a, c->fn, c->marked, c->plain, c->plain->access == ACC_READ);
		if (!cons && !assumed_other_side(w, v, c->fn, c->plain, c->marked))
			continue;       /* nothing reads the flag and then the data */
		msg = xasprintf("%s %s %s '%s' is not ordered before the %s of '%s' that publishes it",
				marking_word(c->plain), access_word(c->plain), c->plain->access == ACC_WRITE ? "to" : "of",
				name_of(c->plain), c->marked->access == ACC_RMW ? "atomic update" : "write",
				name_of(c->marked));
		fix = fix_for(v, c->marked, 1);
		if (!cons) {
			found(w, "missing-release", msg, c->plain, c->marked, c->fn, c->marked, fix, 0,
			      object_facts(a, c->plain, c->marked) | FACT_EXTERNAL |
			      tie_facts(c->fn, c->plain, c->marked, c->marked->oid, FACT_TIED_WRITER) | marked_data(c->plain),
			      2, (struct site_loc[]){ { "plain-access", c->plain }, { "publish", c->marked } });
			continue;
		}
		pid = store_pair(w, c->plain, c->marked, cid, 0);
		facts = object_facts(a, c->plain, c->marked) | pairing_facts(a, c->fn, cons->fn, cons, c->marked->oid) |
			tie_facts(c->fn, c->plain, c->marked, c->marked->oid, FACT_TIED_WRITER) |
			tie_facts(cons->fn, cons->plain, cons->marked, c->marked->oid, FACT_TIED_READER) |
			marked_data(c->plain);
		found(w, "missing-release", msg, c->plain, c->marked, c->fn, c->marked, fix, pid, facts, 4,
		      (struct site_loc[]){ { "plain-access", c->plain }, { "publish", c->marked },
					   { "consume", cons->marked }, { "racing-access", cons->plain } });
	}
	pairset_free(&seen);
}

static void reader_findings(struct writer *w, const struct analysis *a, const struct vocab *v)
{
	struct pairset seen = { 0 };
	int n, nproducers;
	const struct candidate *readers = analysis_readers(a, &n);
	const struct link *producers = analysis_links(a, LINK_PRODUCER, &nproducers);

	/* Reader candidates are stored as (marked read, plain access). */
	for (int i = 0; i < n; i++) {
		const struct candidate *c = &readers[i];
		const struct event *r = c->plain, *p = c->marked;
		const struct link *prod;
		long long cid, pid;
		char *msg, *fix;
		unsigned facts;

		cid = store_candidate(w, "reader", c);
		if (seen_before(&seen, p, r) || under_common_lock(a, w->lock_cache, p->oid) || unknown_target(p) ||
		    takes_a_ticket(a, r) || seqlock_owns(&w->seq, c->fn, p, r->oid))
			continue;
		prod = find_producer(a, c->fn, r, p, p->access == ACC_READ, analysis_range(a, c->range));
		if (!prod && !assumed_other_side(w, v, c->fn, p, r))
			continue;       /* nothing writes the data and then the flag */
		msg = xasprintf("%s %s %s '%s' is not ordered after the read of '%s' that guards it",
				marking_word(p), access_word(p), p->access == ACC_WRITE ? "to" : "of", name_of(p),
				name_of(r));
		fix = fix_for(v, r, 0);
		if (!prod) {
			found(w, "missing-acquire", msg, p, r, c->fn, r, fix, 0,
			      object_facts(a, p, r) | FACT_EXTERNAL | FACT_TESTED |
			      tie_facts(c->fn, p, r, r->oid, FACT_TIED_READER) | marked_data(p),
			      2, (struct site_loc[]){ { "plain-access", p }, { "consume", r } });
			continue;
		}
		pid = store_pair(w, p, r, 0, cid);
		/* A reader candidate's flag read is always tested (transfer.c's
		 * reader_check: only a guarded read leaves a candidate). */
		facts = object_facts(a, p, r) | pairing_facts(a, c->fn, prod->fn, NULL, -1) | FACT_TESTED |
			tie_facts(c->fn, p, r, r->oid, FACT_TIED_READER) |
			tie_facts(prod->fn, prod->plain, prod->marked, r->oid, FACT_TIED_WRITER) | marked_data(p) |
			(!dependency_orders(r) && (p->marked || p->via_marked_read) ? FACT_C11_DEPENDENCY : 0);
		found(w, "missing-acquire", msg, p, r, c->fn, r, fix, pid, facts, 4,
		      (struct site_loc[]){ { "plain-access", p }, { "consume", r },
					   { "publish", prod->marked }, { "racing-access", prod->plain } });

		/* The writer's fence has no partner on this reader. */
		for (int k = 0; k < nproducers; k++) {
			const struct link *l = &producers[k];
			int dup = 0;

			if (!l->fence || strcmp(l->plain->object, p->object) != 0 ||
			    strcmp(l->marked->object, r->object) != 0)
				continue;
			for (int q = 0; q < k; q++)
				if (producers[q].fence == l->fence && producers[q].marked == l->marked)
					dup = 1;
			if (dup)
				continue;
			msg = xasprintf("'%s' orders the write of '%s' before '%s', but the reader of '%s' in %s() has no read barrier or acquire to pair with it",
					l->fence->name ? l->fence->name : "barrier", name_of(l->plain),
					name_of(l->marked), name_of(r), c->fn->name);
			found(w, "unpaired-barrier", msg, l->plain, r, l->fn, r,
			      xstrdup(is_c11_atomic(r->name) ? "atomic_thread_fence(memory_order_acquire); /* after this read */"
						: "smp_rmb(); /* after this read */"), pid,
			      object_facts(a, l->plain, r) | pairing_facts(a, l->fn, c->fn, NULL, -1) | FACT_TESTED |
			      tie_facts(l->fn, l->plain, l->marked, r->oid, FACT_TIED_WRITER) |
			      tie_facts(c->fn, p, r, r->oid, FACT_TIED_READER), 4,
			      (struct site_loc[]){ { "barrier", l->fence }, { "publish", l->marked },
						   { "consume", r }, { "racing-access", p } });
			break;
		}
	}
	pairset_free(&seen);
}

/* A store that gives a lock word back without ordering the critical
 * section before it (lockword.c); the section is its callers', assumed. */
static void lock_word_findings(struct writer *w, const struct analysis *a, const struct vocab *v)
{
	struct lock_release *rel;
	int n = lock_word_releases(a, &rel);

	for (int i = 0; i < n; i++) {
		const struct event *store = rel[i].store->e, *take = rel[i].take->e;
		long long freed = 0;
		char *msg, *fix;

		event_constant(store, 0, &freed);
		msg = xasprintf("relaxed store of %lld to '%s' releases the lock that the compare-and-swap in %s() takes: "
				"the critical section before it is not ordered before it",
				freed, name_of(store), rel[i].take->fn->name);
		/* (a lock's give-back orders its section's reads too: no smp_wmb) */
		fix = fix_or(v, store, 1, "smp_mb(); /* before this store, or make it a release */");
		found(w, "missing-release", msg, store, store, rel[i].store->fn, store, fix, 0,
		      FACT_LOCK_WORD | (rel[i].held_test ? FACT_HELD_TEST : 0) |
			      (threads_started_together(a, rel[i].store->fn, rel[i].take->fn) ? FACT_THREADS : 0),
		      2, (struct site_loc[]){ { "publish", store }, { "consume", take } });
	}
	free(rel);
}

/* A plain read of D made before the read of F that would guard it, and
 * after none (but around a loop), while D is published through F: nothing
 * orders it after the write it races with. */
static void early_read_findings(struct writer *w, const struct analysis *a)
{
	int n, nconsumers;
	const struct link *early = analysis_links(a, LINK_EARLY, &n);
	const struct link *consumers = analysis_links(a, LINK_CONSUMER, &nconsumers);

	for (int i = 0; i < n; i++) {
		const struct link *l = &early[i];
		const struct link *prod;
		int guarded = 0, dup = 0;
		char *msg;

		for (int k = 0; k < i && !dup; k++)
			dup = early[k].plain == l->plain && early[k].marked->oid == l->marked->oid;
		/* Guarded by a read written before it; a read after it in the
		 * text reaches it only around a loop (the previous try). */
		for (int k = analysis_first(a, CONSUMERS_OF_PLAIN, l->plain->gid); k >= 0 && !guarded;
		     k = analysis_next(a, CONSUMERS_OF_PLAIN, k))
			guarded = strcmp(consumers[k].marked->file, l->plain->file) != 0 ||
				  consumers[k].marked->line < l->plain->line;
		if (dup || guarded || under_common_lock(a, w->lock_cache, l->plain->oid) ||
		    seqlock_owns(&w->seq, l->fn, l->plain, l->marked->oid))
			continue;
		prod = find_producer(a, l->fn, l->marked, l->plain, 1, NULL);
		if (!prod)
			continue;
		msg = xasprintf("plain read of '%s' is made before the read of '%s' that guards it: nothing orders it after the write it races with",
				name_of(l->plain), name_of(l->marked));
		found(w, "data-race", msg, l->plain, l->marked, l->fn, NULL, NULL, 0,
		      object_facts(a, l->plain, l->marked) | pairing_facts(a, l->fn, prod->fn, NULL, -1) |
		      tie_facts(l->fn, l->plain, l->marked, l->marked->oid, FACT_TIED_READER) |
		      tie_facts(prod->fn, prod->plain, prod->marked, l->marked->oid, FACT_TIED_WRITER), 4,
		      (struct site_loc[]){ { "plain-access", l->plain }, { "consume", l->marked },
					   { "publish", prod->marked }, { "racing-access", prod->plain } });
	}
}

/* A plain access of D after the write of F that publishes D, with no
 * handshake between: a reader that saw F accesses D at the same time. */
static void late_access_findings(struct writer *w, const struct analysis *a)
{
	int n;
	const struct link *late = analysis_links(a, LINK_LATE, &n);

	for (int i = 0; i < n; i++) {
		const struct link *l = &late[i];
		const struct link *cons;
		int dup = 0;
		char *msg;

		for (int k = 0; k < i && !dup; k++)
			dup = late[k].plain == l->plain;
		if (dup || under_common_lock(a, w->lock_cache, l->plain->oid) || unknown_target(l->plain) ||
		    seqlock_owns(&w->seq, l->fn, l->plain, l->marked->oid))
			continue;
		cons = find_consumer(a, l->fn, l->marked, l->plain, l->plain->access == ACC_READ);
		if (!cons)
			continue;
		msg = xasprintf("plain %s %s '%s' comes after the write of '%s' that publishes it: a reader that saw '%s' accesses it at the same time",
				access_word(l->plain), l->plain->access == ACC_WRITE ? "to" : "of", name_of(l->plain),
				name_of(l->marked), name_of(l->marked));
		found(w, "data-race", msg, l->plain, l->marked, l->fn, NULL, NULL, 0,
		      object_facts(a, l->plain, l->marked) | pairing_facts(a, l->fn, cons->fn, cons, l->marked->oid) |
		      tie_facts(l->fn, l->plain, l->marked, l->marked->oid, FACT_TIED_WRITER) |
		      tie_facts(cons->fn, cons->plain, cons->marked, l->marked->oid, FACT_TIED_READER), 4,
		      (struct site_loc[]){ { "plain-access", l->plain }, { "publish", l->marked },
					   { "consume", cons->marked }, { "racing-access", cons->plain } });
	}
}

/* A lock's object key as a person would name it: the USR's last part. */
static const char *lock_name(const char *key)
{
	const char *at = strrchr(key, '@');

	return at ? at + 1 : key;
}

/* Where R's access is made, as a message says it: "f()", or "f() called
 * from g()" when the record was made in a caller (whose locks it names).
 * The caller frees it. */
static char *where_made(const struct lock_record *r)
{
	const char *own = r->e->func ? r->e->func : r->fn->name;

	if (strcmp(own, r->fn->name) == 0)
		return xasprintf("%s()", own);
	return xasprintf("%s() called from %s()", own, r->fn->name);
}

static void lock_findings(struct writer *w, const struct analysis *a)
{
	/* Per record: does its access hold any lock?  Per object: at how
	 * many sites is it written holding one?  (Most objects never are:
	 * nothing to check.) */
	int nrecords;
	const struct lock_record *records = analysis_records(a, &nrecords);
	char *locked_rec = xcalloc(nrecords + 1, 1);
	int *locked_writes = xcalloc(analysis_objects(a) + 1, sizeof *locked_writes);
	struct hashmap counted = { 0 };    /* events counted in locked_writes */
	int *lw_first, *lw_next;

	for (int i = 0; i < nrecords; i++) {
		const struct lock_record *r = &records[i];
		int added = 0;

		if (r->complete && !r->e->marked && r->e->oid >= 0 && record_locked(a, r)) {
			locked_rec[i] = 1;
			if (r->e->access != ACC_READ) {
				hashmap_put(&counted, (uint64_t)r->e->gid, &added);
				locked_writes[r->e->oid] += added;
			}
		}
	}
	hashmap_free(&counted);
	/* The locked writes of each object, in the order of its records: the
	 * only ones the loop below can pick (walking every record of the
	 * object for each of its accesses was most of pairing's time on Open
	 * vSwitch).  lw_first per object, lw_next per record; -1 ends. */
	lw_first = xmalloc(((size_t)analysis_objects(a) + 1) * sizeof *lw_first);
	lw_next = xmalloc(((size_t)nrecords + 1) * sizeof *lw_next);
	for (int oid = 0; oid < analysis_objects(a); oid++) {
		int *tail = &lw_first[oid];

		for (int k = locked_writes[oid] ? analysis_first(a, PLAIN_RECORDS_OF_OBJECT, oid) : -1; k >= 0;
		     k = analysis_next(a, PLAIN_RECORDS_OF_OBJECT, k))
			if (locked_rec[k] && records[k].e->access != ACC_READ) {
				*tail = k;
				tail = &lw_next[k];
			}
		*tail = -1;
	}
	for (int i = 0; i < nrecords; i++) {
		const struct lock_record *acc = &records[i];
		const struct lock_record *locked = NULL;
		int skip = 0;
		char *msg;

		if (!acc->complete || acc->e->oid < 0 || acc->e->marked || !locked_writes[acc->e->oid])
			continue;
		/* One finding per access: only its first complete record. */
		skip = analysis_first_complete(a, acc->e->gid) != i;
		/* Made after an acquire of a flag: publication, not the lock,
		 * orders it (double-checked initialisation's fast path). */
		skip = skip || ordered_after_acquire(a, acc->e);
		if (skip)
			continue;
		/* A write of the same object under a lock this access lacks
		 * (lw_first: only locked writes). */
		for (int k = lw_first[acc->e->oid]; k >= 0 && !locked; k = lw_next[k]) {
			const struct lock_record *wr = &records[k];

			/* (the same access, or two accesses recorded in one root
			 * function, count only when two threads run it: main()
			 * calling start() and then stop_all() is one thread) */
			if ((wr->fn == acc->fn && !runs_concurrently_with_itself(a, wr->fn)) ||
			    (wr->fn != acc->fn && !may_run_concurrently(a, wr->fn, acc->fn)) ||
			    shares_a_lock(a, wr, acc) ||
			    (locked_rec[i] && other_instances(a, acc, wr)) || both_owned(a, wr->e, acc->e) ||
			    made_before_started(a, wr->e, acc->fn) || made_before_started(a, acc->e, wr->fn))
				continue;
			locked = wr;
		}
		if (!locked)
			continue;
		{
			char *where = where_made(acc), *other = where_made(locked);

			msg = xasprintf("plain %s %s '%s' in %s holds %s, but the %s in %s holds '%s': a data race",
					access_word(acc->e), acc->e->access == ACC_WRITE ? "to" : "of", name_of(acc->e),
					where, record_locked(a, acc) ? "other locks" : "no lock",
					access_word(locked->e), other, lock_name(effective_lock(a, locked, 0)));
			free(where);
			free(other);
		}
		found(w, "data-race", msg, acc->e, locked->e, acc->fn, NULL, NULL, 0,
		      object_facts(a, acc->e, NULL) | pairing_facts(a, acc->fn, locked->fn, NULL, -1) | FACT_LOCKSET |
		      (locked_writes[acc->e->oid] >= 2 ? FACT_LOCKED_WRITES : 0), 2,
		      (struct site_loc[]){ { "plain-access", acc->e }, { "racing-access", locked->e } });
	}
	free(locked_rec);
	free(locked_writes);
	free(lw_first);
	free(lw_next);
}

/* Does F write object OID itself (a plain write that F's own body or a
 * callee of it makes)?  Then a loop of F on the object counts its own
 * changes (while (n) n--): no wait for another thread. */
static int writes_itself(const struct analysis *a, const struct function *f, const char *func, int oid)
{
	int n;
	const struct lock_record *records = analysis_records(a, &n);

	for (int k = analysis_first(a, PLAIN_RECORDS_OF_OBJECT, oid); k >= 0; k = analysis_next(a, PLAIN_RECORDS_OF_OBJECT, k))
		if (records[k].e->access != ACC_READ &&
		    (records[k].fn == f || (records[k].e->func && strcmp(records[k].e->func, func) == 0)))
			return 1;
	return 0;
}

/* Can the plain read of record RD and the write of record WR run at the
 * same time in two threads, nothing keeping them apart: not one
 * function's, no lock both hold, not the owner's, and the write not made
 * before RD's thread exists? */
static int polled_write_races(const struct analysis *a, const struct lock_record *rd,
			      const struct lock_record *wr)
{
	return !wr->e->fresh_init && wr->fn != rd->fn && may_run_concurrently(a, wr->fn, rd->fn) &&
	       !shares_a_lock(a, wr, rd) && !both_owned(a, wr->e, rd->e) && !made_before_started(a, wr->e, rd->fn);
}

/* Finds the first marked write (or RMW) of polled read RD's object that
 * RD races with (polled_write_races): 1 with its record in *OUT, else 0.
 * The record is the write's complete one when its function is a thread's
 * entry (the locks held there); otherwise an empty one, to which
 * effective_lock adds the locks recorded around the write where its
 * function is called and holds them itself.  (A marked write made in a
 * callee of the thread that creates RD's, after the creation, is taken
 * for one made before it: created.c notes only the function's own
 * accesses and the plain ones it calls.  A race missed, not one made up.) */
static int polled_marked_writer(const struct analysis *a, const struct lock_record *records,
				const struct lock_record *rd, struct lock_record *out)
{
	int n;
	const struct marked_write *mw = analysis_marked_writes(a, rd->e->oid, &n);

	for (int k = 0; k < n; k++) {
		int own = analysis_first_complete(a, mw[k].e->gid);

		if (own >= 0 && records[own].fn == mw[k].fn)
			*out = records[own];
		else
			*out = (struct lock_record){ (struct event *)mw[k].e, (struct function *)mw[k].fn, NULL, 0, 0 };
		if (polled_write_races(a, rd, out))
			return 1;
	}
	return 0;
}

/* A plain flag: a plain read that a loop waits on (SINK_POLLED: while
 * (goflag == GOFLAG_INIT), while (!stop), while (CK_STACK_ISEMPTY(&s)))
 * in threads that run while another writes the object, plainly or marked
 * (WRITE_ONCE, a CAS), no lock keeping them apart.  Nothing makes the
 * loop see the write: the compiler may load the flag once and spin for
 * ever, or tear and fuse the accesses; the pair is a data race under C11
 * and the LKMM whatever flag orders the code around it, and the fix is to
 * mark the plain sides (READ_ONCE, WRITE_ONCE), not a barrier.  Reported
 * at the read and at each plain write it meets; a marked writer is named
 * at the read only when no plain one races with it (the read is the
 * defect then), and only for a variable (a global or static: the stop
 * and ready flags of while (ready), while (!stop)).  A field read in a
 * loop's condition is as often the bound of a walk (while (probes <
 * map->probe_maximum)), and a marked write reached through calls may be
 * made under a lock or a writer contract that the analysis knows at plain
 * accesses only (their callers' locks, effective_lock). */
static void polled_flag_findings(struct writer *w, const struct analysis *a)
{
	int nrecords;
	const struct lock_record *records = analysis_records(a, &nrecords);
	char *write_done = xcalloc(nrecords + 1, 1);

	for (int i = 0; i < nrecords; i++) {
		const struct lock_record *rd = &records[i];
		const char *func;
		int reported = 0;

		if (!rd->complete || rd->e->oid < 0 || rd->e->marked || rd->e->sink != SINK_POLLED || rd->e->fresh_init ||
		    analysis_first_complete(a, rd->e->gid) != i)
			continue;
		func = rd->e->func ? rd->e->func : rd->fn->name;
		if (writes_itself(a, rd->fn, func, rd->e->oid))
			continue;
		for (int k = analysis_first(a, PLAIN_RECORDS_OF_OBJECT, rd->e->oid); k >= 0;
		     k = analysis_next(a, PLAIN_RECORDS_OF_OBJECT, k)) {
			const struct lock_record *wr = &records[k];
			unsigned facts;
			char *msg;

			if (wr->e->access == ACC_READ || !polled_write_races(a, rd, wr))
				continue;
			facts = FACT_POLLED | pairing_facts(a, rd->fn, wr->fn, NULL, -1) |
				(is_named_variable(rd->e) ? FACT_VARIABLES : 0);
			if (!reported) {
				msg = xasprintf("plain read of '%s' is polled in a loop in %s() while %s() writes it plainly: "
						"a data race on a flag (the compiler may hoist, tear or fuse plain accesses); "
						"mark both with READ_ONCE/WRITE_ONCE",
						name_of(rd->e), func, wr->e->func ? wr->e->func : wr->fn->name);
				found(w, "data-race", msg, rd->e, wr->e, rd->fn, NULL, NULL, 0, facts, 2,
				      (struct site_loc[]){ { "plain-access", rd->e }, { "racing-access", wr->e } });
				reported = 1;
			}
			if (write_done[k] || analysis_first_complete(a, wr->e->gid) != k)
				continue;
			write_done[k] = 1;
			msg = xasprintf("plain write to '%s' in %s() is polled plainly by a loop in %s(): "
					"a data race on a flag (the compiler may hoist, tear or fuse plain accesses); "
					"mark both with WRITE_ONCE/READ_ONCE",
					name_of(wr->e), wr->e->func ? wr->e->func : wr->fn->name, func);
			found(w, "data-race", msg, wr->e, rd->e, wr->fn, NULL, NULL, 0, facts, 2,
			      (struct site_loc[]){ { "plain-access", wr->e }, { "racing-access", rd->e } });
		}
		if (!reported && is_named_variable(rd->e)) {
			struct lock_record mw;
			unsigned facts;
			char *msg;

			if (!polled_marked_writer(a, records, rd, &mw))
				continue;
			facts = FACT_POLLED | FACT_VARIABLES | pairing_facts(a, rd->fn, mw.fn, NULL, -1);
			msg = xasprintf("plain read of '%s' is polled in a loop in %s() while %s() writes it with a marked %s: "
					"a data race on a flag (the compiler may hoist, tear or fuse the plain read); "
					"mark it with READ_ONCE",
					name_of(rd->e), func, mw.e->func ? mw.e->func : mw.fn->name,
					mw.e->access == ACC_RMW ? "update" : "write");
			found(w, "data-race", msg, rd->e, mw.e, rd->fn, NULL, NULL, 0, facts, 2,
			      (struct site_loc[]){ { "plain-access", rd->e }, { "racing-access", mw.e } });
		}
	}
	free(write_done);
}

/* Is E a plain access of an object declared volatile in code that uses
 * C11 atomics ("!volatile", extract_model.c)? */
static int c11_volatile(const struct event *e)
{
	return dep_list_has(&e->conds, DEP_ADDRESS, DEP_VOLATILE);
}

/* Volatile under C11: an object that C11 code (its TU declares _Atomic
 * objects) declares volatile instead, accessed where a write of it runs
 * in another thread at the same time, nothing keeping them apart
 * (polled_write_races).  The declaration says the authors know the object
 * is shared; C11 makes no volatile access atomic, so the pair is a data
 * race (mimalloc's volatile hook pointers, fixed by making them atomics).
 * Reported at every access that meets such a write (a write at every one
 * that meets another access), with that access as its other location. */
static void c11_volatile_findings(struct writer *w, const struct analysis *a)
{
	int nrecords;
	const struct lock_record *records = analysis_records(a, &nrecords);

	for (int i = 0; i < nrecords; i++) {
		const struct lock_record *acc = &records[i];
		const char *func;

		if (!acc->complete || acc->e->oid < 0 || acc->e->marked || acc->e->fresh_init ||
		    !c11_volatile(acc->e) || analysis_first_complete(a, acc->e->gid) != i)
			continue;
		func = acc->e->func ? acc->e->func : acc->fn->name;
		for (int k = analysis_first(a, PLAIN_RECORDS_OF_OBJECT, acc->e->oid); k >= 0;
		     k = analysis_next(a, PLAIN_RECORDS_OF_OBJECT, k)) {
			const struct lock_record *wr = &records[k];
			unsigned facts;
			char *msg;

			/* (a write meets another write, or a read: then the read
			 * is the one polled_write_races reads) */
			if (wr->e->gid == acc->e->gid ||
			    (wr->e->access != ACC_READ ? !polled_write_races(a, acc, wr)
			     : acc->e->access == ACC_READ || !polled_write_races(a, wr, acc)))
				continue;
			facts = FACT_C11_VOLATILE | pairing_facts(a, acc->fn, wr->fn, NULL, -1) |
				(is_named_variable(acc->e) ? FACT_VARIABLES : 0);
			msg = xasprintf("plain %s %s '%s' in %s() may run while %s() %s it: it is declared volatile, "
					"which C11 does not make atomic, in code that uses C11 atomics: a data race; "
					"make it _Atomic",
					access_word(acc->e), acc->e->access == ACC_WRITE ? "to" : "of", name_of(acc->e), func,
					wr->e->func ? wr->e->func : wr->fn->name, wr->e->access == ACC_READ ? "reads" : "writes");
			found(w, "data-race", msg, acc->e, wr->e, acc->fn, NULL, NULL, 0, facts, 2,
			      (struct site_loc[]){ { "plain-access", acc->e }, { "racing-access", wr->e } });
			break;
		}
	}
}

/* Plain updates that two threads can make at once, no lock held
 * (lostupdate.c): a lost update, reported at each update with one it
 * races with. */
static void lost_update_findings(struct writer *w, const struct analysis *a)
{
	static const char *const lost = "one of two updates can be lost";
	static const char *const both = "both can read the old value and act on it (a test-and-set made of plain accesses)";
	struct lost_update *lu;
	int n = lost_updates(a, &lu);

	for (int i = 0; i < n; i++) {
		const struct lock_record *site = lu[i].site, *other = lu[i].other;
		/* (a test-and-set races with the other thread's test as much as
		 * with its write: the test is shown, where the harm starts) */
		const struct event *racing = lu[i].read ? lu[i].read : other->e;
		char *where = where_made(site), *there = where_made(other), *msg;
		const char *what = lu[i].read ? "write" : "read-modify-write";
		unsigned facts = FACT_LOST_UPDATE | pairing_facts(a, site->fn, other->fn, NULL, -1) |
				 (is_named_variable(site->e) ? FACT_VARIABLES : 0);

		if (site == other)
			msg = xasprintf("plain %s of '%s' in %s may run in two threads at once, no lock held: "
					"%s; make it atomic or take a lock",
					what, name_of(site->e), where, lu[i].read ? both : lost);
		else
			msg = xasprintf("plain %s of '%s' in %s may run while %s updates it, no lock held: "
					"%s; make it atomic or take a lock",
					what, name_of(site->e), where, there, lu[i].read ? both : lost);
		free(where);
		free(there);
		found(w, "data-race", msg, site->e, racing, site->fn, NULL, NULL, 0, facts, 2,
		      (struct site_loc[]){ { "plain-access", site->e }, { "racing-access", racing } });
	}
	free(lu);
}

/* Store buffering (storebuffer.c): reported at each side's store, the
 * crosswise side as its counterpart. */
static void store_buffering_findings(struct writer *w, const struct analysis *a)
{
	struct store_buffering *sb;
	int n = store_bufferings(a, &sb);

	for (int i = 0; i < n; i++) {
		const struct sb_side *x = &sb[i].site, *y = &sb[i].other;
		unsigned facts = FACT_STORE_BUFFERING | pairing_facts(a, x->fn, y->fn, NULL, -1) |
				 (is_named_variable(x->store) && is_named_variable(x->load) ? FACT_VARIABLES : 0);
		char *msg = y->ordered
			? xasprintf("the store to '%s' is not ordered before the load of '%s' in %s(), while %s() stores "
				    "'%s' and then loads '%s': the full barrier on that side alone does not keep both "
				    "loads from missing the other thread's store (store buffering)",
				    name_of(x->store), name_of(x->load), x->fn->name, y->fn->name, name_of(y->store),
				    name_of(y->load))
			: xasprintf("the store to '%s' is not ordered before the load of '%s' in %s(), nor the store "
				    "to '%s' before the load of '%s' in %s(): both loads can miss the other "
				    "thread's store (store buffering); only a full barrier orders a store before a load",
				    name_of(x->store), name_of(x->load), x->fn->name, name_of(y->store),
				    name_of(y->load), y->fn->name);

		found(w, "missing-full-barrier", msg, x->store, x->load, x->fn, x->store,
		      xstrdup(is_c11_atomic(x->store->name) || is_c11_atomic(x->load->name)
				      ? "atomic_thread_fence(memory_order_seq_cst); /* after this store, before the load */"
				      : "smp_mb(); /* after this store, before the load */"),
		      0, facts, 4,
		      (struct site_loc[]){ { "store", x->store }, { "load", x->load }, { "other-store", y->store },
					   { "other-load", y->load } });
	}
	free(sb);
}

/* Sequence locks (seqlock.c): what a read section or an update lacks,
 * reported at its data access (or at a plain write of the sequence), with
 * the other side's access of the same data as its counterpart. */
static void seqlock_findings(struct writer *w, const struct analysis *a, const struct vocab *v)
{
	struct seq_fault_site *sf;
	int n = seqlock_faults(a, &w->seq, &sf);

	for (int i = 0; i < n; i++) {
		const struct seq_fault_site *q = &sf[i];
		const struct seq_section *c = q->sec;
		const struct seq_update *u = q->upd;
		int c11 = is_c11_atomic(c->begin.access->name) || is_c11_atomic(u->open.access->name);
		unsigned facts = FACT_SEQLOCK | pairing_facts(a, u->fn, c->fn, NULL, -1) |
				 object_facts(a, q->site, c->begin.access) | marked_data(q->site);
		const char *how = q->site->marked ? "marked (relaxed)" : "plain";
		char *msg;

		switch (q->fault) {
		case SEQ_READ_BEFORE_BEGIN:
			msg = xasprintf("%s read of '%s' is not ordered after the read of '%s' that begins the read section "
					"in %s(): it can see %s()'s new data while the sequence it validates is the old one",
					how, name_of(q->site), name_of(c->begin.access), c->fn->name, u->fn->name);
			found(w, "missing-acquire", msg, q->site, c->begin.access, c->fn, c->begin.access,
			      fix_for(v, c->begin.access, 0), 0, facts, 4,
			      (struct site_loc[]){ { "plain-access", q->site }, { "consume", c->begin.access },
						   { "publish", u->open.access }, { "racing-access", q->other } });
			break;
		case SEQ_READ_AFTER_CHECK:
			msg = xasprintf("%s read of '%s' is not ordered before the re-read of '%s' that validates the read "
					"section in %s(): the re-read can return the old sequence although this read saw "
					"%s()'s new data (an acquire on the re-read orders only what comes after it)",
					how, name_of(q->site), name_of(c->check.access), c->fn->name, u->fn->name);
			found(w, "missing-acquire", msg, q->site, c->check.access, c->fn, c->check.access,
			      xstrdup(c11 ? "atomic_thread_fence(memory_order_acquire); /* before this re-read */"
					  : "smp_rmb(); /* before this re-read */"),
			      0, facts, 4,
			      (struct site_loc[]){ { "plain-access", q->site }, { "consume", c->check.access },
						   { "publish", u->close.access }, { "racing-access", q->other } });
			break;
		case SEQ_WRITE_BEFORE_OPEN:
			msg = xasprintf("%s write to '%s' is not ordered after the write of '%s' that opens the update in "
					"%s(): a reader can see the new data with the old sequence and accept it (a release "
					"orders only what comes before it)",
					how, name_of(q->site), name_of(u->open.access), u->fn->name);
			found(w, "missing-release", msg, q->site, u->open.access, u->fn, u->open.access,
			      xstrdup(c11 ? "atomic_thread_fence(memory_order_release); /* after this write */"
					  : "smp_wmb(); /* after this write */"),
			      0, facts, 4,
			      (struct site_loc[]){ { "plain-access", q->site }, { "publish", u->open.access },
						   { "consume", c->begin.access }, { "racing-access", q->other } });
			break;
		case SEQ_WRITE_AFTER_CLOSE:
			msg = xasprintf("%s write to '%s' is not ordered before the write of '%s' that closes the update in "
					"%s(): a reader can see the new sequence before the new data",
					how, name_of(q->site), name_of(u->close.access), u->fn->name);
			found(w, "missing-release", msg, q->site, u->close.access, u->fn, u->close.access,
			      fix_for(v, u->close.access, 1), 0, facts, 4,
			      (struct site_loc[]){ { "plain-access", q->site }, { "publish", u->close.access },
						   { "consume", c->check.access }, { "racing-access", q->other } });
			break;
		case SEQ_PLAIN_SEQUENCE:
			msg = xasprintf("plain write to the sequence '%s' in %s() races with its marked reads in %s(): the "
					"compiler may tear it or merge the two writes; mark it (WRITE_ONCE, or an atomic "
					"increment)",
					name_of(q->site), u->fn->name, c->fn->name);
			found(w, "data-race", msg, q->site, c->begin.access, u->fn, NULL, NULL, 0, facts, 2,
			      (struct site_loc[]){ { "plain-access", q->site }, { "racing-access", c->begin.access } });
			break;
		case SEQ_PLAIN_DATA:
			msg = xasprintf("plain %s %s '%s' in %s() races with the %s %s in %s(): the read section of '%s' "
					"throws a torn value away, but the accesses are a data race all the same (LKMM, "
					"C11); mark %s (READ_ONCE/WRITE_ONCE, or relaxed atomics)",
					access_word(q->site), q->site->access == ACC_READ ? "of" : "to", name_of(q->site),
					q->site->access == ACC_READ ? c->fn->name : u->fn->name,
					q->other->marked ? "marked" : "plain", access_word(q->other),
					q->site->access == ACC_READ ? u->fn->name : c->fn->name, name_of(c->begin.access),
					q->other->marked ? "it" : "both");
			found(w, "data-race", msg, q->site, c->begin.access, q->site->access == ACC_READ ? c->fn : u->fn, NULL,
			      NULL, 0, facts | FACT_DISCARDED, 2,
			      (struct site_loc[]){ { "plain-access", q->site }, { "racing-access", q->other } });
			break;
		}
	}
	free(sf);
}

int pairing_store(sqlite3 *db, const struct analysis *a, const struct vocab *vocab,
		  const char *root, long long scan_id, struct finding_counts *counts,
		  char *err, size_t errlen)
{
	struct writer w = { .a = a, .sites = sites_new(), .external = vocab_declares_external(vocab) };
	int rc;

	memset(counts, 0, sizeof *counts);
	if (!(w.tx = findings_begin(db, err, errlen))) {
		sites_free(w.sites);
		return -1;
	}
	w.lock_cache = xmalloc((size_t)analysis_objects(a) + 1);
	memset(w.lock_cache, -1, (size_t)analysis_objects(a) + 1);
	w.rows = xcalloc((size_t)analysis_objects(a) + 1, sizeof *w.rows);
	seqlocks_find(a, &w.seq);
	seqlock_findings(&w, a, vocab);
	writer_findings(&w, a, vocab);
	reader_findings(&w, a, vocab);
	lock_findings(&w, a);
	lock_word_findings(&w, a, vocab);
	polled_flag_findings(&w, a);
	c11_volatile_findings(&w, a);
	lost_update_findings(&w, a);
	store_buffering_findings(&w, a);
	early_read_findings(&w, a);
	late_access_findings(&w, a);
	sites_store(w.sites, a, w.tx, root, scan_id, counts);
	rc = findings_commit(w.tx, err, errlen);
	sites_free(w.sites);
	free(w.lock_cache);
	free(w.rows);
	seqlocks_free(&w.seq);
	links_forget();
	locksets_forget();
	return rc;
}
