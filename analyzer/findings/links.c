/* analyzer/findings/links.c — the search for the other side of a pattern
 * (links.h): who reads a flag and then accesses the data (a consumer), or
 * accesses the data and then writes the flag (a producer), directly or
 * through relays, with the precision rules a link must pass. */
#include "links.h"
#include "locksets.h"
#include "evidence.h"

#include <stdlib.h>
#include <string.h>

/* (A pattern found in F pairs with a link found in G, or passes through a
 * relay found in G, only when F and G run together: dataflow.h.) */

/* The first link of SORTED (links indexed by flag and data object) on
 * (FLAG, DATA) that OK accepts. */
static const struct link *first_link(const struct analysis *a, const struct link *links, const int *sorted,
				     int n, int flag, int data,
				     int (*ok)(const struct analysis *, const struct link *, const void *),
				     const void *arg)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		const struct link *l = &links[sorted[mid]];

		if (l->marked->oid < flag || (l->marked->oid == flag && l->plain->oid < data))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n; lo++) {
		const struct link *l = &links[sorted[lo]];

		if (l->marked->oid != flag || l->plain->oid != data)
			break;
		if (ok(a, l, arg))
			return l;
	}
	return NULL;
}

struct link_want {
	const struct function *fn;      /* the candidate's function */
	const struct event *other;      /* its marked access (critical sections) */
	int need_write;
	int consumer;                   /* looking for a reader (takes_a_ticket) */
	const struct event *plain;      /* its plain access (always_under_one_lock) */
	const struct function *relay;   /* the function of the last relay the
					   search passed through, or NULL */
	const struct vrange *range;     /* looking for a writer: the values of
					   the reader's flag read on which its
					   access runs, or NULL for all */
};

/* Can write M of flag F publish to a reader whose access runs only when
 * its read of F returned a value in RANGE?  Not when M stores a constant
 * outside it: a reader that read M's value goes nowhere near the data
 * (mp_fd = -1 closes a channel that its loop reads only while mp_fd >= 0;
 * a lock word's CAS to 1 tells nothing to a CAS that waits for 0), and
 * one that goes there read another write.  (The flag's own write only: a
 * relay's flag is another object.) */
static int value_reaches(const struct event *m, const struct vrange *range)
{
	long long v;

	return !range || !event_constant(m, 0, &v) || vrange_allows(range, v);
}

/* Does link L, found for W, carry W's write to W's reader (or W's reader
 * from L's write) as far as the values go (value_reaches)? */
static int values_meet(const struct analysis *a, const struct link *l, const struct link_want *w)
{
	if (w->relay || !w->other || l->marked->oid != w->other->oid)
		return 1;
	return w->consumer ? value_reaches(w->other, analysis_range(a, l->range)) : value_reaches(l->marked, w->range);
}

/* Does producer link L need nothing of the reader W looks for?  Not
 * LINK_OPEN_TO_READERS: L is an initialisation that the write handing its
 * memory on orders (a release, a full barrier or a write fence between
 * them).  A reader reaches that memory only through the pointer stored
 * there, and following a pointer loaded by a marked read (rcu_dereference,
 * a lookup's chain of marked loads, in this function or a caller) is an
 * address dependency, which the LKMM orders after the write: the reader
 * sees the initialisation whatever flag it tested.  Unless it found the
 * memory by plain pointer loads of its own, a plain walk of the list,
 * which the LKMM does not order (ck_stack's CK_STACK_FIRST and
 * CK_STACK_NEXT), or by a C11 relaxed load, whose dependency orders
 * nothing (dependency_orders).  (Worked out last: reached_by_plain_loads
 * walks the reader's function.) */
static int seen_through_the_pointer(const struct link *l, const struct link_want *w)
{
	return !w->consumer && !(l->how & LINK_OPEN_TO_READERS) && w->plain && dependency_orders(w->other) &&
	       !reached_by_plain_loads(w->fn, w->plain);
}

/* Does consumer link L's access run on the value its flag read returned:
 * only when the read's value is tested (a branch or a wait loop on it,
 * here or in a callee whose result is tested) or the access is reached
 * through the pointer read?  A reader that reads a flag and then accesses
 * D whatever the value was learns nothing about the writer from it: its
 * read may return the old value as well as the new, so no missing release
 * on the writer's side can break what it does.  Such an access is still
 * ordered after an acquire (the link is kept for ordered_after_acquire),
 * but it pairs with no publication: a reference count's decrement
 * followed by a list operation that runs either way, a counter bumped on
 * the way (perfbook's hash_exists_alloc and pdeq_pop_l), are no
 * handshake.  (Not seen: a value read into a local, the data read
 * unconditionally and used only when the local is set;
 * W25 of docs/limitations.md.) */
static int learns_from_the_flag(const struct link *l)
{
	return (l->how & (LINK_TESTED | LINK_THROUGH_POINTER)) != 0;
}

/* Is the writer's plain access of the pair L and W make (a producer
 * link's, or the writer candidate's when W looks for a consumer) made
 * before the other side's threads exist (made_before_started)? */
static int made_apart(const struct analysis *a, const struct link *l, const struct link_want *w)
{
	if (w->consumer)
		return w->plain && made_before_started(a, w->plain, l->fn);
	return made_before_started(a, l->plain, w->fn);
}

/* Do link L and the candidate W looks for agree on the marking of the
 * data?  Links whose data access is marked (issue 12, shape 1) pair only
 * with marked data candidates: a plain access's rules (early reads, late
 * accesses, a plain store's missing release) keep to plain links, as
 * before marked data was followed. */
static int same_marking(const struct link *l, const struct link_want *w)
{
	return !w->plain || !l->plain->marked == !w->plain->marked;
}

static int acceptable(const struct analysis *a, const struct link *l, const void *arg)
{
	const struct link_want *w = arg;

	return same_marking(l, w) && run_together(a, w->fn, l->fn) && (!w->relay || run_together(a, w->relay, l->fn)) &&
	       !made_apart(a, l, w) &&
	       (!w->need_write || l->plain->access != ACC_READ) &&
	       !same_critical_section(a, w->other, l->marked) &&
	       !(w->consumer && takes_a_ticket(a, l->marked)) && !restarts_a_count(a, l->marked) &&
	       !always_under_one_lock(a, w->plain, l->plain) && !both_owned(a, w->plain, l->plain) &&
	       !seen_through_the_pointer(l, w) && (!w->consumer || learns_from_the_flag(l)) &&
	       values_meet(a, l, w);
}

/* A link on (FLAG, DATA), following relays from FLAG forwards (consumers:
 * F read, G written, G read, D accessed) or backwards (producers), breadth
 * first with every flag visited once. */
/* find_link's scratch (pairing runs in one thread, one search at a time):
 * every seen[] is 0 between searches.  Freed by links_forget(). */
static struct {
	int *queue, *depth;
	const struct function **via;    /* per queue entry: the relay's function */
	char *seen;
	int cap;
} bfs;

static const struct link *find_link(const struct analysis *a, int forward, int flag, int data,
				    const struct link_want *want)
{
	enum link_kind kind = forward ? LINK_CONSUMER : LINK_PRODUCER;
	enum analysis_list relays_on = forward ? RELAYS_FROM : RELAYS_TO;
	int n, nrelays, nobjects = analysis_objects(a);
	const struct link *links = analysis_links(a, kind, &n);
	const int *sorted = analysis_links_by_flag(a, kind);
	const struct relay *relays = analysis_relays(a, &nrelays);
	int *queue, *depth, head = 0, tail = 0;
	const struct function **via;
	char *seen;
	const struct link *found = NULL;
	struct link_want here = *want;

	if (flag < 0 || data < 0)
		return NULL;
	/* The search's arrays, one slot per object, are kept from one search
	 * to the next and only the slots it touched are cleared: allocating
	 * and clearing them for each of the tree's hundred thousand
	 * candidates made pairing quadratic (a tenth of Open vSwitch's
	 * whole-tree analysis). */
	if (bfs.cap < nobjects + 1) {
		free(bfs.queue); free(bfs.depth); free(bfs.via); free(bfs.seen);
		bfs.cap = nobjects + 1;
		bfs.queue = xcalloc(bfs.cap, sizeof *bfs.queue);
		bfs.depth = xcalloc(bfs.cap, sizeof *bfs.depth);
		bfs.via = xcalloc(bfs.cap, sizeof *bfs.via);
		bfs.seen = xcalloc(bfs.cap, 1);
	}
	queue = bfs.queue;
	depth = bfs.depth;
	via = bfs.via;
	seen = bfs.seen;
	depth[0] = 0;
	via[0] = NULL;
	queue[tail++] = flag;
	seen[flag] = 1;
	while (head < tail && !found) {
		const struct function *relay = via[head];
		int f = queue[head], d = depth[head++];

		here.relay = relay;
		found = first_link(a, links, sorted, n, f, data, acceptable, &here);
		if (d >= 8)
			continue;
		for (int r = analysis_first(a, relays_on, f); r >= 0; r = analysis_next(a, relays_on, r)) {
			int g = forward ? relays[r].to_oid : relays[r].from_oid;

			/* A relay passes the news on only in threads that run
			 * while the candidate's and the previous relay's do,
			 * and the link at the end must run while it does (not
			 * another program's main that shares the flags'
			 * header) */
			/* (an increment of a reference count learns that the
			 * object lives, not the news: takes_a_ticket) */
			if (relays[r].by_increment && is_reference_count(a, relays[r].from_oid))
				continue;
			if (!seen[g] && run_together(a, want->fn, relays[r].fn) &&
			    (!relay || run_together(a, relay, relays[r].fn))) {
				seen[g] = 1;
				depth[tail] = d + 1;
				via[tail] = relays[r].fn;
				queue[tail++] = g;
			}
		}
	}
	for (int i = 0; i < tail; i++)
		seen[queue[i]] = 0;
	return found;
}

/* Who reads flag F and then accesses D (written, when NEED_WRITE: two reads
 * never race), in another activation than FN's, outside PUBLISH's
 * critical sections? */
const struct link *find_consumer(const struct analysis *a, const struct function *fn,
					const struct event *publish, const struct event *data,
					int need_write)
{
	struct link_want w = { fn, publish, need_write, 1, data, NULL, NULL };

	return find_link(a, 1, publish->oid, data->oid, &w);
}

/* Who accesses D (writes it, when NEED_WRITE) and then publishes flag F
 * (RANGE: the values of the reader's read of F on which its access runs,
 * NULL for all)? */
const struct link *find_producer(const struct analysis *a, const struct function *fn,
					const struct event *consume, const struct event *data,
					int need_write, const struct vrange *range)
{
	struct link_want w = { fn, consume, need_write, 0, data, NULL, range };

	return find_link(a, 0, consume->oid, data->oid, &w);
}

void links_forget(void)
{
	free(bfs.queue);
	free(bfs.depth);
	free(bfs.via);
	free(bfs.seen);
	memset(&bfs, 0, sizeof bfs);
}
