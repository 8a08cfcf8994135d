/* tests/unit/test_lostupdate.c — lost updates (analyzer/findings/
 * lostupdate.c): a plain read-modify-write, or a plain test-and-set of a
 * named variable, that two threads can make at once with no lock held is a
 * data race at the update; locked, atomic, after a claim (but a claim of
 * one element of an array), made before the threads exist, of a thread's
 * own memory, of a field that neither a marked access nor an atomic member
 * of its struct shows to be shared, or in a library that synchronises
 * nothing, it is not.  Real scans, through scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\n"

/* ---- counters: one RMW ---- */

Test(lostupdate, a_plain_counter_of_threads_run_together_races)
{
	expect_one(HEAD "long hits;\n"
		   "static void *worker(void *a) { hits++; /*D*/ return a; }\n"
		   MAIN_TWO_THREADS("worker"));
	cr_assert(strstr(last_findings_text(), "may run in two threads at once, no lock held: one of two updates"),
		  "%s", last_findings_text());
}

Test(lostupdate, the_counter_under_a_lock_is_no_race)
{
	expect_one(HEAD "long hits; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
		   "static void *worker(void *a) { pthread_mutex_lock(&m); hits++; pthread_mutex_unlock(&m); return a; }\n"
		   MAIN_TWO_THREADS("worker"));
}

Test(lostupdate, an_atomic_counter_is_no_race)
{
	expect_one(HEAD "long hits;\n"
		   "static void *worker(void *a) { __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED); return a; }\n"
		   MAIN_TWO_THREADS("worker"));
}

/* Two functions, each run by its own thread, update one count. */
Test(lostupdate, two_functions_updating_one_count_race)
{
	expect_one(HEAD "long total;\n"
		   "static void *adder(void *a) { total += 2; /*D*/ return a; }\n"
		   "static void *taker(void *a) { total -= 1; /*D*/ return a; }\n"
		   "int main(void) { pthread_t x, y;\n"
		   "  pthread_create(&x, 0, adder, 0); pthread_create(&y, 0, taker, 0);\n"
		   "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n");
	cr_assert(strstr(last_findings_text(), "may run while"), "%s", last_findings_text());
}

/* One thread alone updates it: nothing to lose. */
Test(lostupdate, a_count_only_one_thread_updates_is_no_race)
{
	expect_one(HEAD "long total;\n"
		   "static void *adder(void *a) { total += 2; return a; }\n"
		   "int main(void) { pthread_t x;\n"
		   "  pthread_create(&x, 0, adder, 0); pthread_join(x, 0); return (int)total; }\n");
}

/* main() counts before it starts the threads: creation orders it. */
Test(lostupdate, an_update_before_the_threads_exist_is_no_race)
{
	expect_one(HEAD "long rounds;\n"
		   "static void *worker(void *a) { return a; }\n"
		   "int main(void) { pthread_t t[2];\n"
		   "  for (int i = 0; i < 2; i++) { rounds++; pthread_create(&t[i], 0, worker, 0); }\n"
		   "  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return (int)rounds; }\n");
}

/* ---- fields: shared when the tree marks the struct ---- */

#define SERVICE(state_read, mark) \
	HEAD "struct svc { int state; unsigned long calls; };\n" \
	"struct svc s;\n" \
	"static void *worker(void *a) { if (" state_read ") s.calls++; " mark " return a; }\n" \
	MAIN_TWO_THREADS("worker")

Test(lostupdate, a_field_of_a_struct_with_marked_fields_races)
{
	expect_one(SERVICE("smp_load_acquire(&s.state)", "/*D*/"));
}

/* No marked access anywhere on the struct: the field stands for every
 * instance, and nothing says this one is shared. */
Test(lostupdate, a_field_of_a_struct_never_marked_is_left_alone)
{
	expect_one(SERVICE("s.state", ""));
}

/* ---- test-and-set: a write after a read ---- */

Test(lostupdate, a_plain_latch_of_threads_run_together_races)
{
	expect_one(HEAD "int try_one(void);\n"
		   "static void *mapper(void *a) {\n"
		   "	static int available = 1;\n"
		   "	if (available && !try_one())\n"
		   "		available = 0; /*D*/\n"
		   "	return a;\n"
		   "}\n"
		   MAIN_TWO_THREADS("mapper"));
	cr_assert(strstr(last_findings_text(), "a test-and-set made of plain accesses"), "%s", last_findings_text());
}

/* On a field the same shape is most often a link its caller keeps to
 * itself (prev->next = node after reading it): not taken. */
Test(lostupdate, a_write_after_a_read_of_a_field_is_left_alone)
{
	expect_one(HEAD "struct node { struct node *next; int state; };\n"
		   "struct node head;\n"
		   "static void *worker(void *a) {\n"
		   "	if (smp_load_acquire(&head.state) && head.next)\n"
		   "		head.next = 0;\n"
		   "	return a;\n"
		   "}\n"
		   MAIN_TWO_THREADS("worker"));
}

/* ---- exclusion the analysis cannot name ---- */

/* A test-and-set spinlock of the program's own: the exchange with acquire
 * makes the section exclusive. */
Test(lostupdate, an_update_after_a_claim_is_no_race)
{
	expect_one(HEAD "int lock; long hits;\n"
		   "static void take(int *l) { while (xchg_acquire(l, 1)) cpu_relax(); }\n"
		   "static void give(int *l) { smp_store_release(l, 0); }\n"
		   "static void *worker(void *a) { take(&lock); hits++; give(&lock); return a; }\n"
		   MAIN_TWO_THREADS("worker"));
}

/* A claim of one element of an array, picked by the thread's own index:
 * two threads claim two elements and both update the count.  Its twin
 * claims one word for everyone and is exclusive (above); so is the same
 * element's claim made through a helper whose argument is not indexed
 * (the helper's own claim is of its parameter). */
Test(lostupdate, an_update_after_a_claim_of_one_element_races)
{
	expect_one(HEAD "int in_use[64]; long n_poll;\n"
		   "static void *worker(void *a) {\n"
		   "	long cpu = (long)a;\n"
		   "	if (cmpxchg(&in_use[cpu], 0, 1) == 0)\n"
		   "		n_poll++; /*D*/\n"
		   "	return a;\n"
		   "}\n"
		   MAIN_TWO_THREADS("worker"));
}

Test(lostupdate, an_update_after_a_claimer_is_handed_one_element_races)
{
	expect_one(HEAD "int in_use[64]; long n_poll;\n"
		   "static int claim(int *w) { return cmpxchg(w, 0, 1) == 0; }\n"
		   "static void *worker(void *a) {\n"
		   "	long cpu = (long)a;\n"
		   "	if (claim(&in_use[cpu]))\n"
		   "		n_poll++; /*D*/\n"
		   "	return a;\n"
		   "}\n"
		   MAIN_TWO_THREADS("worker"));
}

Test(lostupdate, an_update_after_a_claimer_is_handed_one_word_is_no_race)
{
	expect_one(HEAD "int busy; long n_poll;\n"
		   "static int claim(int *w) { return cmpxchg(w, 0, 1) == 0; }\n"
		   "static void *worker(void *a) {\n"
		   "	if (claim(&busy))\n"
		   "		n_poll++;\n"
		   "	return a;\n"
		   "}\n"
		   MAIN_TWO_THREADS("worker"));
}

/* ---- a struct made for sharing ---- */

/* DPDK's per-lcore flags: the adapter's struct embeds rte_atomic16_t, two
 * levels down, whose counter is volatile.  Its other fields are shared. */
#define ADAPTER(flag_type) \
	HEAD "typedef struct { " flag_type " cnt; } atomic16_t;\n" \
	"struct adapter { struct { atomic16_t v; } in_use[64]; unsigned poll[64]; int n_poll; };\n" \
	"struct adapter ad;\n"

Test(lostupdate, a_field_of_a_struct_embedding_a_volatile_member_races)
{
	expect_one(ADAPTER("volatile short") "static void *worker(void *a) { ad.n_poll++; /*D*/ return a; }\n"
		   MAIN_TWO_THREADS("worker"));
}

Test(lostupdate, a_field_of_a_struct_embedding_a_signal_flag_is_left_alone)
{
	expect_one("#include <signal.h>\n" ADAPTER("volatile sig_atomic_t")
		   "static void *worker(void *a) { ad.n_poll++; return a; }\n" MAIN_TWO_THREADS("worker"));
}

Test(lostupdate, a_field_of_a_struct_embedding_no_marked_member_is_left_alone)
{
	expect_one(ADAPTER("short") "static void *worker(void *a) { ad.n_poll++; return a; }\n"
		   MAIN_TWO_THREADS("worker"));
}

/* A member struct with a volatile flag beside other fields says that its
 * own type is shared, not the struct that embeds it. */
Test(lostupdate, a_field_of_a_struct_whose_member_holds_an_atomic_among_others_is_left_alone)
{
	expect_one(HEAD "struct part { volatile int flag; int other; };\n"
		   "struct device { struct part generic; int n; };\n"
		   "struct device dev;\n"
		   "static void *worker(void *a) { dev.n++; return a; }\n" MAIN_TWO_THREADS("worker"));
}

/* ---- library entry points (no thread of the tree's own) ---- */

/* An API that synchronises nothing (an option parser) runs in one thread
 * by contract. */
Test(lostupdate, a_library_that_synchronises_nothing_is_left_alone)
{
	expect_one("static int cursor;\n"
		   "int next_token(void) { return cursor++; }\n");
}

/* One that does (an allocator's atomics) is written for threads. */
Test(lostupdate, a_library_that_synchronises_is_taken_at_its_word)
{
	expect_one("static long try_ok;\n"
		   "long map(long size) {\n"
		   "	static int huge = 1;\n"
		   "	if (__atomic_load_n(&try_ok, __ATOMIC_ACQUIRE) > 0)\n"
		   "		return size;\n"
		   "	if (huge && size > 4096)\n"
		   "		huge = 0; /*D*/\n"
		   "	return 0;\n"
		   "}\n");
}

/* ---- a thread's own memory: the address of a thread-local ---- */

#define POOL(decl, arg) \
	HEAD "struct pool { int ready; unsigned long allocs; };\n" \
	decl "\n" \
	"static void take_from(struct pool *p) { if (smp_load_acquire(&p->ready)) p->allocs++; " MARK " }\n" \
	"static void *worker(void *a) { take_from(" arg "); return a; }\n" \
	MAIN_TWO_THREADS("worker")

Test(lostupdate, a_pool_of_the_thread_s_own_is_no_race)
{
#define MARK ""
	expect_one(POOL("static __thread struct pool my_pool;", "&my_pool"));
#undef MARK
}

Test(lostupdate, the_same_pool_shared_races)
{
#define MARK "/*D*/"
	expect_one(POOL("static struct pool the_pool;", "&the_pool"));
#undef MARK
}

/* An array read and written at two constant indexes is one object to the
 * analysis, but no test-and-set: the two elements differ. */
Test(lostupdate, two_elements_of_an_array_are_no_test_and_set)
{
	expect_one(HEAD "long scratch[2];\n"
		   "static void *worker(void *a) { scratch[1] = scratch[0] * 2; return a; }\n"
		   MAIN_TWO_THREADS("worker"));
}

/* Each thread counts in its own slot of an array: one object for every
 * element to the analysis, so an element is never taken. */
Test(lostupdate, a_slot_picked_by_an_index_is_left_alone)
{
	expect_one(HEAD "long counts[2];\n"
		   "static void *worker(void *a) { counts[(long)a]++; return a; }\n"
		   "int main(void) { pthread_t t[2];\n"
		   "  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, (void *)i);\n"
		   "  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return (int)counts[0]; }\n");
}

/* A lock of the program's own taken with a relaxed compare-and-swap is
 * still exclusive: no lost update (that its section is unordered is the
 * missing-release and missing-acquire rules' finding). */
Test(lostupdate, an_update_after_a_relaxed_claim_is_no_lost_update)
{
	expect_one(HEAD "int lock; long hits;\n"
		   "static void *worker(void *a) {\n"
		   "	while (cmpxchg_relaxed(&lock, 0, 1) != 0)\n"
		   "		;\n"
		   "	hits++; /*W*/ /*R*/\n"
		   "	WRITE_ONCE(lock, 0);\n"
		   "	return a;\n"
		   "}\n"
		   MAIN_TWO_THREADS("worker"));
}
