/* bl_fifo.h — SPSC fifo with release/acquire in static inline helpers. */
#ifndef BL_FIFO_H
#define BL_FIFO_H
#include <kcsan/lkmm.h>

#define BF_SZ 8

struct bf_rec {
	int id;
	int len;
};

struct bf_fifo {
	struct bf_rec rec[BF_SZ];
	unsigned int tail;
};

static inline void bf_push(struct bf_fifo *f, unsigned int t, int id, int len)
{
	f->rec[t % BF_SZ].id = id;
	f->rec[t % BF_SZ].len = len;
	smp_store_release(&f->tail, t + 1);
}

static inline int bf_avail(struct bf_fifo *f, unsigned int head)
{
	return smp_load_acquire(&f->tail) != head;
}
#endif
