/* analyzer/findings/lostupdate.c — plain updates that two threads can make
 * at once with no lock held: lost updates (issue 12, shape 5).
 *
 * A plain read-modify-write (s->calls++, n += k) or a plain write made
 * after the same function read the object (if (available) ... available
 * = false; the test-and-set of a one-way latch) is two accesses: two
 * threads running it at once can both read the old value, and one of the
 * writes is lost (or both threads take the branch the test was meant to
 * let one take).  Under C11 and the LKMM the pair is a data race whatever
 * the values; the fix is an atomic RMW (or a marked test-and-set), or a
 * lock.  No flag is involved, so the pattern needs no publication: what
 * it needs is evidence that the object is shared, and that the two
 * updates can meet:
 *
 *  - the object is shared: a named variable (a global, or a function's
 *    static: every thread that runs the function sees the same one), or a
 *    field of a struct type some field of which the tree accesses with a
 *    marked access (READ_ONCE, an atomic), or that has an atomic member
 *    (declared _Atomic or volatile, or a wrapper of one: DPDK's array of
 *    per-lcore rte_atomic16_t flags in an adapter's struct): its authors
 *    know instances of it are touched by several threads at once.  A
 *    member struct with an atomic somewhere inside, beside other fields,
 *    says so of itself only (a driver's device embeds its generic part).
 *    A field of a struct the tree never marks is as often memory its
 *    caller owns (one object for every instance, to the analysis): no
 *    finding;
 *  - no lock: neither update holds one, by itself or through its callers,
 *    and no access of the object anywhere holds one (an object some
 *    access locks is the lockset rule's, inconsistent locking:
 *    pairing.c);
 *  - they can meet: two activations of one root (a thread started in a
 *    loop, a library entry point any thread may call), or two roots that
 *    may run together; not both through memory their activations own,
 *    and neither made before the other's thread exists;
 *  - when no thread the tree starts makes them (only library entry
 *    points, callbacks, handlers, which the analysis assumes any thread
 *    may call), the code is written for threads: the update's own
 *    function, or the entry point through which each of the two is made,
 *    synchronises somewhere in its own body (a marked access, a barrier,
 *    a lock).  A library's command-line parser, a test's helper or a
 *    single-threaded module synchronises nothing, and its entry points
 *    run in one thread by contract (getopt's statics, a test parser's
 *    cursor): no finding;
 *  - not after a claim: an update that its function makes after an
 *    exchange, compare-and-swap or test-and-set (its own, or one a
 *    function it calls makes: while (xchg(&l, 1)) ...) is made in a
 *    section that RMW made exclusive, a lock the tree builds itself or an
 *    item it claimed, which the analysis cannot name (without an acquire
 *    the section's accesses are unordered: the other rules' finding).
 *    Not a claim of one element of an array picked by an index
 *    (test_and_set(&in_use[lcore])): threads that claimed two elements
 *    still meet on what else the section updates;
 *  - a write after a read is taken for one update only on a named
 *    variable (if (!warned) { warned = 1; ... }), and only an assignment
 *    of the program's own: a library's bulk write (memcpy(msg, s, n),
 *    memset) fills the object anew, and the "read" before it is often
 *    the array's name decaying to its address.  On a field it is most
 *    often a link of a structure its caller keeps to itself (prev->next =
 *    node after reading prev->next): no finding;
 *  - an element picked by an index (counts[cpu]++, st[i].n) is no single
 *    object to the analysis (all elements are one), and is most often a
 *    thread's own slot: no finding. */
#include "lostupdate.h"
#include "evidence.h"
#include "analyzer/model/hashmap.h"

#include <stdlib.h>
#include <string.h>

/* What an access is to this rule (per gid). */
enum { NO_UPDATE, RMW, SPLIT, DONE };

/* The struct part of field object KEY (evidence.h: struct_of) as a new
 * string, or NULL for no field. */
static char *struct_part(const char *key)
{
	size_t n;
	const char *k = struct_of(key, &n);
	char *s;

	if (!k)
		return NULL;
	s = xmalloc(n + 1);
	memcpy(s, k, n);
	s[n] = '\0';
	return s;
}

/* Is E a plain access of an object, made by its function's own body? */
static int own_plain_access(const struct event *e)
{
	return e->kind == EV_ACCESS && !e->marked && !e->orig && e->oid >= 0;
}

/* The struct parts of the fields the tree accesses marked somewhere: a
 * map borrows its string keys, so they are kept here until it goes. */
struct marked_structs {
	struct hashmap map;
	char **parts;
	int n, cap;
};

static void find_marked_structs(const struct function *fns, int nfns, struct marked_structs *ms)
{
	for (int g = 0; g < nfns; g++)
		for (int b = 0; b < fns[g].nblocks; b++)
			for (int i = 0; i < fns[g].blocks[b].nevents; i++) {
				const struct event *e = &fns[g].blocks[b].events[i];
				char *part;

				if (e->kind != EV_ACCESS || !e->marked || !(part = struct_part(e->object)))
					continue;
				if (hashmap_get_str(&ms->map, part)) {
					free(part);
					continue;
				}
				grow(&ms->parts, &ms->cap, ms->n + 1, sizeof *ms->parts);
				ms->parts[ms->n++] = part;
				hashmap_put_str(&ms->map, part, NULL);
			}
}

static void free_marked_structs(struct marked_structs *ms)
{
	hashmap_free(&ms->map);
	for (int i = 0; i < ms->n; i++)
		free(ms->parts[i]);
	free(ms->parts);
}

/* Is E's object shared by the threads that reach it (see the top)? */
static int shared_object(const struct event *e, const struct marked_structs *ms)
{
	char *part;
	int shared;

	if (picked_by_index(e))
		return 0;
	if (is_named_variable(e) || dep_list_has(&e->conds, DEP_ADDRESS, DEP_SHARED_TYPE))
		return 1;
	if (!(part = struct_part(e->object)))
		return 0;
	shared = hashmap_get_str(&ms->map, part) != NULL;
	free(part);
	return shared;
}

/* Is E a claim: a marked exchange, compare-and-swap or test-and-set?
 * Whatever its order, only one thread wins it: what follows is exclusive
 * (the order it lacks is the other rules' to report). */
static int is_claim(const struct event *e)
{
	return e->kind == EV_ACCESS && e->marked && e->access == ACC_RMW && !counting_rmw(e);
}

/* Fills CLAIMERS with the link key of every function whose own body
 * makes a claim. */
static void find_claimers(const struct function *fns, int nfns, struct hashmap *claimers)
{
	for (int g = 0; g < nfns; g++)
		for (int b = 0; b < fns[g].nblocks; b++)
			for (int i = 0; i < fns[g].blocks[b].nevents; i++)
				if (is_claim(&fns[g].blocks[b].events[i]) && fns[g].link_key) {
					hashmap_put_str(claimers, fns[g].link_key, NULL);
					break;
				}
}

/* Is C a claim of one element of an array picked by an index (its own
 * access spells it, or a call is handed its address: "#N=!indexed")?  It
 * makes that element exclusive, not what else the section updates: two
 * threads that claimed two elements (each lcore its in_use[lcore] flag)
 * still meet on a counter they share. */
static int claims_an_element(const struct event *c)
{
	return c->kind == EV_CALL ? dep_list_has(&c->deps, DEP_ARGUMENT, DEP_INDEXED) : picked_by_index(c);
}

/* Is the event at (B, K) of F made after a claim of F's own, or after a
 * call of a function that makes one (CLAIMERS), that is no claim of one
 * element? */
static int after_a_claim(const struct function *f, int b, int k, const struct hashmap *claimers)
{
	for (int cb = 0; cb < f->nblocks; cb++)
		for (int ci = 0; ci < f->blocks[cb].nevents; ci++) {
			const struct event *c = &f->blocks[cb].events[ci];

			if ((is_claim(c) || (c->kind == EV_CALL && c->target && hashmap_get_str(claimers, c->target))) &&
			    !claims_an_element(c) && event_reaches(f, cb, ci, b, k))
				return 1;
		}
	return 0;
}

/* The plain read of its object by F's own body that the write at (B, K)
 * of F is made after, on a path from it (the first such), or NULL. */
static const struct event *read_before(const struct function *f, int b, int k)
{
	const struct event *w = &f->blocks[b].events[k];

	for (int rb = 0; rb < f->nblocks; rb++)
		for (int ri = 0; ri < f->blocks[rb].nevents; ri++) {
			const struct event *r = &f->blocks[rb].events[ri];

			if (own_plain_access(r) && r->access == ACC_READ && r->oid == w->oid &&
			    event_reaches(f, rb, ri, b, k))
				return r;
		}
	return NULL;
}

/* Does F's own body synchronise (dataflow.h: synchronises)? */
static int synchronising(const struct function *f)
{
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++)
			if (synchronises(&f->blocks[b].events[i]))
				return 1;
	return 0;
}

/* Can the updates of records X and Y (one object) run at the same time?
 * (X_SYNC, Y_SYNC: the update's own function or the record's entry point
 * synchronises.) */
static int updates_meet(const struct analysis *a, const struct lock_record *x, const struct lock_record *y,
			int x_sync, int y_sync)
{
	if (!run_together(a, x->fn, y->fn) || both_owned(a, x->e, y->e) || made_before_started(a, x->e, y->fn) ||
	    made_before_started(a, y->e, x->fn))
		return 0;
	return threads_started_together(a, x->fn, y->fn) || (x_sync && y_sync);
}

int lost_updates(const struct analysis *a, struct lost_update **out)
{
	int nfns, nrecords, n = 0, nobjects = analysis_objects(a);
	const struct function *fns = analysis_functions(a, &nfns);
	const struct lock_record *records = analysis_records(a, &nrecords);
	struct marked_structs marked_structs;
	struct hashmap claimers = { 0 };
	/* per event (gid): what update it is (or DONE, reported); per
	 * object: some access holds a lock */
	unsigned char *update = NULL, *locked = xcalloc((size_t)nobjects + 1, 1);
	const struct event **read_of;     /* per gid: a SPLIT update's read */
	unsigned char *sync, *own_sync;   /* per function; per gid: its own function's */
	unsigned char *rec_sync;          /* per record: its update's or entry point's */
	int maxgid = 0, cap = 0, *upd_first, *upd_next;

	*out = NULL;
	for (int i = 0; i < nrecords; i++) {
		if (records[i].e->oid >= 0 && !records[i].e->marked && record_locked(a, &records[i]))
			locked[records[i].e->oid] = 1;
		if (records[i].e->gid > maxgid)
			maxgid = records[i].e->gid;
	}
	memset(&marked_structs, 0, sizeof marked_structs);
	find_marked_structs(fns, nfns, &marked_structs);
	find_claimers(fns, nfns, &claimers);
	update = xcalloc((size_t)maxgid + 2, 1);
	own_sync = xcalloc((size_t)maxgid + 2, 1);
	sync = xcalloc((size_t)nfns + 1, 1);
	for (int g = 0; g < nfns; g++)
		sync[g] = (unsigned char)synchronising(&fns[g]);
	read_of = xcalloc((size_t)maxgid + 2, sizeof *read_of);
	for (int g = 0; g < nfns; g++)
		for (int b = 0; b < fns[g].nblocks; b++)
			for (int k = 0; k < fns[g].blocks[b].nevents; k++) {
				const struct event *e = &fns[g].blocks[b].events[k];

				if (!own_plain_access(e) || e->access == ACC_READ || e->gid < 0 || e->gid > maxgid ||
				    e->fresh_init || e->thread_private || locked[e->oid] ||
				    !shared_object(e, &marked_structs))
					continue;
				if (after_a_claim(&fns[g], b, k, &claimers))
					continue;
				own_sync[e->gid] = (unsigned char)sync[g];
				if (e->access == ACC_RMW)
					update[e->gid] = RMW;
				else if (is_named_variable(e) && !e->name && (read_of[e->gid] = read_before(&fns[g], b, k)))
					update[e->gid] = SPLIT;
			}
	free_marked_structs(&marked_structs);
	hashmap_free(&claimers);
	/* The unlocked complete records of updates, listed per object
	 * (upd_first per object, upd_next per record; -1 ends). */
	upd_first = xmalloc(((size_t)nobjects + 1) * sizeof *upd_first);
	upd_next = xmalloc(((size_t)nrecords + 1) * sizeof *upd_next);
	rec_sync = xcalloc((size_t)nrecords + 1, 1);
	for (int o = 0; o <= nobjects; o++)
		upd_first[o] = -1;
	for (int i = nrecords - 1; i >= 0; i--) {
		const struct lock_record *r = &records[i];

		upd_next[i] = -1;
		if (!r->complete || r->e->oid < 0 || !update[r->e->gid] || record_locked(a, r))
			continue;
		upd_next[i] = upd_first[r->e->oid];
		upd_first[r->e->oid] = i;
		rec_sync[i] = own_sync[r->e->gid] || sync[r->fn - fns];
	}
	for (int o = 0; o < nobjects; o++) {
		for (int i = upd_first[o]; i >= 0; i = upd_next[i]) {
			int other = -1;

			/* (one finding per access: its first record that meets
			 * another update) */
			if (update[records[i].e->gid] == DONE)
				continue;
			for (int j = upd_first[o]; j >= 0 && other < 0; j = upd_next[j])
				if (updates_meet(a, &records[i], &records[j], rec_sync[i], rec_sync[j]))
					other = j;
			if (other < 0)
				continue;
			grow(out, &cap, n + 1, sizeof **out);
			(*out)[n++] = (struct lost_update){ &records[i], &records[other], read_of[records[i].e->gid] };
			update[records[i].e->gid] = DONE;
		}
	}
	free(update);
	free(read_of);
	free(own_sync);
	free(sync);
	free(locked);
	free(upd_first);
	free(upd_next);
	free(rec_sync);
	return n;
}
