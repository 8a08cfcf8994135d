/* analyzer/analysis/held.c — the locks a function holds at each plain
 * access it reaches, its own and those its callees take (held.h).
 *
 * A function's lock records (records.c) hold the locks it holds itself
 * where it makes or calls towards an access.  A lock the callee takes
 * inside is the callee's: ck_hs_put() takes its single-writer lock and
 * calls ck_hs_map_postinsert(), so main() calling ck_hs_put() reaches
 * postinsert's n_entries++ holding that lock although main() holds
 * nothing.  The summary keeps, per access, the locks held at it on every
 * path through the function (an intersection over the places that reach
 * it), and a caller adds those of its callee to its own at the call.
 *
 * Entries are keyed by the access as the function's summary sets hold it
 * (a callee's access through a parameter is a clone, per call): a caller
 * maps its callee's entries through the call (through_call) before it
 * looks its own view's accesses up. */
#include "held.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static unsigned slot_of(int gid, int nslot)
{
	return ((unsigned)gid * 2654435761u) & (unsigned)(nslot - 1);
}

/* The entry of E in M, or -1. */
static int find(const struct heldmap *m, const struct event *e)
{
	if (!m->nslot)
		return -1;
	for (unsigned s = slot_of(e->gid, m->nslot);; s = (s + 1) & (unsigned)(m->nslot - 1)) {
		int i = m->slot[s];

		if (i < 0 || m->v[i].e == e)
			return i;
	}
}

/* Rebuilds the slots for M's entries, with room to grow. */
static void rehash(struct heldmap *m, int nslot)
{
	free(m->slot);
	m->nslot = nslot;
	m->slot = xmalloc((size_t)nslot * sizeof *m->slot);
	for (int s = 0; s < nslot; s++)
		m->slot[s] = -1;
	for (int i = 0; i < m->n; i++) {
		unsigned s = slot_of(m->v[i].e->gid, nslot);

		while (m->slot[s] >= 0)
			s = (s + 1) & (unsigned)(nslot - 1);
		m->slot[s] = i;
	}
}

/* Is LOCK held: in HELD, or in EXTRA's locks? */
static int holds(const struct strset *held, const struct held_entry *extra, const char *lock)
{
	if (ss_has(held, lock))
		return 1;
	for (int k = 0; extra && k < extra->n; k++)
		if (extra->locks[k] == lock || strcmp(extra->locks[k], lock) == 0)
			return 1;
	return 0;
}

void held_note(struct heldmap *m, const struct event *e, const struct strset *held,
	       const struct held_entry *extra)
{
	int i = find(m, e);
	struct held_entry *h;

	if (i >= 0) {
		/* another place that reaches E: what both hold */
		h = &m->v[i];
		for (int k = 0; k < h->n; k++)
			if (!holds(held, extra, h->locks[k]))
				h->locks[k--] = h->locks[--h->n];
		return;
	}
	if ((m->n + 1) * 2 > m->nslot)
		rehash(m, m->nslot ? m->nslot * 2 : 64);
	grow(&m->v, &m->cap, m->n + 1, sizeof *m->v);
	h = &m->v[m->n];
	h->e = e;
	h->n = 0;
	h->locks = xmalloc((size_t)(held->n + (extra ? extra->n : 0) + 1) * sizeof *h->locks);
	for (int k = 0; k < held->n; k++)
		h->locks[h->n++] = held->v[k];
	for (int k = 0; extra && k < extra->n; k++)
		if (!ss_has(held, extra->locks[k]))
			h->locks[h->n++] = extra->locks[k];
	{
		unsigned s = slot_of(e->gid, m->nslot);

		while (m->slot[s] >= 0)
			s = (s + 1) & (unsigned)(m->nslot - 1);
		m->slot[s] = m->n++;
	}
}

const struct held_entry *held_find(const struct heldmap *m, const struct event *e)
{
	int i = find(m, e);

	return i >= 0 ? &m->v[i] : NULL;
}

void held_compact(struct heldmap *m)
{
	int k = 0;

	for (int i = 0; i < m->n; i++) {
		if (m->v[i].n == 0) {
			free(m->v[i].locks);
			continue;
		}
		m->v[k++] = m->v[i];
	}
	m->n = k;
	if (k == 0) {
		held_free(m);
		return;
	}
	rehash(m, 64 > 4 * k ? 64 : 1 << (32 - __builtin_clz((unsigned)(4 * k - 1))));
}

int held_same(const struct heldmap *a, const struct heldmap *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++) {
		const struct held_entry *o = held_find(b, a->v[i].e);

		if (!o || o->n != a->v[i].n)
			return 0;
		for (int k = 0; k < o->n; k++) {
			int found = 0;

			for (int j = 0; j < a->v[i].n && !found; j++)
				found = strcmp(o->locks[k], a->v[i].locks[j]) == 0;
			if (!found)
				return 0;
		}
	}
	return 1;
}

void held_free(struct heldmap *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->v[i].locks);
	free(m->v);
	free(m->slot);
	memset(m, 0, sizeof *m);
}
