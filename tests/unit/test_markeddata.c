/* tests/unit/test_markeddata.c — marked but unordered data (issue 12, shape
 * 1; analysis/transfer.c, marked_data_check and reader_check): data
 * written and read with marked but relaxed accesses (WRITE_ONCE,
 * READ_ONCE, relaxed atomics) is published by a flag as plain data is, and
 * needs the same release and acquire.  A release or acquire-release
 * access orders what came before it before itself alone, so an exchange
 * between the data and a later relaxed flag orders nothing; a fence does.
 * A reader makes the data the flag's only when it reaches it through the
 * pointer the flag holds; a test of the flag alone is as often a tolerated
 * stale sample.  Real scans, through scan_helper.c. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scan_helper.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\n"

/* Samples filled with marked stores and published by a store of a pointer
 * to them; the reader follows the pointer.  FILL and PUBLISH are the
 * writer's statements, FOLLOW the reader's load of the pointer. */
#define SAMPLE(fill, publish, follow)                                                               \
	HEAD "struct sample { long value; long twice; } slots[4]; struct sample *cur; int turn;\n"  \
	"static void *writer(void *a) { for (int i = 1; i < 100; i++) { struct sample *s = &slots[i % 4];\n" \
	"  " fill "\n"                                                                               \
	"  " publish " } return a; }\n"                                                              \
	"static void *reader(void *a) { long torn = 0;\n"                                           \
	"  for (int i = 0; i < 100; i++) { struct sample *s = " follow ";\n"                         \
	"    if (s) torn += READ_ONCE(s->twice) != 2 * READ_ONCE(s->value); }\n"                     \
	"  return (void *)torn; }\n"                                                                \
	"int main(void) { pthread_t w, r; pthread_create(&r, 0, reader, 0);\n"                      \
	"  pthread_create(&w, 0, writer, 0); pthread_join(w, 0); pthread_join(r, 0); return 0; }\n"

Test(markeddata, relaxed_data_published_by_a_relaxed_pointer_store_is_reported)
{
	expect_one(SAMPLE("WRITE_ONCE(s->value, i); /*W*/", "WRITE_ONCE(cur, s);", "READ_ONCE(cur)"));
	cr_assert(strstr(last_findings_text(), "relaxed write to 's->value' is not ordered before the write of 'cur'"),
		  "%s", last_findings_text());
}

Test(markeddata, a_release_store_of_the_pointer_orders_the_data)
{
	expect_one(SAMPLE("WRITE_ONCE(s->value, i);", "smp_store_release(&cur, s);", "READ_ONCE(cur)"));
}

Test(markeddata, a_write_fence_between_orders_the_data)
{
	expect_one(SAMPLE("WRITE_ONCE(s->value, i);", "smp_wmb(); WRITE_ONCE(cur, s);", "READ_ONCE(cur)"));
}

/* (a fence after the publication orders nothing before it) */
Test(markeddata, a_write_fence_after_the_pointer_store_orders_nothing)
{
	expect_one(SAMPLE("WRITE_ONCE(s->value, i); /*W*/", "WRITE_ONCE(cur, s); smp_wmb();", "READ_ONCE(cur)"));
}

/* The reader's acquire cannot make up for the writer's missing release. */
Test(markeddata, an_acquire_on_the_reader_leaves_the_writer_reported)
{
	expect_one(SAMPLE("WRITE_ONCE(s->value, i); /*W*/", "WRITE_ONCE(cur, s);", "smp_load_acquire(&cur)"));
}

/* An acquire-release exchange of another word between the data and the
 * pointer orders the data before the exchange, not before the pointer.
 * (The reader acquires the pointer: a C11 relaxed load would leave the
 * reads through it unordered too, test_c11model.c.) */
Test(markeddata, an_acq_rel_exchange_between_data_and_flag_orders_nothing)
{
	expect_one(SAMPLE("__atomic_store_n(&s->value, i, __ATOMIC_RELAXED); /*W*/ "
			  "(void)__atomic_exchange_n(&turn, i, __ATOMIC_ACQ_REL);",
			  "__atomic_store_n(&cur, s, __ATOMIC_RELAXED);", "__atomic_load_n(&cur, __ATOMIC_ACQUIRE)"));
}

/* A fully ordered exchange (smp_mb() before and after) does. */
Test(markeddata, a_fully_ordered_exchange_between_data_and_flag_orders_it)
{
	expect_one(SAMPLE("WRITE_ONCE(s->value, i); (void)xchg(&turn, i);", "WRITE_ONCE(cur, s);", "READ_ONCE(cur)"));
}

/* A flag tested alone says nothing of the reader relying on the order:
 * the data is not reached through it (if (READ_ONCE(ready)) v =
 * READ_ONCE(data)).  Left to the reviewer: no finding. */
Test(markeddata, a_flag_tested_alone_does_not_make_the_data_its_own)
{
	expect_one(HEAD "long data; int ready;\n"
		   "static void *writer(void *a) { WRITE_ONCE(data, 42); WRITE_ONCE(ready, 1); return a; }\n"
		   "static void *reader(void *a) { long v = 0; if (READ_ONCE(ready)) v = READ_ONCE(data);\n"
		   "  return (void *)v; }\n"
		   "int main(void) { pthread_t w, r; pthread_create(&r, 0, reader, 0);\n"
		   "  pthread_create(&w, 0, writer, 0); pthread_join(w, 0); pthread_join(r, 0); return 0; }\n");
}

/* Statistics sampled after a test of a latch, their values never related
 * to the latch's: a stale pair is what the reader tolerates (corpus 78). */
Test(markeddata, a_latch_tested_alone_does_not_make_the_data_its_own)
{
	expect_one(HEAD "struct st { long events, last; int updated; } c;\n"
		   "static void *producer(void *a) { for (long i = 1; i < 100; i++) {\n"
		   "  WRITE_ONCE(c.events, i); WRITE_ONCE(c.last, i); WRITE_ONCE(c.updated, 1); } return a; }\n"
		   "static void *sampler(void *a) { long mixed = 0;\n"
		   "  for (int i = 0; i < 100; i++) if (READ_ONCE(c.updated)) {\n"
		   "    long e = READ_ONCE(c.events); long l = READ_ONCE(c.last); mixed += e != l; }\n"
		   "  return (void *)mixed; }\n"
		   "int main(void) { pthread_t p, s; pthread_create(&s, 0, sampler, 0);\n"
		   "  pthread_create(&p, 0, producer, 0); pthread_join(p, 0); pthread_join(s, 0); return 0; }\n");
}

/* An MCS-style queue: the node's relaxed "locked" store, then the node
 * linked behind its predecessor with a relaxed store; the predecessor
 * reaches the node through the link and hands the lock over (UNLOCK, the
 * body of unlock(me)). */
#define MCS_WITH(link_order, unlock)                                                                \
	"struct q { struct q *next; int locked; };\n"                                               \
	"struct q *tail; struct q nodes[2]; long counter;\n"                                        \
	"static void lock(struct q *me) { struct q *prev;\n"                                        \
	"  __atomic_store_n(&me->locked, 1, __ATOMIC_RELAXED); %s\n"                                \
	"  __atomic_store_n(&me->next, (struct q *)0, __ATOMIC_RELAXED);\n"                        \
	"  prev = __atomic_exchange_n(&tail, me, __ATOMIC_ACQ_REL);\n"                              \
	"  if (!prev) return;\n"                                                                    \
	"  __atomic_store_n(&prev->next, me, " link_order ");\n"                                    \
	"  while (__atomic_load_n(&me->locked, __ATOMIC_ACQUIRE)) ; }\n"                            \
	"static void unlock(struct q *me) {\n" unlock "}\n"                                         \
	"static void *worker(void *a) { struct q *me = &nodes[(long)a];\n"                          \
	"  for (int i = 0; i < 100; i++) { lock(me); counter++; unlock(me); } return a; }\n"        \
	"int main(void) { pthread_t t[2]; for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, (void *)i);\n" \
	"  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

/* The unlock that keeps the successor it loaded. */
#define MCS(link_order) MCS_WITH(link_order,                                                        \
	"  struct q *next = __atomic_load_n(&me->next, __ATOMIC_ACQUIRE);\n"                        \
	"  if (!next) { struct q *exp = me;\n"                                                      \
	"    if (__atomic_compare_exchange_n(&tail, &exp, (struct q *)0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) return;\n" \
	"    while (!(next = __atomic_load_n(&me->next, __ATOMIC_ACQUIRE))) ; }\n"                  \
	"  __atomic_store_n(&next->locked, 0, __ATOMIC_RELEASE);\n")

/* The MCS source with the link stored RELAXED or not (then RELEASE), the
 * marker MARKER on the node's locked store. */
static const char *mcs(int relaxed, const char *marker)
{
	static char buf[4096];

	if (relaxed)
		snprintf(buf, sizeof buf, "#include <pthread.h>\n" MCS("__ATOMIC_RELAXED"), marker);
	else
		snprintf(buf, sizeof buf, "#include <pthread.h>\n" MCS("__ATOMIC_RELEASE"), marker);
	return buf;
}

Test(markeddata, an_mcs_node_linked_with_a_relaxed_store_is_reported)
{
	expect_one(mcs(1, "/*W*/"));
	cr_assert(strstr(last_findings_text(), "relaxed write to 'me->locked' is not ordered before the write of 'prev->next'"),
		  "%s", last_findings_text());
}

Test(markeddata, an_mcs_node_linked_with_a_release_is_no_finding)
{
	expect_one(mcs(0, ""));
}

/* DPDK's unlock (rte_mcslock.h before 021b698e): it tests the link with
 * relaxed loads and then hands the lock over through a plain re-read of
 * it, me->next->locked.  By coherence the re-read finds the node the
 * relaxed load found (or a later one): the node is still reached through
 * the link.  LINK_ORDER is the order of the link's store.  The relaxed
 * loads are C11's, which order nothing through the link (DPDK's 8357af1
 * made them acquires): the hand-over is also the reader side of the
 * node's initialisation, marked on the unlock's last line. */
#define MCS_REREAD(link_order) MCS_WITH(link_order,                                                 \
	"  if (__atomic_load_n(&me->next, __ATOMIC_RELAXED) == 0) { struct q *exp = me;\n"         \
	"    if (__atomic_compare_exchange_n(&tail, &exp, (struct q *)0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) return;\n" \
	"    while (__atomic_load_n(&me->next, __ATOMIC_RELAXED) == 0) ; }\n"                      \
	"  __atomic_store_n(&me->next->locked, 0, __ATOMIC_RELEASE); /*R*/\n")

Test(markeddata, a_plain_reread_of_the_link_still_reaches_the_node)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "#include <pthread.h>\n" MCS_REREAD("__ATOMIC_RELAXED"), "/*W*/");
	expect_one(buf);
}

/* (the writer side ordered by the release link; the C11 reader side stays) */
Test(markeddata, a_plain_reread_with_the_link_released_leaves_the_writer_ordered)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "#include <pthread.h>\n" MCS_REREAD("__ATOMIC_RELEASE"), "");
	expect_one(buf);
}

/* A reader that stores a value computed from the flag (WRITE_ONCE(d, v + 1)
 * after v = READ_ONCE(f)) does not reach D through the flag: the data
 * dependency orders its store, but says nothing of D being the flag's. */
Test(markeddata, storing_the_flags_value_does_not_make_the_data_the_flags)
{
	expect_one(HEAD "long d; long f;\n"
		   "static void *writer(void *a) { for (long i = 1; i < 100; i++) { WRITE_ONCE(d, i); WRITE_ONCE(f, i); }\n"
		   "  return a; }\n"
		   "static void *reader(void *a) { long v = READ_ONCE(f); WRITE_ONCE(d, v + 1); return a; }\n"
		   "int main(void) { pthread_t w, r; pthread_create(&r, 0, reader, 0);\n"
		   "  pthread_create(&w, 0, writer, 0); pthread_join(w, 0); pthread_join(r, 0); return 0; }\n");
}
