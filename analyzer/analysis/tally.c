/* analyzer/analysis/tally.c — how the whole tree accesses each object
 * (struct object_tally, dataflow.h): the counts a finding shows as
 * evidence ("'x' is accessed marked at 9 sites, plain at 1") and that tell
 * a flag from a counter, and each object's marked writes (a plain flag's
 * marked writers, pairing.c).
 *
 * Each access event of the tree's functions counts once; the copies the
 * analysis makes of a callee's events for one call (clones) are not
 * sites of their own and are not counted. */
#include "internal.h"

int event_step(const struct event *e, long long *k)
{
	for (int i = 0; i < e->conds.n; i++)
		if (e->conds.v[i].kind == DEP_STEP) {
			*k = e->conds.v[i].value;
			return 1;
		}
	return 0;
}

/* Is E an arithmetic read-modify-write: an add, subtract, increment or
 * decrement (atomic_fetch_add, uatomic_inc, ck_pr_faa_uint, __sync_fetch_
 * and_sub, x++ on an _Atomic), or a compare-and-swap that stores what it
 * expected plus a constant (a reference count's increment if not zero)?
 * Its value is a count, an id or an index: unlike an exchange, another
 * compare-and-swap or a bit operation, it carries no value a reader waits
 * for, and two threads' increments are two different RMWs, which order
 * nothing between them.  The vocabulary names primitives, not their
 * arithmetic, so the name says it. */
int counting_rmw(const struct event *e)
{
	static const char *const words[] = { "add", "sub", "inc", "dec", "faa", "fas_add" };
	const char *n = e->name;
	long long k;

	if (e->access != ACC_RMW)
		return 0;
	if (!n || strcmp(n, "_Atomic") == 0 || event_step(e, &k))
		return 1;       /* x++, x += n on an _Atomic object */
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strstr(n, words[i]))
			return 1;
	return 0;
}

int increments(const struct event *e)
{
	static const char *const down[] = { "sub", "dec" }, *const up[] = { "add", "inc", "faa" };
	const char *n = e->name;
	long long k;

	if (!counting_rmw(e))
		return 0;
	if (event_step(e, &k))
		return k > 0;
	if (!n)
		return 0;        /* x++ or x-- on an _Atomic: not told apart */
	for (size_t i = 0; i < sizeof down / sizeof *down; i++)
		if (strstr(n, down[i]))
			return 0;
	for (size_t i = 0; i < sizeof up / sizeof *up; i++)
		if (strstr(n, up[i]))
			return 1;
	return 0;
}

/* Is E a marked store of the constant 0 (atomic_set(&n, 0), WRITE_ONCE(n,
 * 0))?  A count starts again from zero between rounds (a barrier's arrival
 * counter, a tally of initialisations): that zero is the count's start, not
 * a value a reader waits for, and publishes nothing (restarts_a_count).
 * The stored value is the primitive's second argument, as every store
 * primitive of the vocabulary spells it (object first, value second). */
int stores_zero(const struct event *e)
{
	const char *v = e->argv.n >= 2 ? e->argv.v[1] : NULL;

	if (e->access != ACC_WRITE || !v)
		return 0;
	while (*v == ' ' || *v == '(')
		v++;
	if (*v++ != '0')
		return 0;
	v += strspn(v, "uUlL");
	while (*v == ' ' || *v == ')')
		v++;
	return *v == '\0';
}

static int releases(enum ord o)
{
	return o == ORD_RELEASE || o == ORD_ACQ_REL || o == ORD_FULL;
}

static int acquires(enum ord o)
{
	return o == ORD_ACQUIRE || o == ORD_ACQ_REL || o == ORD_FULL;
}

/* Fills a->mwrites and a->mw_start: the tree's marked writes and RMWs
 * grouped by object, placed by the counts the tallies already hold
 * (stores and RMWs are the marked writes). */
static void build_marked_writes(struct analysis *a)
{
	int *fill = xmalloc(((size_t)a->nobjects + 1) * sizeof *fill);

	a->mw_start = xcalloc((size_t)a->nobjects + 1, sizeof *a->mw_start);
	for (int oid = 0; oid < a->nobjects; oid++) {
		const struct object_tally *t = &a->tallies[oid];

		fill[oid] = a->mw_start[oid];
		a->mw_start[oid + 1] = a->mw_start[oid] + t->stores + t->inits + t->counting_rmws + t->other_rmws;
	}
	a->mwrites = xcalloc((size_t)a->mw_start[a->nobjects] + 1, sizeof *a->mwrites);
	for (int fi = 0; fi < a->nfns; fi++) {
		const struct function *f = &a->fns[fi];

		for (int b = 0; b < f->nblocks; b++)
			for (int k = 0; k < f->blocks[b].nevents; k++) {
				const struct event *e = &f->blocks[b].events[k];

				if (e->kind == EV_ACCESS && e->marked && (e->access == ACC_WRITE || e->access == ACC_RMW) &&
				    e->oid >= 0 && e->oid < a->nobjects)
					a->mwrites[fill[e->oid]++] = (struct marked_write){ e, f };
			}
	}
	free(fill);
}

void build_tallies(struct analysis *a)
{
	a->tallies = xcalloc((size_t)a->nobjects + 1, sizeof *a->tallies);
	for (int fi = 0; fi < a->nfns; fi++) {
		const struct function *f = &a->fns[fi];

		for (int b = 0; b < f->nblocks; b++)
			for (int k = 0; k < f->blocks[b].nevents; k++) {
				const struct event *e = &f->blocks[b].events[k];
				struct object_tally *t;

				if (e->kind != EV_ACCESS || e->oid < 0 || e->oid >= a->nobjects)
					continue;
				t = &a->tallies[e->oid];
				if (!e->marked) {
					t->plain++;
					t->polled += e->access == ACC_READ && e->sink == SINK_POLLED;
					continue;
				}
				t->marked++;
				if (e->access != ACC_READ && releases(e->ord))
					t->ordered_writes++;
				if (e->access != ACC_WRITE && acquires(e->ord))
					t->ordered_reads++;
				if (e->access == ACC_WRITE && e->ord == ORD_NONE) {
					t->inits++;      /* atomic_init(): no store of a value */
				} else if (e->access == ACC_WRITE) {
					t->stores++;
					t->resets += stores_zero(e);
				} else if (e->access == ACC_RMW && counting_rmw(e)) {
					t->counting_rmws++;
					t->increments += increments(e);
				} else if (e->access == ACC_RMW) {
					t->other_rmws++;
				}
			}
	}
	build_marked_writes(a);
}

const struct marked_write *analysis_marked_writes(const struct analysis *a, int oid, int *n)
{
	if (oid < 0 || oid >= a->nobjects || !a->mw_start) {
		*n = 0;
		return NULL;
	}
	*n = a->mw_start[oid + 1] - a->mw_start[oid];
	return a->mwrites + a->mw_start[oid];
}

const struct object_tally *analysis_tally(const struct analysis *a, int oid)
{
	static const struct object_tally none;

	return oid >= 0 && oid < a->nobjects && a->tallies ? &a->tallies[oid] : &none;
}
