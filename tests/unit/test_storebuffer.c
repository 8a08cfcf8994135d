/* tests/unit/test_storebuffer.c — store buffering (issue 12, shape 3;
 * analyzer/findings/storebuffer.c): a store then a tested load of another
 * object on each of two threads, crosswise, is missing-full-barrier unless
 * both sides put a full barrier between the two; release and acquire do
 * not order a store before a later load.  Real scans, through
 * scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\nint waiting, ready, woken, nr_waiters;\n"

/* A waiter announces itself, then checks the condition; the waker sets
 * the condition, then checks for a waiter.  ANNOUNCE, CHECK, SET and LOOK
 * are the four statements. */
#define WAKEUP(announce, check, set, look)                                                          \
	HEAD "static void *waiter(void *a) { " announce "\n"                                       \
	"  if (!" check ") { while (!READ_ONCE(woken)) ; } return a; }\n"                           \
	"static void *waker(void *a) { " set "\n"                                                   \
	"  if (" look ") WRITE_ONCE(woken, 1); return a; }\n"                                       \
	"int main(void) { pthread_t w, k; pthread_create(&w, 0, waiter, 0); pthread_create(&k, 0, waker, 0);\n" \
	"  pthread_join(w, 0); pthread_join(k, 0); return 0; }\n"

Test(storebuffer, a_lost_wakeup_without_barriers_is_reported_on_both_sides)
{
	expect_one(WAKEUP("WRITE_ONCE(waiting, 1); /*F*/", "READ_ONCE(ready)", "WRITE_ONCE(ready, 1); /*F*/",
			  "READ_ONCE(waiting)"));
	cr_assert(strstr(last_findings_text(), "both loads can miss the other thread's store"), "%s",
		  last_findings_text());
}

Test(storebuffer, a_full_barrier_on_both_sides_is_no_finding)
{
	expect_one(WAKEUP("WRITE_ONCE(waiting, 1); smp_mb();", "READ_ONCE(ready)", "WRITE_ONCE(ready, 1); smp_mb();",
			  "READ_ONCE(waiting)"));
}

/* One barrier alone does not forbid the outcome: the other side is
 * reported. */
Test(storebuffer, a_full_barrier_on_one_side_leaves_the_other)
{
	expect_one(WAKEUP("WRITE_ONCE(waiting, 1); smp_mb();", "READ_ONCE(ready)", "WRITE_ONCE(ready, 1); /*F*/",
			  "READ_ONCE(waiting)"));
	cr_assert(strstr(last_findings_text(), "the full barrier on that side alone"), "%s", last_findings_text());
}

Test(storebuffer, release_and_acquire_do_not_order_a_store_before_a_load)
{
	expect_one(WAKEUP("smp_store_release(&waiting, 1); /*F*/", "smp_load_acquire(&ready)",
			  "smp_store_release(&ready, 1); /*F*/", "smp_load_acquire(&waiting)"));
}

/* A value-returning atomic is fully ordered (smp_mb() before and after). */
Test(storebuffer, fully_ordered_exchanges_are_no_finding)
{
	expect_one(WAKEUP("(void)xchg(&waiting, 1);", "READ_ONCE(ready)", "(void)xchg(&ready, 1);",
			  "READ_ONCE(waiting)"));
}

/* A waiter count bumped by an unordered RMW: the waker may still miss it. */
Test(storebuffer, a_waiter_count_bumped_without_a_barrier_is_reported)
{
	expect_one(WAKEUP("__atomic_fetch_add(&nr_waiters, 1, __ATOMIC_RELAXED); /*F*/", "READ_ONCE(ready)",
			  "WRITE_ONCE(ready, 1); /*F*/", "__atomic_load_n(&nr_waiters, __ATOMIC_RELAXED)"));
}

/* Loads whose values decide nothing (statistics) are no handshake. */
Test(storebuffer, untested_loads_are_no_finding)
{
	expect_one(HEAD "long seen_a, seen_b;\n"
		   "static void *a(void *x) { WRITE_ONCE(waiting, 1); seen_a = READ_ONCE(ready); return x; }\n"
		   "static void *b(void *x) { WRITE_ONCE(ready, 1); seen_b = READ_ONCE(waiting); return x; }\n"
		   "int main(void) { pthread_t p, q; pthread_create(&p, 0, a, 0); pthread_create(&q, 0, b, 0);\n"
		   "  pthread_join(p, 0); pthread_join(q, 0); return (int)(seen_a + seen_b); }\n");
}

/* Both sides in critical sections of one lock never overlap. */
Test(storebuffer, sides_under_a_lock_are_no_finding)
{
	expect_one(HEAD "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
		   "static void *a(void *x) { pthread_mutex_lock(&m); WRITE_ONCE(waiting, 1);\n"
		   "  if (!READ_ONCE(ready)) WRITE_ONCE(woken, 2); pthread_mutex_unlock(&m); return x; }\n"
		   "static void *b(void *x) { pthread_mutex_lock(&m); WRITE_ONCE(ready, 1);\n"
		   "  if (READ_ONCE(waiting)) WRITE_ONCE(woken, 1); pthread_mutex_unlock(&m); return x; }\n"
		   "int main(void) { pthread_t p, q; pthread_create(&p, 0, a, 0); pthread_create(&q, 0, b, 0);\n"
		   "  pthread_join(p, 0); pthread_join(q, 0); return 0; }\n");
}

/* Lowering the flag at the end of a round is not the store the next
 * round's load follows: the raise at the top of the round is. */
Test(storebuffer, a_store_superseded_before_the_load_is_not_the_side)
{
	expect_one(HEAD "static void *a(void *x) { for (int i = 0; i < 9; i++) { WRITE_ONCE(waiting, 1); /*F*/\n"
		   "  if (!READ_ONCE(ready)) WRITE_ONCE(woken, 2);\n"
		   "  WRITE_ONCE(waiting, 0); } return x; }\n"
		   "static void *b(void *x) { WRITE_ONCE(ready, 1); /*F*/\n"
		   "  if (READ_ONCE(waiting)) WRITE_ONCE(woken, 1); return x; }\n"
		   "int main(void) { pthread_t p, q; pthread_create(&p, 0, a, 0); pthread_create(&q, 0, b, 0);\n"
		   "  pthread_join(p, 0); pthread_join(q, 0); return 0; }\n");
}

/* One thread alone: nothing to miss. */
Test(storebuffer, a_single_thread_is_no_finding)
{
	expect_one(HEAD "static void *a(void *x) { WRITE_ONCE(waiting, 1); if (!READ_ONCE(ready)) WRITE_ONCE(woken, 2);\n"
		   "  WRITE_ONCE(ready, 1); if (READ_ONCE(waiting)) WRITE_ONCE(woken, 1); return x; }\n"
		   "int main(void) { pthread_t p; pthread_create(&p, 0, a, 0); pthread_join(p, 0); return 0; }\n");
}
