/* analyzer/analysis/state.c — the dataflow state at one point of a function
 * (struct state, internal.h): copying and merging it, and what orderings
 * and thread creations do to it. */
#include "internal.h"

unsigned writer_kills(enum ord o)
{
	switch (o) {
	case ORD_FULL: case ORD_RELEASE: case ORD_ACQ_REL: case ORD_GRACE:
		return K_ALL;
	case ORD_WMB:
		return K_WRITE | K_RMW;
	case ORD_RMB:
		return K_READ | K_RMW;
	default:
		return 0;
	}
}

int reader_kills(enum ord o, int is_barrier)
{
	/* A full barrier or read barrier orders earlier reads before later
	 * ones; so does an acquire fence, but not an acquire load of some
	 * other variable (it orders only itself). */
	return o == ORD_FULL || o == ORD_GRACE || o == ORD_RMB ||
	       (is_barrier && (o == ORD_ACQUIRE || o == ORD_ACQ_REL));
}

void state_free(struct state *s)
{
	free(s->pend_plain.v);
	free(s->pend_reads.v);
	free(s->seen_plain.v);
	free(s->seen_reads.v);
	free(s->pend_mdata.v);
	free(s->seen_mdata.v);
	free(s->fenced.v);
	free(s->published.v);
	free(s->locks.v);
	free(s->running.v);
	memset(s, 0, sizeof *s);
}

void state_copy(struct state *to, const struct state *from)
{
	to->reached = from->reached;
	es_copy(&to->pend_plain, &from->pend_plain);
	es_copy(&to->pend_reads, &from->pend_reads);
	es_copy(&to->seen_plain, &from->seen_plain);
	es_copy(&to->seen_reads, &from->seen_reads);
	es_copy(&to->pend_mdata, &from->pend_mdata);
	es_copy(&to->seen_mdata, &from->seen_mdata);
	to->fenced.n = 0;
	for (int i = 0; i < from->fenced.n; i++)
		fs_add(&to->fenced, from->fenced.v[i].plain, from->fenced.v[i].fence);
	es_copy(&to->published, &from->published);
	to->killed = from->killed;
	to->locks.n = 0;
	for (int i = 0; i < from->locks.n; i++)
		ss_add(&to->locks, from->locks.v[i]);
	to->threads = from->threads;
	to->calm = from->calm;
	to->spawned = from->spawned;
	to->running.n = 0;
	is_union(&to->running, &from->running);
	to->mb_before_rmw = from->mb_before_rmw;
	to->after_rmw = from->after_rmw;
}

/* Merges FROM into the block-entry state TO; returns whether TO changed. */
int state_merge(struct state *to, const struct state *from)
{
	int changed = 0;

	if (!from->reached)
		return 0;
	if (!to->reached) {
		state_copy(to, from);
		return 1;
	}
	changed |= es_union(&to->pend_plain, &from->pend_plain);
	changed |= es_union(&to->pend_reads, &from->pend_reads);
	changed |= es_union(&to->seen_plain, &from->seen_plain);
	changed |= es_union(&to->seen_reads, &from->seen_reads);
	changed |= es_union(&to->pend_mdata, &from->pend_mdata);
	changed |= es_union(&to->seen_mdata, &from->seen_mdata);
	changed |= es_union(&to->published, &from->published);
	for (int i = 0; i < from->fenced.n; i++)
		changed |= fs_add(&to->fenced, from->fenced.v[i].plain, from->fenced.v[i].fence);
	if ((to->killed & from->killed) != to->killed) {
		to->killed &= from->killed;
		changed = 1;
	}
	for (int i = 0; i < to->locks.n; i++)
		if (!ss_has(&from->locks, to->locks.v[i])) {
			to->locks.v[i--] = to->locks.v[--to->locks.n];
			changed = 1;
		}
	if (from->threads > to->threads) {
		to->threads = from->threads;
		changed = 1;
	}
	if (to->calm && !from->calm) {
		to->calm = 0;
		changed = 1;
	}
	if (from->spawned && !to->spawned) {
		to->spawned = 1;
		changed = 1;
	}
	changed |= is_union(&to->running, &from->running);
	if (to->mb_before_rmw && !from->mb_before_rmw) {
		to->mb_before_rmw = 0;
		changed = 1;
	}
	if (to->after_rmw && !from->after_rmw) {
		to->after_rmw = 0;
		changed = 1;
	}
	return changed;
}

/* Can no other thread be running in state S? */
int quiet(const struct state *s)
{
	return s->threads != THREADS_RUNNING;
}

/* Does plain access E initialise memory fresh from an allocator, that no
 * other thread can reach yet (fresh.c, extract_fresh.c)?  Such
 * an access may still be published too early (writer side), but it races
 * with nothing before its publication: it is no reader-side access, no
 * racing access and no lockset member. */
int is_new(const struct event *e)
{
	return e->fresh_init;
}

int same_object(const struct event *a, const struct event *b)
{
	return a->oid >= 0 && a->oid == b->oid;
}

/* Do items X and Y name one source, exactly (kind, number, local, name)? */
static int same_item(const struct dep_item *x, const struct dep_item *y)
{
	return x->kind == y->kind && x->n == y->n && x->local == y->local &&
	       (x->name == y->name || (x->name && y->name && strcmp(x->name, y->name) == 0));
}

/* Does every address item of A stand among B's address items? */
static int addresses_within(const struct event *a, const struct event *b)
{
	for (int i = 0; i < a->deps.n; i++) {
		int found = a->deps.v[i].role != DEP_ADDRESS;

		for (int k = 0; k < b->deps.n && !found; k++)
			found = b->deps.v[k].role == DEP_ADDRESS && same_item(&a->deps.v[i], &b->deps.v[k]);
		if (!found)
			return 0;
	}
	return 1;
}

/* Do A and B, two accesses of one function, name one location: the same
 * object through the same address items (entry->tid and entry->tid)? */
static int same_location(const struct event *a, const struct event *b)
{
	return same_object(a, b) && a->func == b->func && addresses_within(a, b) && addresses_within(b, a);
}

void subsume_reads(struct state *s, const struct event *w)
{
	int kept = 0;

	/* (the survivors moved down in one pass, as kill_plain does) */
	for (int i = 0; i < s->pend_plain.n; i++) {
		struct event *r = s->pend_plain.v[i];

		if (r->access != ACC_READ || !same_location(r, w))
			s->pend_plain.v[kept++] = r;
	}
	s->pend_plain.n = kept;
}

/* Orders pending plain accesses whose type KILL covers; a fence barrier
 * FENCE is remembered for the unpaired-barrier check.  (The survivors are
 * moved down in one pass: removing each killed access on its own moved
 * the rest of the set each time, a tenth of the solver on Open vSwitch.)
 * Pending marked data stores are left: the caller is a marked access,
 * whose own order covers them only up to itself (see kill_plain). */
void kill_plain_only(struct state *s, unsigned kill, struct event *fence)
{
	int kept = 0;

	if (!kill)
		return;
	for (int i = 0; i < s->pend_plain.n; i++) {
		struct event *p = s->pend_plain.v[i];

		if (kill & (1u << p->access)) {
			if (fence && p->access != ACC_READ)
				fs_add(&s->fenced, p, fence);
		} else {
			s->pend_plain.v[kept++] = p;
		}
	}
	s->pend_plain.n = kept;
	s->killed |= kill;
}

/* The same, for a fence, a lock operation or a call: it orders the
 * pending marked data stores too when KILL covers writes. */
void kill_plain(struct state *s, unsigned kill, struct event *fence)
{
	kill_plain_only(s, kill, fence);
	if (kill & (1u << ACC_WRITE))
		s->pend_mdata.n = 0;
}

/* An acquire read of F supersedes earlier reads of F: what follows is
 * guarded by the value the acquire returned (a test-and-test-and-set
 * lock spins with READ_ONCE, then takes the lock with an acquire RMW). */
void kill_reads_of(struct state *s, const struct event *acquire)
{
	int kept = 0;

	for (int i = 0; i < s->pend_reads.n; i++)
		if (s->pend_reads.v[i]->oid != acquire->oid)
			s->pend_reads.v[kept++] = s->pend_reads.v[i];
	s->pend_reads.n = kept;
}

void kill_reads(struct state *s)
{
	s->pend_reads.n = 0;
	s->killed |= K_READER;
}

void spawn(struct state *s)
{
	s->threads = THREADS_RUNNING;
	s->calm = 0;
	s->spawned = 1;
}
