/* analyzer/findings/orderpath.c — paths of one function on which nothing
 * orders two accesses (orderpath.h).
 *
 * What may order them: a full barrier (smp_mb(), a sequentially consistent
 * fence, a grace period), a read barrier or an acquire fence between two
 * reads, a write barrier or a release fence between two writes, a fully
 * ordered RMW, smp_mb__before_atomic() before an RMW and
 * smp_mb__after_atomic() after one; and any call or lock operation, which
 * may hold a barrier (taken as one: a finding that rests on a path must
 * not rest on a callee not looked into). */
#include "orderpath.h"

#include <stdlib.h>

int point_of(const struct function *f, const struct event *e, struct point *p)
{
	for (int i = 0; i < f->nblocks; i++)
		if (f->blocks[i].nevents && e >= f->blocks[i].events && e < f->blocks[i].events + f->blocks[i].nevents) {
			p->b = i;
			p->k = (int)(e - f->blocks[i].events);
			return 1;
		}
	return 0;
}

struct point entry_point(const struct function *f)
{
	return (struct point){ f->entry, -1 };
}

int acquire_or_stronger(const struct event *e)
{
	return e->marked && (e->ord == ORD_ACQUIRE || e->ord == ORD_ACQ_REL || e->ord == ORD_FULL);
}

int release_or_stronger(const struct event *e)
{
	return e->marked && (e->ord == ORD_RELEASE || e->ord == ORD_ACQ_REL || e->ord == ORD_FULL);
}

int fully_ordered(const struct event *e)
{
	return e->marked && e->ord == ORD_FULL;
}

/* May E, met between the two accesses of Q, order them? */
static int orders(const struct event *e, const struct order_ask *q)
{
	switch (e->kind) {
	case EV_CALL: case EV_LOCK: case EV_UNLOCK:
		return 1;
	case EV_ACCESS:
		return e->marked && e->ord == ORD_FULL;
	case EV_BARRIER:
		switch (e->ord) {
		case ORD_FULL: case ORD_GRACE: case ORD_ACQ_REL:
			return 1;
		case ORD_RMB: case ORD_ACQUIRE:
			return !q->stores;
		case ORD_WMB: case ORD_RELEASE:
			return q->stores;
		case ORD_BEFORE_RMW:
			return q->second->access == ACC_RMW;
		case ORD_AFTER_RMW:
			return q->first->access == ACC_RMW;
		default:
			return 0;
		}
	default:
		return 0;
	}
}

/* Does an event of block B of F at places FROM .. TO - 1 order Q? */
static int ordered_in(const struct function *f, int b, int from, int to, const struct order_ask *q)
{
	for (int k = from < 0 ? 0 : from; k < to && k < f->blocks[b].nevents; k++)
		if (orders(&f->blocks[b].events[k], q))
			return 1;
	return 0;
}

/* Is block B a way out of F (its exit, or a block nothing follows)? */
static int way_out(const struct function *f, int b)
{
	return b == f->exit || f->blocks[b].nsucc == 0;
}

int unordered_path(const struct function *f, struct point from, const struct point *to, const struct order_ask *q)
{
	int head = 0, tail = 0, found = 0;
	unsigned char *seen;
	int *queue;

	if (from.b < 0 || from.b >= f->nblocks)
		return 0;
	/* (inside one block a path is the block itself) */
	if (to && to->b == from.b && to->k > from.k)
		return !ordered_in(f, from.b, from.k + 1, to->k, q);
	if (ordered_in(f, from.b, from.k + 1, f->blocks[from.b].nevents, q))
		return 0;
	if (!to && way_out(f, from.b))
		return 1;
	seen = xcalloc((size_t)f->nblocks + 1, 1);
	queue = xcalloc((size_t)f->nblocks + 1, sizeof *queue);
	push_successors(f, from.b, seen, queue, &tail);
	while (head < tail && !found) {
		int b = queue[head++], target = to && b == to->b, back = b == from.b;
		int stop = target ? to->k : back ? from.k : f->blocks[b].nevents;
		int blocked = ordered_in(f, b, 0, stop, q);

		if (target || back) {
			found = target && !blocked;
			continue;   /* (paths end at TO, or back at FROM) */
		}
		if (blocked)
			continue;
		if (!to && way_out(f, b)) {
			found = 1;
			continue;
		}
		push_successors(f, b, seen, queue, &tail);
	}
	free(seen);
	free(queue);
	return found;
}
