/* analyzer/analysis/transfer.c — the transfer function of the per-function
 * dataflow (see dataflow.c for the state it keeps): what each event, and
 * each call through its callee's summary, does to the state, and the
 * writer-side and reader-side checks that make candidates and links. */
#include "internal.h"

/* Guards: does the current block run only on a read's value? */
struct test_deps_ctx { struct fn_ctx *c; int **out; int *cap; int n; int depth; };

static void collect_test_item(struct test_deps_ctx *t, const struct dep_item *d);

static void collect_index(struct test_deps_ctx *t, int k)
{
	const struct event *e;

	if (k < 0)
		return;         /* (PARAM_SOURCE) */
	for (int i = 0; i < t->n; i++)
		if ((*t->out)[i] == k)
			return;
	grow(t->out, t->cap, t->n + 1, sizeof **t->out);
	(*t->out)[t->n++] = k;
	/* A call's result depends on what was passed to it: if
	 * (check(READ_ONCE(f))) tests f too. */
	if (k >= 0 && k < t->c->nevents && (e = t->c->by_index[k]) != NULL && e->kind == EV_CALL &&
	    t->depth < 4) {
		t->depth++;
		for (int j = 0; j < e->deps.n; j++)
			collect_test_item(t, &e->deps.v[j]);
		t->depth--;
	}
}

/* Collects the event indexes the value of item D comes from (any role). */
static void collect_test_item(struct test_deps_ctx *t, const struct dep_item *d)
{
	if (!names_value(d))
		return;
	if (d->kind == DEP_EVENT) {
		collect_index(t, d->n);
	} else {
		struct derived *l = dm_get(&t->c->derived, d->local);

		for (int i = 0; l && i < l->n; i++)
			collect_index(t, l->reads[i]);
	}
}

int test_deps(void *ctx, const struct event *test, int **out, int *cap)
{
	struct test_deps_ctx t = { ctx, out, cap, 0, 0 };

	for (int k = 0; k < test->deps.n; k++)
		collect_test_item(&t, &test->deps.v[k]);
	return t.n;
}

/* Does the block being walked run only on the value of marked read R
 * (guards.h)?  R is the function's own read, tested by a branch or loop
 * that controls the block, or a callee's, whose call's result is tested
 * so, or which a callee returning nothing waited for. */
static int guarded(const struct fn_ctx *c, const struct event *r)
{
	const struct guards *g = &c->guards;
	int b = c->cur_block;

	if (r->func == c->fn->name)
		return guards_has(g, b, r->index);
	if (pairset_get(&c->origins, r->gid, WAITED_IN_CALLEE) >= 0)
		return 1;
	for (int i = 0; b >= 0 && b < g->nblocks && i < g->n[b]; i++)
		if (pairset_get(&c->origins, r->gid, g->v[b][i]) >= 0)
			return 1;
	return 0;
}

/* The values marked read R may have returned for the block being walked
 * to run (valuetests.h): R's own function's branches tested it, or
 * nothing is known. */
static struct vrange tested_values(const struct fn_ctx *c, const struct event *r)
{
	return r->func == c->fn->name ? value_tests_at(&c->values, c->cur_block, r->index) : vrange_any();
}

/* Is K the index of a marked read (or RMW) of C's function? */
static int is_marked_read(const struct fn_ctx *c, int k)
{
	const struct event *e = k >= 0 && k < c->nevents ? c->by_index[k] : NULL;

	return e && e->kind == EV_ACCESS && e->marked && e->access != ACC_WRITE;
}

/* The marked read that definition DEF of a local copies (its one "@N"
 * item, extract_compare.c's copies_reads), or -1. */
static int copied_read(const struct fn_ctx *c, const struct event *def)
{
	int k = -1;

	for (int i = 0; def && i < def->deps.n; i++)
		if (def->deps.v[i].role == DEP_ADDRESS && def->deps.v[i].kind == DEP_EVENT) {
			if (k >= 0)
				return -1;
			k = def->deps.v[i].n;
		}
	return is_marked_read(c, k) ? k : -1;
}

int compared_read(void *ctx, int b, int i, const struct dep_item *d)
{
	struct fn_ctx *c = ctx;
	const struct derived *l;

	if (d->kind == DEP_EVENT)
		return is_marked_read(c, d->n) ? d->n : -1;
	if (d->kind != DEP_LOCAL || d->local < 0)
		return -1;
	/* (a local every definition of which copies a read: extract_compare.c;
	 * the test sees the one that reaches it, if only one does) */
	l = dm_get(&c->derived, d->local);
	if (l && l->n == 1)
		return is_marked_read(c, l->reads[0]) ? l->reads[0] : -1;
	return copied_read(c, reaching_definition(c->fn, b, i, d->local));
}

/* Is the address of P, an access of R's function, computed from a plain
 * re-read of what marked read R read ("!reread:N", extract_expr.c)?
 * Then P is reached through the pointer R found, as far as which data the
 * reader goes on to is concerned: coherence gives the re-read R's value or
 * a newer one.  (Not an ordering: depends_on does not take it.) */
static int rereads(const struct event *p, const struct event *r)
{
	for (int i = 0; i < p->conds.n; i++)
		if (p->conds.v[i].kind == DEP_REREAD && p->conds.v[i].n == r->index)
			return 1;
	return 0;
}

/* How marked data access P (own: of this function) belongs to marked
 * read R (LINK_* bits; dataflow.h): only when it is reached through the
 * pointer R read (the MCS predecessor's next->locked = 0 after reading
 * next, or through a plain re-read of the same lvalue, rereads).  A test
 * of R alone does not make P R's: a sample of relaxed
 * statistics taken after a test of a latch (if (READ_ONCE(updated)) e =
 * READ_ONCE(events)) is as often a tolerated stale pair, and the reader
 * has no other sign that it relies on the order. */
static unsigned marked_data_dependence(struct fn_ctx *c, const struct event *p, const struct event *r, int own)
{
	return own && r->func == c->fn->name && (address_depends_on(&c->derived, p, r) || rereads(p, r))
		? LINK_THROUGH_POINTER : 0;
}

/* How plain access P (own: of this function; else seen through CALL to
 * CALLEE) depends on the value of marked read R (LINK_* bits of struct
 * link, 0 for not at all): does it run only on R's value (LINK_TESTED:
 * guarded), is its address computed from it (LINK_THROUGH_POINTER)?  Only
 * then is P what R's reader consumes. */
static unsigned value_dependence(struct fn_ctx *c, const struct event *p, const struct event *r, int own,
				 const struct event *call, const char *callee)
{
	unsigned how = guarded(c, r) ? LINK_TESTED : 0;

	if (own && r->func == c->fn->name && depends_on(&c->derived, p, r))
		how |= LINK_THROUGH_POINTER;
	else if (call && r->func == c->fn->name && depends_through_call(&c->derived, call, callee, p, r))
		how |= LINK_THROUGH_POINTER;
	return how;
}

/* Remembers that the reads in SET came into the caller through the value
 * of index AT: a call's result, or what it stored (OUT_SOURCE). */
static void note_origins(struct fn_ctx *c, const struct evset *set, int at)
{
	for (int i = 0; i < set->n; i++)
		pairset_put(&c->origins, set->v[i]->gid, at, 1);
}

/* Is the address of P, an access of this function, computed from the
 * value of a marked read: its own (p = READ_ONCE(head); p->key), or one
 * that a callee returns (p = get_head(); p = clear_flag(rcu_dereference(x)))?
 * Then P is reached through that pointer, and its dependency orders it
 * after that read: another flag read before does not publish what P
 * accesses (a statistic tested on the way, W7 of docs/history/real-code-reviews.md). */
static int address_from_marked_read(struct fn_ctx *c, const struct event *p)
{
	int *idx = NULL, cap = 0, n, found = 0;
	struct test_deps_ctx t = { c, &idx, &cap, 0, 0 };

	/* the items an address is computed from: a store's value is not */
	for (int k = 0; k < p->deps.n; k++)
		if (p->deps.v[k].role != DEP_VALUE)
			collect_test_item(&t, &p->deps.v[k]);
	n = t.n;
	for (int i = 0; i < n && !found; i++) {
		const struct event *e = idx[i] >= 0 && idx[i] < c->nevents ? c->by_index[idx[i]] : NULL;

		found = is_marked_read(c, idx[i]) || (e && e->kind == EV_CALL && c->returns_read[idx[i]]);
	}
	free(idx);
	return found;
}

/* Records, on every plain access of C's function, whether its address is
 * computed from a marked read of the function (address_from_marked_read),
 * for the callers: a caller that read some flag before the call does not
 * publish to it what the callee reaches through a pointer it loaded
 * itself (iter = rcu_dereference(prev->next); iter->key), whatever the
 * caller tested.  Called once the function's dataflow has reached its
 * fixpoint in the pass that records facts, when every call's
 * returns_read is known; the call graph's components are solved callees
 * first, so a caller outside the component finds it set. */
void note_pointer_reads(struct fn_ctx *c)
{
	for (int i = 0; i < c->nevents; i++) {
		struct event *e = c->by_index[i];

		if (e && e->kind == EV_ACCESS && !e->marked)
			e->via_marked_read = address_from_marked_read(c, e);
	}
}

/* Can marked write M publish plain access P to another thread?  Not when P
 * initialises fresh memory and M stores no pointer to fresh memory: other
 * threads reach what P initialised only through the write that hands the
 * memory on (a pointer stored), so that write is P's publication, and a
 * flag written later publishes nothing of it.  If the hand-on is ordered,
 * a reader that follows the pointer is ordered after P whatever flag it
 * tested before; if it is not, the finding belongs to the hand-on (and to
 * a plain pointer store, which is no fresh initialisation).  A thread's
 * own element of a global array (threads.c) is no such memory: others
 * reach it by name, and any flag may publish it. */
static int may_publish(const struct event *p, const struct event *m)
{
	return !is_new(p) || p->thread_element || m->hands_on_fresh;
}

/* Is P an initialisation of fresh memory that M, the write storing the
 * pointer to it, publishes in order (ORDERED: a release, a full barrier
 * or a write fence between them, here or in M's callee)?  The link is
 * recorded on the original access (add_link), which is not marked
 * fresh: this is worked out here, on the copy the call passes. */
static int published_in_order(const struct event *p, const struct event *m, int ordered)
{
	return ordered && is_new(p) && !p->thread_element && m->hands_on_fresh;
}

/* Does marked write M order what came before it before itself, as a flag
 * (a release, an acquire-release or a fully ordered access)? */
static int orders_before_itself(const struct event *m)
{
	return m->ord == ORD_RELEASE || m->ord == ORD_ACQ_REL || m->ord == ORD_FULL;
}

/* Marked stores as data (issue 12, shape 1): M, a marked write or RMW of
 * another object, comes after marked data stores still pending in S
 * (WRITE_ONCE(x, 1); WRITE_ONCE(ready, 1)): each is a writer candidate
 * unless M orders it; every marked data store made before M is a
 * producer link, ordered or not, for the reader side.  Marking makes each
 * store atomic, not ordered: a reader that sees M's value may still see
 * the old X.  (EXTRA_KILLED: what M's callee ordered before M.) */
static void marked_data_check(struct fn_ctx *c, struct state *s, struct event *m, unsigned extra_killed)
{
	struct analysis *a = c->p->out;
	int by_m = orders_before_itself(m) || (extra_killed & K_WRITE);

	for (int i = 0; i < s->pend_mdata.n && !by_m; i++) {
		struct event *d = s->pend_mdata.v[i];

		if (!same_object(d, m) && may_publish(d, m))
			add_candidate(&a->writers, &a->nwriters, &a->wcap, &a->wseen, d, m, c->fn, NULL);
	}
	for (int i = 0; i < s->seen_mdata.n; i++) {
		struct event *d = s->seen_mdata.v[i];
		int ordered = by_m || !es_has(&s->pend_mdata, d);

		if (!same_object(d, m) && may_publish(d, m))
			add_link(&a->producers, &a->nproducers, &a->pcap, &a->pseen, d, m, NULL, c->fn, ordered,
				 published_in_order(d, m, ordered) ? 0 : LINK_OPEN_TO_READERS, NULL);
	}
}

/* Is M C11's atomic_init(), a marked store with no ordering at all?  It
 * initialises the object non-atomically, before any other thread may
 * access it (an access that races with it is a data race): it publishes
 * nothing, as a flag or as data.  (Open vSwitch's ovs_refcount_init()
 * writes the count of every new object so.) */
static int initialises_atomic(const struct event *m)
{
	return m->marked && m->access == ACC_WRITE && m->ord == ORD_NONE;
}

/* M, a marked write or RMW, is reached in state S.  EXTRA_KILLED is what
 * the callee (when M is in one) ordered before M; PRE_SPAWN says that a
 * thread is created right after, before any join: initialisation that
 * pthread_create orders for the new threads. */
static void writer_check(struct fn_ctx *c, struct state *s, struct event *m, unsigned extra_killed,
			 int pre_spawn)
{
	struct analysis *a = c->p->out;

	/* A marked write into memory no other thread can reach yet (the new
	 * node's own next, stored before the node is published) publishes
	 * nothing: the write that hands the node on does. */
	if (!(c->emit & EMIT_WRITER) || !m->object || is_new(m) || initialises_atomic(m))
		return;
	for (int i = 0; i < s->pend_plain.n; i++) {
		struct event *p = s->pend_plain.v[i];

		if (same_object(p, m) || (extra_killed & (1u << p->access)) || !may_publish(p, m))
			continue;
		/* No other thread runs (none yet, or all joined): nobody can
		 * see the two writes in the other order (the reader side's
		 * reader_check stops there too). */
		if (pre_spawn || quiet(s))
			continue;
		add_candidate(&a->writers, &a->nwriters, &a->wcap, &a->wseen, p, m, c->fn, NULL);
	}
	/* Initialisation before pthread_create publishes nothing to running
	 * threads: it is no producer either; nor is a write made after the
	 * threads are joined. */
	for (int i = 0; i < s->seen_plain.n && !pre_spawn && !quiet(s); i++) {
		struct event *p = s->seen_plain.v[i];
		struct event *fence;
		int ordered;

		if (same_object(p, m) || !may_publish(p, m))
			continue;
		fence = fs_fence(&s->fenced, p);
		/* (ordered: by something before M here, or inside the callee M
		 * is in, before M) */
		ordered = !es_has(&s->pend_plain, p) || (extra_killed & (1u << p->access));
		add_link(&a->producers, &a->nproducers, &a->pcap, &a->pseen, p, m, fence, c->fn, ordered,
			 published_in_order(p, m, ordered) ? 0 : LINK_OPEN_TO_READERS, NULL);
	}
	for (int i = 0; i < s->seen_reads.n && !quiet(s) && !s->calm; i++)
		if (s->seen_reads.v[i]->object && s->seen_reads.v[i]->ord != ORD_CONSUME &&
		    guarded(c, s->seen_reads.v[i]))
			add_relay(a, s->seen_reads.v[i], m, c->fn);
	if (!pre_spawn && !quiet(s))
		marked_data_check(c, s, m, extra_killed);
}

int dependency_orders(const struct event *r)
{
	return !(r->ord == ORD_RELAXED && is_c11_atomic(r->name));
}

/* Is P, a plain read of this function, a read back of what an earlier
 * plain store of the function stored from marked read R's value (q->seen
 * = READ_ONCE(q->head); ... q->seen)?  Such a read is the flag's value
 * itself, which the front end passes on to what it decides
 * (extract_expr.c, note_forwarded), not data that the flag guards. */
static int reads_back(const struct fn_ctx *c, const struct event *p, const struct event *r)
{
	if (p->marked || p->access != ACC_READ || !p->display || r->func != c->fn->name)
		return 0;
	for (int k = 0; k < c->ncopies; k++) {
		const struct event *w = c->copies[k];

		if (w->index < p->index && same_object(w, p) && strcmp(w->display, p->display) == 0 &&
		    stores_value_of((struct deriv_map *)&c->derived, w, r))
			return 1;
	}
	return 0;
}

/* P, a plain access, is reached in state S.  READER_ORDERED: a callee
 * ordered earlier reads before P.  OWN: P is an event of this function
 * (dependencies through locals are only known then). */
static void reader_check(struct fn_ctx *c, struct state *s, struct event *p, int reader_ordered,
			 int own, const struct event *call, const char *callee)
{
	struct analysis *a = c->p->out;
	int through_pointer = -1;     /* address_from_marked_read(P), asked once */

	if (!(c->emit & EMIT_READER) || !p->object || is_new(p))
		return;
	/* While no other thread runs (before the first thread creation, or
	 * after the threads are joined), reading F then accessing D is no
	 * consumer: nothing concurrent can be on the other side. */
	for (int i = 0; i < s->seen_reads.n && !quiet(s) && !s->calm; i++) {
		struct event *r = s->seen_reads.v[i];

		/* An acquire (or a later read barrier) orders P whether or not P
		 * runs on R's value: that consumer is kept, for the lockset rule
		 * (ordered_after_acquire) and the release its writer needs. */
		unsigned how;

		if (same_object(p, r) || !r->object || (own && reads_back(c, p, r)))
			continue;
		how = p->marked ? marked_data_dependence(c, p, r, own) : value_dependence(c, p, r, own, call, callee);
		if (p->marked && !how)
			continue;
		/* A pointer read (consume) guards only what is reached through
		 * the pointer: rcu_dereference(gp) makes no other data its own. */
		if (r->ord == ORD_CONSUME && !(how & LINK_THROUGH_POINTER))
			continue;
		if (!es_has(&s->pend_reads, r) || how) {
			struct vrange values = tested_values(c, r);
			int added, k = add_link(&a->consumers, &a->nconsumers, &a->ccap, &a->cseen, p, r, NULL,
						c->fn, !es_has(&s->pend_reads, r), how, &added);

			note_range(a, &a->consumers[k].range, added, &values);
		}
	}
	/* Writes count too: a control dependency does not order a later plain
	 * store in the LKMM (only an address dependency or a fence does).  It
	 * does order a later marked store, which the compiler may not make
	 * before its test.  A marked access is a reader candidate only when
	 * reached through R's pointer, and only when that dependency orders
	 * nothing (dependency_orders). */
	if (reader_ordered || quiet(s))
		return;
	for (int i = 0; i < s->pend_reads.n; i++) {
		struct event *r = s->pend_reads.v[i];
		int dep;

		if (same_object(p, r) || !r->object || !guarded(c, r) || r->ord == ORD_CONSUME ||
		    (own && reads_back(c, p, r)))
			continue;   /* (a pointer read guards only what it points to,
				       which its dependency orders) */
		if (p->marked) {
			if (!marked_data_dependence(c, p, r, own) || dependency_orders(r))
				continue;
			dep = 1;
		} else {
			dep = (own && r->func == c->fn->name && depends_on(&c->derived, p, r)) ||
			      (call && r->func == c->fn->name && depends_through_call(&c->derived, call, callee, p, r));
			if (dep && dependency_orders(r))
				continue;   /* address dependency (also through the
					       callee's parameter): ordered */
		}
		/* (a copy of a callee's event carries its flag: clones copy
		 * the event, made after the callee's run worked it out) */
		if (!dep && through_pointer < 0)
			through_pointer = own ? address_from_marked_read(c, p) : p->via_marked_read;
		if (!dep && through_pointer)
			continue;   /* reached through a pointer read with a dependency */
		{
			struct vrange values = tested_values(c, r);
			int added, k = add_candidate(&a->readers, &a->nreaders, &a->rcap, &a->rseen, r, p, c->fn,
						     &added);

			note_range(a, &a->readers[k].range, added, &values);
		}
	}
}

/* Plain access P comes after marked writes still in S->published: if one
 * of them publishes P's object to a reader, P races with that reader.
 * Only writes written before P count: a later one reaches P around a loop,
 * from the previous round. */
static void note_late(struct fn_ctx *c, struct state *s, struct event *p)
{
	if (is_new(p))
		return;
	for (int i = 0; i < s->published.n; i++) {
		struct event *m = s->published.v[i];

		if (!same_object(p, m) && m->file && p->file && strcmp(m->file, p->file) == 0 &&
		    m->line < p->line)
			add_link(&c->p->out->late, &c->p->out->nlate, &c->p->out->lcap, &c->p->out->lseen, p, m, NULL, c->fn, 0, 0, NULL);
	}
}

static int pre_spawn_at(struct fn_ctx *c, const struct event *e)
{
	return c->pre_spawn && c->pre_spawn[e->index];
}

/* Does the value of marked read E, an event of this function, decide
 * something (decision_marks, worked out at the first question)? */
static int decides(struct fn_ctx *c, const struct event *e)
{
	if (!c->decides)
		c->decides = decision_marks(c->fn, &c->derived, c->nevents);
	return e->index >= 0 && e->index < c->nevents && c->decides[e->index];
}

/* Does store W (of the constant STORED) run, in the block being walked,
 * only where a marked read of its own object made by its function saw one
 * value, another than STORED (in *HELD): the word seen held by the value
 * a take stores, before the holder gives it back? */
static int seen_holding(const struct fn_ctx *c, const struct event *w, long long stored, long long *held)
{
	for (int k = 0; k < c->nevents; k++) {
		const struct event *r = c->by_index[k];
		struct vrange v;

		if (!r || r->oid != w->oid || !is_marked_read(c, k))
			continue;
		v = value_tests_at(&c->values, c->cur_block, k);
		if (v.known && v.lo == v.hi && v.lo != stored) {
			*held = v.lo;
			return 1;
		}
	}
	return 0;
}

/* Marked access E, reached in state S before its own ordering applies,
 * as lockword.c needs it: a store of a constant that nothing since the
 * function's entry orders the function's earlier reads and writes before
 * (an unlock whose critical section is its caller's), or a
 * compare-and-swap with acquire that expects a constant and stores
 * another (a lock taken; its result tested or used). */
static void note_lock_word_op(struct fn_ctx *c, const struct state *s, struct event *e)
{
	long long stored, expected, held;

	if (!e->object || is_new(e) || !event_constant(e, 0, &stored))
		return;
	if (e->access == ACC_WRITE && (e->ord == ORD_RELAXED || e->ord == ORD_NONE) &&
	    (s->killed & (K_READ | K_WRITE)) != (K_READ | K_WRITE) && !quiet(s) && !pre_spawn_at(c, e))
		add_lock_word_op(c->p->out, e, c->fn, LOCK_WORD_STORE,
				 seen_holding(c, e, stored, &held) ? &held : NULL);
	else if (e->access == ACC_RMW && !e->discarded && event_constant(e, 1, &expected) && expected != stored &&
		 (e->ord == ORD_ACQUIRE || e->ord == ORD_ACQ_REL || e->ord == ORD_FULL))
		add_lock_word_op(c->p->out, e, c->fn, LOCK_WORD_TAKE, NULL);
}

/* A call of a lock wrapper (the callee's summary says which parameter it
 * locks or unlocks) takes or releases the lock the caller passes, as
 * pthread_mutex_lock(&m) would. */
static void apply_lock_wrapper(struct fn_ctx *c, struct state *s, const struct event *call,
			       const struct summary *cs)
{
	int n = cs->lock_param >= 0 ? cs->lock_param : cs->unlock_param;
	const struct object_ref *ref;
	const char *arg;

	if (cs->lock_global) {
		ss_add(&s->locks, (char *)kept_key(c->p->out, cs->lock_global));
	} else if (cs->unlock_global) {
		kill_plain(s, writer_kills(ORD_RELEASE), NULL);
		ss_remove_lock(&s->locks, kept_key(c->p->out, cs->unlock_global));
	}
	if (n < 0 || !(arg = call_argument(call, n, &ref)))
		return;
	if (ref->kind != OBJ_FUNCTION) {
		const char *key = kept_key(c->p->out, arg);

		if (cs->lock_param >= 0) {
			ss_add(&s->locks, (char *)key);
		} else {
			kill_plain(s, writer_kills(ORD_RELEASE), NULL);
			ss_remove_lock(&s->locks, key);
		}
	}
}

/* Does F lock (LOCKING) or unlock a lock of key KEY itself? */
static int takes_lock(const struct function *f, const char *key, int locking)
{
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];

			/* (an unlock names the lock whichever way it was taken:
			 * pthread_rwlock_rdlock takes "shared:KEY") */
			if (e->kind == (locking ? EV_LOCK : EV_UNLOCK) && e->object &&
			    strcmp(object_unshared(e->object), object_unshared(key)) == 0)
				return 1;
		}
	return 0;
}

/* The lock that CALL, made by F, takes (LOCKING) or releases through a
 * lock wrapper (the callee's summary: call_rcu_lock(), spin_lock(&t->l)),
 * when it is no parameter or local of F: a global, or a field of every
 * instance (cohort->local_lock); else NULL. */
static const char *wrapper_lock(struct program *p, const struct function *f, const struct event *call, int locking)
{
	const struct summary *cs;
	const struct object_ref *ref;
	const char *arg;
	int n;

	if (call->kind != EV_CALL || !(cs = callee_of(p, call, f)))
		return NULL;
	if (locking ? cs->lock_global : cs->unlock_global)
		return locking ? cs->lock_global : cs->unlock_global;
	n = locking ? cs->lock_param : cs->unlock_param;
	if (n < 0 || !(arg = call_argument(call, n, &ref)) || ref->kind != OBJ_USR)
		return NULL;
	return arg;
}

/* May CALL, made by F, take lock KEY on some path: it is given KEY, or its
 * callee takes KEY itself (lock_count(c) { if (c) lock(&m); })?  (An
 * unlock wrapper given KEY only releases it.) */
static int may_take(struct program *p, const struct function *f, const struct event *call, const char *key)
{
	const struct summary *cs = callee_of(p, call, f);

	if (cs && takes_lock(&p->fns[cs - p->sums], key, 1))
		return 1;
	for (int a = 0; a < call->argv.n; a++)
		if (call->argv.v[a] && strcmp(object_unshared(call->argv.v[a]), object_unshared(key)) == 0 &&
		    !wrapper_lock(p, f, call, 0))
			return 1;
	return 0;
}

/* Does F take (LOCKING) or release lock KEY, itself or through a lock
 * wrapper?  A lock being looked for, any call given KEY counts: it may take
 * it on some paths (maybe_lock(&m, c)), and then F is no lock's other half. */
static int handles_lock(struct program *p, const struct function *f, const char *key, int locking)
{
	if (takes_lock(f, key, locking))
		return 1;
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];
			const char *k = wrapper_lock(p, f, e, locking);

			if (k && strcmp(object_unshared(k), object_unshared(key)) == 0)
				return 1;
			if (locking && !k && e->kind == EV_CALL && may_take(p, f, e, key))
				return 1;
		}
	return 0;
}

/* The global lock (or field-pointed lock) that event E of F releases,
 * itself or through a wrapper, when F never takes it (nor calls anything
 * that may take it), or NULL. */
static const char *released_not_taken(struct program *p, const struct function *f, const struct event *e)
{
	const char *k = NULL;

	if (e->kind == EV_UNLOCK && !e->param_use && e->object && e->obj.kind == OBJ_USR)
		k = e->object;
	else if (e->kind == EV_CALL)
		k = wrapper_lock(p, f, e, 0);
	return k && !handles_lock(p, f, k, 1) ? k : NULL;
}

const char *lock_released_not_taken(struct program *p, const struct function *f)
{
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const char *k = released_not_taken(p, f, &f->blocks[b].events[i]);

			if (k)
				return k;
		}
	return NULL;
}

/* Fills SUM's lock_param and unlock_param for F, whose exit state is EXIT
 * (NULL when the exit is unreachable), and its lock_global and
 * unlock_global: a wrapper of one global lock, which it takes and leaves
 * held on every path and never releases, or releases and never takes
 * (call_rcu_lock(), rcu_copy_mutex_unlock(), the halves of a fork
 * handler pair). */
void find_lock_wrapper(struct program *p, const struct function *f, const struct state *exit, struct summary *sum)
{
	int lockp = -1, unlockp = -1;
	const char *locked = NULL;

	sum->lock_global = sum->unlock_global = NULL;
	for (int b = 0; b < f->nblocks && !sum->lock_global && !sum->unlock_global; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];
			const char *k;

			/* (a lock taken or released through a wrapper counts as
			 * the wrapper's own lock operation would: ck_cohort's
			 * lock() leaves the local lock LL took held) */
			if (e->kind == EV_CALL && (k = wrapper_lock(p, f, e, 1)) != NULL &&
			    !handles_lock(p, f, k, 0) && exit && ss_has(&exit->locks, kept_key(p->out, k))) {
				sum->lock_global = k;
				break;
			}
			if ((k = released_not_taken(p, f, e)) != NULL) {
				sum->unlock_global = k;   /* lock_released_not_taken */
				break;
			}
			if (e->kind == EV_LOCK && !e->param_use && e->object && e->obj.kind == OBJ_USR &&
			    !handles_lock(p, f, e->object, 0) && exit && ss_has(&exit->locks, e->object)) {
				sum->lock_global = e->object;
				break;
			}
		}

	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			const struct event *e = &f->blocks[b].events[i];
			int n;

			if ((e->kind != EV_LOCK && e->kind != EV_UNLOCK) || !e->param_use ||
			    (n = param_use(e, f->link_key)) < 0)
				continue;
			if (e->kind == EV_LOCK && lockp < 0) {
				lockp = n;
				locked = e->object;
			} else if (e->kind == EV_UNLOCK && unlockp < 0) {
				unlockp = n;
			}
		}
	sum->lock_param = sum->unlock_param = -1;
	if (lockp >= 0 && unlockp < 0 && exit && locked && ss_has(&exit->locks, locked))
		sum->lock_param = lockp;
	else if (unlockp >= 0 && lockp < 0)
		sum->unlock_param = unlockp;
}

/* Records the locks held at each plain access CALL brings in (VIEW of
 * the callee, HC its lock sets as this call sees them; S the state at the
 * call).  A called function's record lends only its own locks to the
 * access (caller_locks), the callee's record having its own already, so
 * called functions that hold nothing still store no record (record_locks:
 * most records are of that kind).  A root's record (complete: the whole
 * way down from a thread's entry) also holds the locks the callee holds
 * at the access (held.c). */
static void record_call_locks(struct fn_ctx *c, const struct state *s, const struct event *call,
			      const struct call_view *view, struct held_call *hc)
{
	const struct evset *all = view->set[VIEW_ALL_PLAIN], *seen = all;
	int complete = !c->p->called[c->fn - c->p->fns];

	/* A call followed by a thread creation is initialisation for the
	 * new thread, but not what the callee itself does after creating a
	 * thread (create_thread() storing the id of the thread it started,
	 * which is already running). */
	if (pre_spawn_at(c, call))
		seen = view->set[VIEW_AFTER_SPAWN];
	for (int i = 0; i < seen->n; i++) {
		const struct strset *held = &s->locks;

		if (!seen->v[i]->object)
			continue;
		if (complete && view->held_at) {
			int j = seen == all ? i : es_index(all, seen->v[i]);
			unsigned k = j >= 0 ? view->held_at[j] : 0, id;

			if (k) {
				id = held_call_set(hc, &c->held.sets, &s->locks, k);
				held = &c->held.sets.v[id];
			}
		}
		record_locks(c->p->out, seen->v[i], c->fn, held, complete);
	}
}

static void apply_call_to(struct fn_ctx *c, struct state *s, struct event *call, struct summary *cs)
{
	struct summary *me = c->sum;
	const char *callee;
	const struct call_view *view;
	const struct evset *seen;
	int spawned_before = s->spawned;
	struct held_call hc;

	if (!cs)
		return;              /* unknown callee: no effect assumed */
	callee = c->p->fns[cs - c->p->sums].link_key;
	view = call_view_of(c->p, call, cs, callee);
	for (int i = 0; i < view->entry_mwrites->n; i++) {
		const struct exposed *x = &view->entry_mwrites->v[i];

		writer_check(c, s, x->e, x->killed_before, pre_spawn_at(c, call));
	}
	for (int i = 0; i < view->entry_plain->n; i++) {
		const struct exposed *x = &view->entry_plain->v[i];

		reader_check(c, s, x->e, (x->killed_before & K_READER) != 0, 0, call, callee);
	}
	/* (the checks leave S's orderings as they are) */
	if (me) {
		xs_union(&me->entry_mwrites, view->entry_mwrites, s->killed);
		xs_union(&me->entry_plain, view->entry_plain, s->killed);
	}
	kill_plain(s, cs->must_kill & K_ALL, NULL);
	if (cs->must_kill & K_READER)
		kill_reads(s);
	apply_lock_wrapper(c, s, call, cs);
	/* create_thread(fn, arg) and the like: only a function that calls
	 * pthread_create itself counts (not every caller of a library
	 * function that may start a helper thread deep inside). */
	if (cs->calls_create)
		spawn(s);
	/* wait_all_threads(): a helper that joins the threads joins them for
	 * its caller too (the last thread event, as in find_quiet_entries). */
	if (c->p->joins[cs - c->p->sums])
		s->threads = THREADS_JOINED;
	/* A tested result guards the caller only with the reads it carries:
	 * futex_op(OP_WAKE) returning a constant says nothing of the futex
	 * its OP_WAIT case waits on (W14). */
	if (cs->result_tells) {
		note_origins(c, view->set[VIEW_EXIT_READS], call->index);
		note_origins(c, view->set[VIEW_ALL_READS], call->index);
	}
	/* ... and so does a local the callee stored a read into (get(&r);
	 * if (r)): the local's value comes from what the call stored
	 * (OUT_SOURCE, compute_derived_through_calls), which carries its
	 * reads. */
	if (cs->out_tells && call->index >= 0 && call->index < c->nevents) {
		note_origins(c, view->set[VIEW_EXIT_READS], OUT_SOURCE(c->nevents, call->index));
		note_origins(c, view->set[VIEW_ALL_READS], OUT_SOURCE(c->nevents, call->index));
	}
	/* (as the call sees them: a read through a parameter is a clone, or
	 * none when the caller passes a private local) */
	for (int i = 0; i < cs->waited.n; i++) {
		struct event *seen = through_call(c->p, call, callee, cs->waited.v[i]);

		if (seen)
			pairset_put(&c->origins, seen->gid, WAITED_IN_CALLEE, 1);
	}
	if (cs->returns_read && call->index >= 0 && call->index < c->nevents)
		c->returns_read[call->index] = 1;
	if (!s->calm)                 /* initialisation in a helper (see transfer) */
		es_union(&s->pend_plain, view->set[VIEW_EXIT_PLAIN]);
	es_union(&s->pend_reads, view->set[VIEW_EXIT_READS]);
	if (c->records & KEEPS_SEEN_READS)
		es_union(&s->seen_reads, view->set[VIEW_ALL_READS]);
	if (me) {
		es_union(&me->all_reads, view->set[VIEW_ALL_READS]);
		es_union(&me->all_mwrites, view->set[VIEW_ALL_MWRITES]);
	}
	seen = view->set[VIEW_ALL_PLAIN];
	if (!s->calm && (c->records & KEEPS_SEEN_PLAIN))
		es_union(&s->seen_plain, seen);
	held_call_begin(&hc, view->held_at ? &cs->held.sets : NULL);
	if (me) {
		es_union(&me->all_plain, seen);
		es_union(&me->after_spawn, spawned_before ? seen : view->set[VIEW_AFTER_SPAWN]);
		if (c->holds_locks)
			for (int i = 0; i < seen->n; i++)
				held_meet(&c->held, seen->v[i],
					  held_call_set(&hc, &c->held.sets, &s->locks, view->held_at ? view->held_at[i] : 0));
	}
	if ((c->emit & EMIT_LOCKS) && !quiet(s))
		record_call_locks(c, s, call, view, &hc);
	held_call_end(&hc);
	/* (the callee's accesses run while the caller's threads may; its
	 * own creations count from its return, or its joins end them all) */
	if ((c->emit & EMIT_LOCKS) && s->running.n)
		for (int i = 0; i < seen->n; i++)
			note_made_while(c, s, seen->v[i]);
	if (c->p->joins[cs - c->p->sums])
		s->running.n = 0;
	else
		is_union(&s->running, &cs->exit_running);
	/* die(): what the callee did happened, but nothing after the call
	 * does on this path (see transfer). */
	if (cs->noreturn)
		s->reached = 0;
}

/* Where a stored value's sources are asked about (note_stored_read). */
struct store_at { const struct fn_ctx *c; const struct state *s; };

/* (stored_value_any) Does the value of event index I, reached in state
 * AT->s, carry a marked read of the function that nothing has ordered
 * yet: the read itself, still pending; a call whose result carries one
 * (returns_read); or what a call stored into a local (OUT_SOURCE: only a
 * call that stores such a read is one)? */
static int carries_unordered_read(const void *ctx, int i)
{
	const struct store_at *at = ctx;
	const struct event *e;

	if (i >= at->c->nevents)
		return 1;
	e = i >= 0 ? at->c->by_index[i] : NULL;
	return e && ((e->kind == EV_ACCESS && e->marked && es_has(&at->s->pend_reads, e)) ||
		     (e->kind == EV_CALL && at->c->returns_read[i]));
}

/* Plain store W, reached in state S: when it stores, through parameter N
 * of this function, a value that carries an unordered marked read
 * (carries_unordered_read; directly, or through the locals its value
 * names), the local of the caller that N points to carries that read
 * too: bit N of summary.out_tells (get(int *out) { *out =
 * READ_ONCE(flag); }, read back by the caller as if (r)).  A read that a
 * fence or an acquire has ordered before the store orders whatever the
 * caller does with the value (ck_ring's dequeue: a load fence after the
 * index loads, then the slot copied out), so it tells the caller of no
 * order it must keep. */
static void note_stored_read(struct fn_ctx *c, const struct state *s, const struct event *w)
{
	struct store_at at = { c, s };

	if (c->sum && w->obj.kind == OBJ_PARAM && w->obj.param < 32 &&
	    object_is_param_of(w->object, &w->obj, c->fn->link_key) &&
	    stored_value_any(&c->derived, w, carries_unordered_read, &at))
		c->sum->out_tells |= 1u << w->obj.param;
}

/* Applies CALL to S: its callee's effects as the call sees them.  A call
 * through a pointer that several functions of the tree were stored into
 * (ck_rhs's map->probe_func) may reach any of them: each is applied to a
 * copy of the state before the call, and the states after are merged as
 * at the end of an if/else, each target's view with the call's constant
 * arguments (W14). */
static void apply_call(struct fn_ctx *c, struct state *s, struct event *call)
{
	struct summary *cs = callee_of(c->p, call, c->fn);
	const struct other_callee *others;
	struct state before = { 0 }, after = { 0 };
	int n;

	if (!cs)
		return;
	others = other_callees(c->p, call, &n);
	if (n)
		state_copy(&before, s);
	apply_call_to(c, s, call, cs);
	for (int k = 0; k < n; k++) {
		state_copy(&after, &before);
		apply_call_to(c, &after, call, others[k].s);
		state_merge(s, &after);
	}
	state_free(&before);
	state_free(&after);
}

void transfer(struct fn_ctx *c, struct state *s, struct event *e)
{
	struct summary *me = c->sum;

	if (!s->reached)             /* after a call that never returns */
		return;

	switch (e->kind) {
	case EV_ACCESS:
		/* (a caller's private local filled in is the point of it) */
		if (e->object && !e->marked && e->access == ACC_WRITE)
			note_stored_read(c, s, e);
		/* (memory private to the thread: no side of any pairing) */
		if (!e->object || e->thread_private)
			break;
		if (!e->marked) {
			if ((c->emit & EMIT_LOCKS) && s->running.n)
				note_made_while(c, s, e);
			reader_check(c, s, e, 0, 1, NULL, NULL);
			if ((c->emit & EMIT_LATE) && !quiet(s) && !pre_spawn_at(c, e))
				note_late(c, s, e);
			if (c->emit & EMIT_LOCKS) {
				if (!quiet(s) && !pre_spawn_at(c, e))
					record_locks(c->p->out, e, c->fn, &s->locks,
						     !c->p->called[c->fn - c->p->fns]);
				/* Before a thread creation the access is no one's
				 * counterpart here, but a caller's call that no
				 * creation follows records it (with the caller's
				 * locks): the locks held here still hold it
				 * (cds_lfht_init_worker's test of the workqueue
				 * under cds_lfht_fork_mutex, before creating it). */
				else if (!quiet(s) && c->p->called[c->fn - c->p->fns] && s->locks.n)
					record_locks(c->p->out, e, c->fn, &s->locks, 0);
			}
			if (me) {
				if (c->holds_locks)
					held_meet(&c->held, e, lock_sets_find(&c->held.sets, &s->locks));
				xs_add(&me->entry_plain, e, s->killed);
				es_add(&me->all_plain, e);
				if (s->spawned)
					es_add(&me->after_spawn, e);
			}
			/* Done before any thread exists: pthread_create orders it
			 * before everything every thread does, whatever flag they
			 * read later (also when a loop of pthread_create may run
			 * zero times): no writer-side access. */
			if (s->calm)
				break;
			/* (not under a lock: what keeps the write from a
			 * counterpart, a lock both hold, may not hold the read,
			 * made before the lock was taken) */
			if (e->access != ACC_READ && !s->locks.n)
				subsume_reads(s, e);
			es_add(&s->pend_plain, e);
			if (c->records & KEEPS_SEEN_PLAIN)
				es_add(&s->seen_plain, e);
			break;
		}
		if (c->emit & EMIT_LOCKS)
			record_locks(c->p->out, e, c->fn, &s->locks, !c->p->called[c->fn - c->p->fns]);
		/* A marked load or store as data (issue 12, shape 1): after a
		 * marked read of another object, through the pointer it read,
		 * it is that read's consumer (reader_check).  An RMW is a
		 * claim or a count, no data. */
		if (!s->calm && e->access != ACC_RMW)
			reader_check(c, s, e, 0, 1, NULL, NULL);
		/* (a marked write made after a creation may race with a plain
		 * poll of the new thread: pairing.c's plain flags) */
		if ((c->emit & EMIT_LOCKS) && s->running.n && e->access != ACC_READ)
			note_made_while(c, s, e);
		if (c->emit & EMIT_WRITER)
			note_lock_word_op(c, s, e);
		/* A marked access orders what its own ordering covers first
		 * (a release store orders everything before it), and with
		 * smp_mb__before_atomic() before it an RMW is fully ordered. */
		if (s->mb_before_rmw && e->access == ACC_RMW) {
			kill_plain(s, K_ALL, NULL);
			kill_reads(s);
		}
		s->mb_before_rmw = 0;
		s->after_rmw = e->access == ACC_RMW;
		/* (pending marked data: only a fully ordered access orders it
		 * before what follows; marked_data_check) */
		kill_plain_only(s, writer_kills(e->ord), NULL);
		if (e->access == ACC_WRITE || e->access == ACC_RMW) {
			writer_check(c, s, e, 0, pre_spawn_at(c, e));
			if (e->ord == ORD_FULL)
				s->pend_mdata.n = 0;
			if (e->access == ACC_WRITE && !s->calm && e->ord != ORD_FULL) {
				es_add(&s->pend_mdata, e);
				if (c->records & KEEPS_SEEN_PLAIN)
					es_add(&s->seen_mdata, e);
			}
			/* A store, or an RMW done for its effect, publishes; an RMW
			 * whose result is tested takes something (a lock). */
			if ((e->access == ACC_WRITE || e->discarded) && !is_new(e) &&
			    (c->records & KEEPS_PUBLISHED))
				es_add(&s->published, e);
			if (me) {
				xs_add(&me->entry_mwrites, e, s->killed);
				es_add(&me->all_mwrites, e);
			}
		}
		/* An RMW whose result is thrown away (set_bit(...);) guards
		 * nothing: only its write half matters to the reader side. */
		if ((e->access == ACC_READ || e->access == ACC_RMW) && !e->discarded &&
		    (e->access != ACC_READ || c->used[e->index])) {
			/* A read after a publication is taken as a handshake (the
			 * consumer's acknowledgement): it ends the "late" window.
			 * An RMW whose value is used ends the window of what was
			 * published through its own word: the word is taken again
			 * after a failed try gave back what it had added
			 * (plock's take: xadd, test, sub, retry). */
			if (e->access == ACC_READ)
				s->published.n = 0;
			else
				for (int i = s->published.n - 1; i >= 0; i--)
					if (same_object(s->published.v[i], e))
						es_remove_at(&s->published, i);
			if (reader_kills(e->ord, 0))
				kill_reads(s);
			else if (e->ord == ORD_ACQUIRE || e->ord == ORD_ACQ_REL)
				kill_reads_of(s, e);
			/* A read of memory no other thread can reach yet guards
			 * nothing: no other thread's write can be behind it. */
			if (is_new(e))
				break;
			/* The read half of a release RMW (clear_bit_unlock,
			 * xchg_release) is relaxed, but it releases a lock rather
			 * than guarding what follows: only relaxed reads count. */
			if (e->ord == ORD_RELAXED || e->ord == ORD_NONE || e->ord == ORD_CONSUME)
				es_add(&s->pend_reads, e);
			/* (an early read is one the read's value was to decide
			 * about: a read whose value is only handed to a call,
			 * close(xchg(&fd, -1)), decides nothing) */
			if ((c->emit & EMIT_EARLY) && !quiet(s) && e->ord != ORD_CONSUME && s->seen_plain.n &&
			    decides(c, e))
				for (int i = 0; i < s->seen_plain.n; i++)
					if (s->seen_plain.v[i]->access != ACC_WRITE && !same_object(s->seen_plain.v[i], e) &&
					    !is_new(s->seen_plain.v[i]))
						add_link(&c->p->out->early, &c->p->out->nearly, &c->p->out->ecap, &c->p->out->eseen,
							 s->seen_plain.v[i], e, NULL, c->fn, 0, 0, NULL);
			if (c->records & KEEPS_SEEN_READS)
				es_add(&s->seen_reads, e);
			if (me)
				es_add(&me->all_reads, e);
		}
		break;
	case EV_BARRIER:
		if (e->ord == ORD_BEFORE_RMW) {
			s->mb_before_rmw = 1;
			break;
		}
		if (e->ord == ORD_AFTER_RMW) {
			if (s->after_rmw) {
				kill_plain(s, K_ALL, e);
				kill_reads(s);
			}
			break;
		}
		kill_plain(s, writer_kills(e->ord), e);
		if (reader_kills(e->ord, 1))
			kill_reads(s);
		/* A grace period waits for every reader that could have seen
		 * what was published before it: the "late" window ends, as at
		 * a handshake (the old object's accesses after
		 * synchronize_rcu() race with no reader). */
		if (e->ord == ORD_GRACE)
			s->published.n = 0;
		if (is_named(e, "pthread_create")) {
			/* (phases.c: a creation while threads run) */
			if ((c->emit & EMIT_BUSY) && !quiet(s))
				pairset_put(&c->p->out->busy_creations, e->gid, 0, 1);
			spawn(s);
			created_threads(c->p, s, e);
			if (me)
				me->calls_create = 1;
		} else if (is_named(e, "pthread_join")) {
			s->threads = THREADS_JOINED;
			s->running.n = 0;
		}
		break;
	case EV_LOCK:
		if (e->object)
			ss_add(&s->locks, e->object);
		break;
	case EV_UNLOCK:
		kill_plain(s, writer_kills(ORD_RELEASE), NULL);
		if (e->object)
			ss_remove_lock(&s->locks, e->object);
		break;
	case EV_CALL:
		apply_call(c, s, e);
		created_threads(c->p, s, e);     /* (create_thread(fn, arg)) */
		break;
	case EV_LOCAL:
		break;
	}
}
