/* analyzer/analysis/sets.c — the sets the dataflow keeps (sets.h): events,
 * plain accesses with the fence that ordered them, exposed events, and
 * lock names. */
#include "sets.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/model/facts.h"
#include "analyzer/model/items.h"

/* Event sets (and the fence and exposure sets) are kept sorted by the
 * events' tree-wide numbers (gid), so that membership is a binary search
 * and union a merge: big functions have hundreds of accesses and the
 * fixpoint unions sets at every edge.  Every such array holds elements
 * STRIDE bytes long that start with a struct event pointer; this is the
 * first position whose event's number is not below GID. */
static int lower_bound_gid(const void *base, int n, size_t stride, int gid)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		const struct event *e = *(struct event *const *)((const char *)base + (size_t)mid * stride);

		if (e->gid < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Debug builds (KCSAN_DEBUG: the sanitizer build of make check) check
 * after every change what the binary searches rely on: the numbers rise
 * strictly along the array. */
#ifdef KCSAN_DEBUG
#include <assert.h>
static void check_sorted(const void *base, int n, size_t stride)
{
	for (int i = 1; i < n; i++)
		assert((*(struct event *const *)((const char *)base + (size_t)(i - 1) * stride))->gid <
		       (*(struct event *const *)((const char *)base + (size_t)i * stride))->gid);
}
#else
#define check_sorted(base, n, stride) ((void)0)
#endif

static int es_find(const struct evset *s, int gid, int *pos)
{
	int lo = lower_bound_gid(s->v, s->n, sizeof *s->v, gid);

	*pos = lo;
	return lo < s->n && s->v[lo]->gid == gid;
}

int es_has(const struct evset *s, const struct event *e)
{
	int pos;

	return es_find(s, e->gid, &pos);
}

int es_index(const struct evset *s, const struct event *e)
{
	int pos;

	return es_find(s, e->gid, &pos) ? pos : -1;
}

int es_add(struct evset *s, struct event *e)
{
	int pos;

	if (es_find(s, e->gid, &pos))
		return 0;
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	memmove(s->v + pos + 1, s->v + pos, (size_t)(s->n - pos) * sizeof *s->v);
	s->v[pos] = e;
	s->n++;
	check_sorted(s->v, s->n, sizeof *s->v);
	return 1;
}

int es_union(struct evset *into, const struct evset *from)
{
	int i = 0, j = 0, added = 0, to;

	if (from->n == 0 || into == from)
		return 0;
	/* Count FROM's events that INTO lacks, in one walk of both sorted
	 * arrays: most unions at a fixpoint add nothing, and then nothing is
	 * allocated or written.  (The same pointer is the same event: its
	 * number need not be read, which is a cache miss per event.) */
	while (j < from->n) {
		if (i < into->n && into->v[i] == from->v[j])
			i++, j++;
		else if (i < into->n && into->v[i]->gid < from->v[j]->gid)
			i++;
		else if (i < into->n && into->v[i]->gid == from->v[j]->gid)
			i++, j++;
		else
			added++, j++;
	}
	if (added == 0)
		return 0;
	/* Merge in place from the back, into room grown geometrically: a
	 * block's entry set that grows a little at each merge is not copied
	 * whole into a new array each time (state_merge on Open vSwitch: 1.08
	 * s of the leader's time before, 0.92 s after). */
	grow(&into->v, &into->cap, into->n + added, sizeof *into->v);
	i = into->n - 1;
	j = from->n - 1;
	to = into->n + added - 1;
	while (j >= 0) {
		if (i >= 0 && into->v[i] == from->v[j])
			into->v[to--] = into->v[i--], j--;
		else if (i >= 0 && into->v[i]->gid > from->v[j]->gid)
			into->v[to--] = into->v[i--];
		else if (i >= 0 && into->v[i]->gid == from->v[j]->gid)
			into->v[to--] = into->v[i--], j--;
		else
			into->v[to--] = from->v[j--];
	}
	into->n += added;
	check_sorted(into->v, into->n, sizeof *into->v);
	return 1;
}

static int event_gid_cmp(const void *a, const void *b)
{
	int ga = (*(struct event *const *)a)->gid, gb = (*(struct event *const *)b)->gid;

	return (ga > gb) - (ga < gb);
}

void es_sort_unique(struct evset *s)
{
	int n = 0;

	if (s->n > 1)
		qsort(s->v, (size_t)s->n, sizeof *s->v, event_gid_cmp);
	for (int i = 0; i < s->n; i++)
		if (n == 0 || s->v[n - 1] != s->v[i])
			s->v[n++] = s->v[i];
	s->n = n;
	check_sorted(s->v, s->n, sizeof *s->v);
}

void es_copy(struct evset *to, const struct evset *from)
{
	grow(&to->v, &to->cap, from->n, sizeof *to->v);
	if (from->n)    /* an empty set may have no array at all */
		memcpy(to->v, from->v, (size_t)from->n * sizeof *to->v);
	to->n = from->n;
}

void es_remove_at(struct evset *s, int i)
{
	memmove(s->v + i, s->v + i + 1, (size_t)(s->n - i - 1) * sizeof *s->v);
	s->n--;
}

static int fs_lower_bound(const struct fset *s, const struct event *p)
{
	return lower_bound_gid(s->v, s->n, sizeof *s->v, p->gid);
}

/* Remembers the fence that ordered plain write P: one per write (the
 * first wins). */
int fs_add(struct fset *s, struct event *p, struct event *f)
{
	int lo = fs_lower_bound(s, p);

	if (lo < s->n && s->v[lo].plain == p)
		return 0;
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	memmove(s->v + lo + 1, s->v + lo, (size_t)(s->n - lo) * sizeof *s->v);
	s->v[lo].plain = p;
	s->v[lo].fence = f;
	s->n++;
	check_sorted(s->v, s->n, sizeof *s->v);
	return 1;
}

struct event *fs_fence(const struct fset *s, const struct event *p)
{
	int lo = fs_lower_bound(s, p);

	return lo < s->n && s->v[lo].plain == p ? s->v[lo].fence : NULL;
}

/* Exposed events are kept sorted by number, like the event sets. */
void xs_add(struct xset *s, struct event *e, unsigned killed)
{
	int lo = lower_bound_gid(s->v, s->n, sizeof *s->v, e->gid);

	if (lo < s->n && s->v[lo].e == e) {
		s->v[lo].killed_before &= killed;
		return;
	}
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	memmove(s->v + lo + 1, s->v + lo, (size_t)(s->n - lo) * sizeof *s->v);
	s->v[lo].e = e;
	s->v[lo].killed_before = killed;
	s->n++;
	check_sorted(s->v, s->n, sizeof *s->v);
}

static int exposed_cmp(const void *a, const void *b)
{
	int ga = ((const struct exposed *)a)->e->gid, gb = ((const struct exposed *)b)->e->gid;

	return (ga > gb) - (ga < gb);
}

/* Is S in the order of a set (strictly rising numbers, so no event twice)? */
static int xs_in_order(const struct xset *s)
{
	for (int i = 1; i < s->n; i++)
		if (s->v[i - 1].e->gid >= s->v[i].e->gid)
			return 0;
	return 1;
}

/* As xs_add for every element of FROM in turn, KILLED added to its own
 * orderings, but in one merge: a call applies a callee's exposed set, of
 * thousands of events in a big tree, and inserting them one at a time
 * into a sorted array moved the array once per event (quadratic: most of
 * the whole-tree analysis of Open vSwitch's lib/).  FROM need not be
 * sorted (a call view keeps its callee's order, with a copy on the
 * caller's object where the callee's event was); it is sorted here, on a
 * copy, only when it is not; the result does not depend on the order,
 * since orderings of one event combine by intersection. */
void xs_union(struct xset *into, const struct xset *from, unsigned killed)
{
	struct exposed *add = from->v, *merged;
	int na = from->n, i = 0, j = 0, n = 0;

	if (from->n == 0)
		return;
	if (!xs_in_order(from)) {
		add = xmalloc((size_t)from->n * sizeof *add);
		memcpy(add, from->v, (size_t)from->n * sizeof *add);
		qsort(add, (size_t)from->n, sizeof *add, exposed_cmp);
		na = 0;
		for (int k = 0; k < from->n; k++) {
			if (na > 0 && add[na - 1].e == add[k].e)
				add[na - 1].killed_before &= add[k].killed_before;
			else
				add[na++] = add[k];
		}
	}
	merged = xmalloc((size_t)(into->n + na) * sizeof *merged);
	while (i < into->n || j < na) {
		if (j >= na || (i < into->n && into->v[i].e->gid < add[j].e->gid)) {
			merged[n++] = into->v[i++];
		} else if (i >= into->n || add[j].e->gid < into->v[i].e->gid) {
			merged[n].e = add[j].e;
			merged[n++].killed_before = add[j++].killed_before | killed;
		} else {
			merged[n] = into->v[i++];
			merged[n++].killed_before &= add[j++].killed_before | killed;
		}
	}
	if (add != from->v)
		free(add);
	free(into->v);
	into->v = merged;
	into->n = n;
	into->cap = n > 0 ? n : 0;
	check_sorted(into->v, into->n, sizeof *into->v);
}

int ss_has(const struct strset *s, const char *k)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->v[i], k) == 0)
			return 1;
	return 0;
}

void ss_add(struct strset *s, char *k)
{
	if (ss_has(s, k))
		return;
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	s->v[s->n++] = k;
}

/* Unlocking K releases it whether it was held exclusively or shared. */
void ss_remove_lock(struct strset *s, const char *k)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->v[i], k) == 0 ||
		    (object_is_shared(s->v[i]) && strcmp(object_unshared(s->v[i]), k) == 0))
			s->v[i--] = s->v[--s->n];
}

/* Are two event sets, or two exposed sets, the same?  Both are kept sorted
 * by gid, so the same set is the same array. */
int es_same(const struct evset *a, const struct evset *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, (size_t)a->n * sizeof *a->v) == 0);
}

int xs_same(const struct xset *a, const struct xset *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->v[i].e != b->v[i].e || a->v[i].killed_before != b->v[i].killed_before)
			return 0;
	return 1;
}

int is_add(struct intset *s, int k)
{
	int pos = 0;

	while (pos < s->n && s->v[pos] < k)
		pos++;
	if (pos < s->n && s->v[pos] == k)
		return 0;
	grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
	memmove(s->v + pos + 1, s->v + pos, (size_t)(s->n - pos) * sizeof *s->v);
	s->v[pos] = k;
	s->n++;
	return 1;
}

int is_union(struct intset *into, const struct intset *from)
{
	int grew = 0;

	for (int i = 0; i < from->n; i++)
		grew |= is_add(into, from->v[i]);
	return grew;
}

int is_same(const struct intset *a, const struct intset *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, (size_t)a->n * sizeof *a->v) == 0);
}
