/*
 * tests/header/strict.c — kcsan/lkmm.h in strict ISO C11 mode (-std=c11
 * -Wpedantic) and under the stricter warnings projects often enable
 * (-Wshadow -Wconversion -Wsign-conversion -Wcast-qual -Wundef
 * -Wstrict-prototypes -Wmissing-prototypes ...): the header itself must add
 * no warning.  Compile-only.
 */
#include <kcsan/lkmm.h>

struct node {
	struct node *next;
	unsigned int seq;
	unsigned char tag;
	long val;
};

static struct node *head;
static atomic_t users = ATOMIC_INIT(0);
static unsigned long flags[2];

int strict_use(struct node *n);

int strict_use(struct node *n)
{
	struct node *old;
	unsigned int seq;
	int r = 0;

	WRITE_ONCE(n->val, 1L);
	WRITE_ONCE(n->tag, (unsigned char)2);
	n->seq = READ_ONCE(n->seq) + 1U;
	smp_wmb();
	do {
		old = READ_ONCE(head);
		n->next = old;
	} while (cmpxchg(&head, old, n) != old);
	old = xchg_release(&head, n);
	smp_store_release(&n->seq, 3U);
	seq = smp_load_acquire(&n->seq);
	smp_store_mb(n->tag, (unsigned char)4);
	r += data_race(n->tag) + (int)seq + (old != n);
	r += atomic_inc_return(&users) + atomic_fetch_or_acquire(1, &users);
	atomic_dec(&users);
	if (!test_and_set_bit_lock(1, flags)) {
		ASSERT_EXCLUSIVE_ACCESS(n->val);
		clear_bit_unlock(1, flags);
	}
	set_bit(65, flags);
	r += test_and_clear_bit(65, flags);
	smp_rmb();
	smp_mb__before_atomic();
	atomic_add(2, &users);
	smp_mb__after_atomic();
	return r + xchg(&r, 0);
}
