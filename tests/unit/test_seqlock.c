/* tests/unit/test_seqlock.c — sequence locks (issue 12, shape 2;
 * analyzer/findings/seqlock.c): each of the four orders a sequence lock
 * needs, missing, is reported at the data access, and present (or given by
 * an acquire or a release where one suffices) is no finding; a plain bump
 * of the sequence and plain data in a correct lock are data races.  Real
 * scans, through scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"

#define HEAD                                                                                    \
	"#include <kcsan/lkmm.h>\n#include <pthread.h>\n"                                          \
	"struct snap { unsigned seq; long a, b; };\nstatic struct snap S;\nint done, bad;\n"

/* A writer that updates S in a loop and a reader that takes snapshots
 * until it is done.  Each argument is one statement (or nothing), on a
 * line of its own so that a marker names it: the writer's OPEN, its order
 * after it, the two data writes, its order before CLOSE; the reader's
 * BEGIN (into s), its order after it, the two data reads (into a and b),
 * its order before the re-read CHECK (an expression). */
#define SEQLOCK(open, after_open, write_a, write_b, before_close, close, begin, after_begin, read_a, read_b, \
		before_check, check)                                                                    \
	HEAD "static void *writer(void *x) {\n"                                                       \
	"  for (long v = 1; v < 100; v++) {\n"                                                        \
	open "\n" after_open "\n" write_a "\n" write_b "\n" before_close "\n" close "\n"              \
	"  }\n  WRITE_ONCE(done, 1);\n  return x;\n}\n"                                               \
	"static void *reader(void *x) {\n  unsigned s;\n  long a, b;\n"                               \
	"  while (!READ_ONCE(done)) {\n    do {\n"                                                    \
	begin "\n" after_begin "\n" read_a "\n" read_b "\n" before_check "\n"                         \
	"    } while ((s & 1) || " check " != s);\n"                                                  \
	"    if (a != b) WRITE_ONCE(bad, 1);\n  }\n  return x;\n}\n"                                    \
	"int main(void) { pthread_t w, r; pthread_create(&r, 0, reader, 0); pthread_create(&w, 0, writer, 0);\n" \
	"  pthread_join(w, 0); pthread_join(r, 0); return 0; }\n"

#define OPEN "WRITE_ONCE(S.seq, S.seq + 1);"
#define CLOSE OPEN
#define BEGIN "s = READ_ONCE(S.seq);"
#define CHECK "READ_ONCE(S.seq)"
#define WA "WRITE_ONCE(S.a, v);"
#define WB "WRITE_ONCE(S.b, v);"
#define RA "a = READ_ONCE(S.a);"
#define RB "b = READ_ONCE(S.b);"
#define WMB "smp_wmb();"
#define RMB "smp_rmb();"

Test(seqlock, a_sequence_lock_with_its_four_orders_is_no_finding)
{
	expect_one(SEQLOCK(OPEN, WMB, WA, WB, WMB, CLOSE, BEGIN, RMB, RA, RB, RMB, CHECK));
}

Test(seqlock, data_reads_not_ordered_after_the_first_sequence_read_are_missing_acquire)
{
	expect_one(SEQLOCK(OPEN, WMB, WA, WB, WMB, CLOSE, BEGIN, "", RA " /*R*/", RB " /*R*/", RMB, CHECK));
	cr_assert(strstr(last_findings_text(), "that begins the read section"), "%s", last_findings_text());
}

Test(seqlock, an_acquire_first_read_needs_no_read_barrier)
{
	expect_one(SEQLOCK(OPEN, WMB, WA, WB, WMB, CLOSE, "s = smp_load_acquire(&S.seq);", "", RA, RB, RMB, CHECK));
}

Test(seqlock, data_reads_not_ordered_before_the_re_read_are_missing_acquire)
{
	expect_one(SEQLOCK(OPEN, WMB, WA, WB, WMB, CLOSE, BEGIN, RMB, RA " /*R*/", RB " /*R*/", "", CHECK));
	cr_assert(strstr(last_findings_text(), "re-read"), "%s", last_findings_text());
	cr_assert(strstr(last_findings_text(), "smp_rmb(); /* before this re-read */"), "%s", last_findings_text());
}

/* An acquire orders what comes after it, not the reads before it. */
Test(seqlock, an_acquire_re_read_does_not_order_the_data_reads_before_it)
{
	expect_one(SEQLOCK(OPEN, WMB, WA, WB, WMB, CLOSE, BEGIN, RMB, RA " /*R*/", RB " /*R*/", "",
			   "smp_load_acquire(&S.seq)"));
}

/* A full barrier on the reader orders loads too. */
Test(seqlock, full_barriers_on_the_reader_are_enough)
{
	expect_one(SEQLOCK(OPEN, WMB, WA, WB, WMB, CLOSE, BEGIN, "smp_mb();", RA, RB, "smp_mb();", CHECK));
}

Test(seqlock, data_writes_not_ordered_after_the_opening_write_are_missing_release)
{
	expect_one(SEQLOCK(OPEN, "", WA " /*W*/", WB " /*W*/", WMB, CLOSE, BEGIN, RMB, RA, RB, RMB, CHECK));
	cr_assert(strstr(last_findings_text(), "that opens the update"), "%s", last_findings_text());
	cr_assert(strstr(last_findings_text(), "smp_wmb(); /* after this write */"), "%s", last_findings_text());
}

/* A release orders what comes before it, not the writes after it. */
Test(seqlock, a_release_opening_write_does_not_order_the_data_writes_after_it)
{
	expect_one(SEQLOCK("smp_store_release(&S.seq, S.seq + 1);", "", WA " /*W*/", WB " /*W*/", WMB, CLOSE, BEGIN,
			   RMB, RA, RB, RMB, CHECK));
}

Test(seqlock, data_writes_not_ordered_before_the_closing_write_are_missing_release)
{
	expect_one(SEQLOCK(OPEN, WMB, WA " /*W*/", WB " /*W*/", "", CLOSE, BEGIN, RMB, RA, RB, RMB, CHECK));
	cr_assert(strstr(last_findings_text(), "that closes the update"), "%s", last_findings_text());
}

Test(seqlock, a_release_closing_write_is_enough)
{
	expect_one(SEQLOCK(OPEN, WMB, WA, WB, "", "smp_store_release(&S.seq, S.seq + 1);", BEGIN, RMB, RA, RB, RMB,
			   CHECK));
}

/* A fully ordered RMW as the opening bump orders the writes after it. */
Test(seqlock, a_fully_ordered_opening_increment_is_enough)
{
	expect_one(SEQLOCK("(void)atomic_inc_return((atomic_t *)&S.seq);", "", WA, WB, WMB, CLOSE, BEGIN, RMB, RA,
			   RB, RMB, CHECK));
}

Test(seqlock, a_plain_bump_of_the_sequence_is_a_data_race)
{
	expect_one(SEQLOCK("S.seq++; /*D*/", WMB, WA, WB, WMB, "S.seq++; /*D*/", BEGIN, RMB, RA, RB, RMB, CHECK));
	cr_assert(strstr(last_findings_text(), "plain write to the sequence 'S.seq'"), "%s", last_findings_text());
}

/* Plain data in a lock with every order in place: the retry throws the
 * torn value away, but the LKMM and C11 call the accesses a data race.
 * Reported at the reader's read, the writer's write its counterpart. */
Test(seqlock, plain_data_in_a_correct_lock_is_a_data_race_at_the_read)
{
	expect_one(SEQLOCK(OPEN, WMB, "S.a = v;", "S.b = v;", WMB, CLOSE, BEGIN, RMB, "a = S.a; /*D*/",
			   "b = S.b; /*D*/", RMB, CHECK));
	cr_assert(strstr(last_findings_text(), "throws a torn value away"), "%s", last_findings_text());
}

/* Marked reads of plain writes: the race is the write's. */
Test(seqlock, plain_data_writes_with_marked_reads_are_a_data_race_at_the_write)
{
	expect_one(SEQLOCK(OPEN, WMB, "S.a = v; /*D*/", "S.b = v; /*D*/", WMB, CLOSE, BEGIN, RMB, RA, RB, RMB, CHECK));
}

/* The validation is what makes a section: a reader that reads the
 * sequence twice but never compares the two reads takes no snapshot, so
 * the plain bumps race with no section here (the plain-bump test above
 * shows what a section makes of them). */
Test(seqlock, two_reads_never_compared_make_no_section)
{
	expect_one(HEAD "static void *writer(void *x) { for (long v = 1; v < 100; v++) {\n"
		   "S.seq++;\n" WMB "\n" WA "\n" WB "\n" WMB "\n" "S.seq++;\n"
		   "  } WRITE_ONCE(done, 1); return x; }\n"
		   "static void *reader(void *x) { unsigned s, t; long a, b;\n"
		   "  while (!READ_ONCE(done)) {\n"
		   "    s = READ_ONCE(S.seq);\n" RMB "\n" RA "\n" RB "\n" RMB "\n"
		   "    t = READ_ONCE(S.seq);\n"
		   "    if (a != b) WRITE_ONCE(bad, (int)(s + t));\n  }\n  return x; }\n"
		   "int main(void) { pthread_t w, r; pthread_create(&r, 0, reader, 0); pthread_create(&w, 0, writer, 0);\n"
		   "  pthread_join(w, 0); pthread_join(r, 0); return 0; }\n");
}

/* The two sides have to run at the same time: an update that main()
 * makes before the reader's thread exists meets no read section. */
Test(seqlock, an_update_before_the_reader_starts_is_no_finding)
{
	expect_one(HEAD "static void *reader(void *x) { unsigned s; long a, b;\n"
		   "  do {\n" BEGIN "\n" "\n" RA "\n" RB "\n" "\n"
		   "  } while ((s & 1) || " CHECK " != s);\n"
		   "  if (a != b) WRITE_ONCE(bad, 1);\n  return x; }\n"
		   "int main(void) { pthread_t r; long v = 1;\n" OPEN "\n" WA "\n" WB "\n" CLOSE "\n"
		   "  pthread_create(&r, 0, reader, 0);\n  pthread_join(r, 0); return 0; }\n");
}

/* A fully ordered RMW between two accesses orders them, like smp_mb(). */
Test(seqlock, a_fully_ordered_rmw_between_orders_the_reads)
{
	expect_one(SEQLOCK(OPEN, WMB, WA, WB, WMB, CLOSE, BEGIN, "(void)xchg(&bad, 0);", RA, RB,
			   "(void)xchg(&bad, 0);", CHECK));
}

/* A sequence is bumped: its writes store its own value plus a constant
 * (or count, like s->seq++).  Stores of other values are no update (a
 * list's next pointer, read twice and compared, is validated the same
 * way but is no sequence): the plain stores here meet no section rule. */
Test(seqlock, stores_of_other_values_are_no_update)
{
	expect_one(SEQLOCK("S.seq = 1;", WMB, WA, WB, WMB, "S.seq = 2;", BEGIN, RMB, RA, RB, RMB, CHECK));
}

/* The same lock through wrappers, as real code writes it: a begin that
 * returns the sequence read, a retry that compares a re-read with what it
 * is given, and a lock and an unlock that bump it.  Each argument is the
 * barrier of one wrapper (or nothing), then the reader's two data reads. */
#define WRAPPED(begin_mb, retry_mb, lock_mb, unlock_mb, write_a, write_b, read_a, read_b)             \
	"#include <kcsan/lkmm.h>\n#include <pthread.h>\n"                                            \
	"typedef struct { unsigned long seq; } seqlock_t;\nstruct snap { long a, b; };\n"           \
	"static seqlock_t sl;\nstatic struct snap S;\nstatic int done, bad;\n"                      \
	"static unsigned long read_seqbegin(seqlock_t *slp) {\n"                                    \
	"  unsigned long s = READ_ONCE(slp->seq);\n" begin_mb "\n  return s & ~0x1UL;\n}\n"         \
	"static int read_seqretry(seqlock_t *slp, unsigned long oldseq) {\n  unsigned long s;\n"   \
	retry_mb "\n  s = READ_ONCE(slp->seq);\n  return s != oldseq;\n}\n"          \
	"static void write_seqlock(seqlock_t *slp) {\n"                                             \
	"  WRITE_ONCE(slp->seq, READ_ONCE(slp->seq) + 1);\n" lock_mb "\n}\n"                        \
	"static void write_sequnlock(seqlock_t *slp) {\n" unlock_mb "\n"                            \
	"  WRITE_ONCE(slp->seq, READ_ONCE(slp->seq) + 1);\n}\n"                                     \
	"static void *writer(void *x) {\n  for (long v = 1; v < 100; v++) {\n"                       \
	"    write_seqlock(&sl);\n" write_a "\n" write_b "\n    write_sequnlock(&sl);\n  }\n"          \
	"  WRITE_ONCE(done, 1);\n  return x;\n}\n"                                                  \
	"static void *reader(void *x) {\n  unsigned long s;\n  long a, b;\n"                        \
	"  while (!READ_ONCE(done)) {\n    do {\n      s = read_seqbegin(&sl);\n"                   \
	read_a "\n" read_b "\n    } while (read_seqretry(&sl, s));\n"                                \
	"    if (a != b) WRITE_ONCE(bad, 1);\n  }\n  return x;\n}\n"                                   \
	"int main(void) { pthread_t w, r; pthread_create(&r, 0, reader, 0); pthread_create(&w, 0, writer, 0);\n" \
	"  pthread_join(w, 0); pthread_join(r, 0); return 0; }\n"
#define MB "smp_mb();"

Test(seqlock, wrappers_with_their_barriers_are_no_finding)
{
	expect_one(WRAPPED(MB, MB, MB, MB, WA, WB, RA, RB));
}

Test(seqlock, a_begin_wrapper_without_its_barrier_leaves_the_caller_s_reads_unordered)
{
	expect_one(WRAPPED("", MB, MB, MB, WA, WB, RA " /*R*/", RB " /*R*/"));
	cr_assert(strstr(last_findings_text(), "that begins the read section"), "%s", last_findings_text());
}

Test(seqlock, a_retry_wrapper_without_its_barrier_leaves_the_caller_s_reads_unordered)
{
	expect_one(WRAPPED(MB, "", MB, MB, WA, WB, RA " /*R*/", RB " /*R*/"));
	cr_assert(strstr(last_findings_text(), "that validates the read section"), "%s", last_findings_text());
}

Test(seqlock, a_lock_wrapper_without_its_barrier_leaves_the_caller_s_writes_unordered)
{
	expect_one(WRAPPED(MB, MB, "", MB, WA " /*W*/", WB " /*W*/", RA, RB));
	cr_assert(strstr(last_findings_text(), "that opens the update"), "%s", last_findings_text());
}

Test(seqlock, an_unlock_wrapper_without_its_barrier_leaves_the_caller_s_writes_unordered)
{
	expect_one(WRAPPED(MB, MB, MB, "", WA " /*W*/", WB " /*W*/", RA, RB));
	cr_assert(strstr(last_findings_text(), "that closes the update"), "%s", last_findings_text());
}

/* A getter of the sequence (its read's address is its parameter: no
 * comparison) serves as both ends when the caller compares the two. */
#define GETTER(read_a, read_b, before_check)                                                                     \
	HEAD "static unsigned get_seq(struct snap *p) { return READ_ONCE(p->seq); }\n"              \
	"static void *writer(void *x) {\n  for (long v = 1; v < 100; v++) {\n"                       \
	OPEN "\n" WMB "\n" WA "\n" WB "\n" WMB "\n" CLOSE "\n  }\n  WRITE_ONCE(done, 1);\n  return x;\n}\n" \
	"static void *reader(void *x) {\n  unsigned s;\n  long a, b;\n"                               \
	"  while (!READ_ONCE(done)) {\n    do {\n      s = get_seq(&S);\n" RMB "\n"                   \
	read_a "\n" read_b "\n" before_check "\n    } while ((s & 1) || get_seq(&S) != s);\n"         \
	"    if (a != b) WRITE_ONCE(bad, 1);\n  }\n  return x;\n}\n"                                   \
	"int main(void) { pthread_t w, r; pthread_create(&r, 0, reader, 0); pthread_create(&w, 0, writer, 0);\n" \
	"  pthread_join(w, 0); pthread_join(r, 0); return 0; }\n"

Test(seqlock, a_getter_read_twice_and_compared_makes_a_section)
{
	expect_one(GETTER(RA, RB, RMB));
	/* (the re-read's order missing) */
	expect_one(GETTER(RA " /*R*/", RB " /*R*/", ""));
}

/* Wrappers of wrappers, as DPDK has them (rte_seqlock_* over
 * rte_seqcount_*), with GNU atomics: an acquire first read, an acquire
 * fence before the relaxed re-read, a relaxed bump and a release fence,
 * a release bump; the writer's lock taken by a call beside the bump.
 * RETRY_FENCE and BEGIN_FENCE are the two fences; the data are relaxed
 * atomics. */
#define TWO_DEEP(retry_fence, begin_fence, read_a, read_b, write_a, write_b)                        \
	"#include <pthread.h>\n"                                                                     \
	"typedef struct { unsigned sn; } seqcount_t;\ntypedef struct { seqcount_t count; int lock; } seqlock_t;\n" \
	"struct data { seqlock_t lock; long a, b; };\nstatic struct data d;\nstatic int done, bad;\n" \
	"static unsigned seqcount_read_begin(seqcount_t *sc) { return __atomic_load_n(&sc->sn, __ATOMIC_ACQUIRE); }\n" \
	"static int seqcount_read_retry(seqcount_t *sc, unsigned begin_sn) {\n"                      \
	"  unsigned end_sn;\n  if (begin_sn & 1) return 1;\n" retry_fence "\n"                        \
	"  end_sn = __atomic_load_n(&sc->sn, __ATOMIC_RELAXED);\n  return begin_sn != end_sn;\n}\n"  \
	"static void seqcount_write_begin(seqcount_t *sc) {\n  unsigned sn = sc->sn + 1;\n"           \
	"  __atomic_store_n(&sc->sn, sn, __ATOMIC_RELAXED);\n" begin_fence "\n}\n"                    \
	"static void seqcount_write_end(seqcount_t *sc) {\n  unsigned sn = sc->sn + 1;\n"             \
	"  __atomic_store_n(&sc->sn, sn, __ATOMIC_RELEASE);\n}\n"                                    \
	"static void spin_lock(int *l) { while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) ; }\n"    \
	"static void spin_unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }\n"             \
	"static unsigned seqlock_read_begin(seqlock_t *sl) { return seqcount_read_begin(&sl->count); }\n" \
	"static int seqlock_read_retry(seqlock_t *sl, unsigned sn) { return seqcount_read_retry(&sl->count, sn); }\n" \
	"static void seqlock_write_lock(seqlock_t *sl) { spin_lock(&sl->lock); seqcount_write_begin(&sl->count); }\n" \
	"static void seqlock_write_unlock(seqlock_t *sl) { seqcount_write_end(&sl->count); spin_unlock(&sl->lock); }\n" \
	"static void *writer(void *x) {\n  for (long v = 1; v < 100; v++) {\n"                         \
	"    seqlock_write_lock(&d.lock);\n" write_a "\n" write_b "\n    seqlock_write_unlock(&d.lock);\n  }\n" \
	"  __atomic_store_n(&done, 1, __ATOMIC_RELAXED);\n  return x;\n}\n"                             \
	"static void *reader(void *x) {\n  unsigned sn;\n  long a, b;\n"                              \
	"  while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {\n    do {\n"                           \
	"      sn = seqlock_read_begin(&d.lock);\n" read_a "\n" read_b "\n"                            \
	"    } while (seqlock_read_retry(&d.lock, sn));\n"                                             \
	"    if (a != b) __atomic_store_n(&bad, 1, __ATOMIC_RELAXED);\n  }\n  return x;\n}\n"          \
	"int main(void) { pthread_t w, r; pthread_create(&r, 0, reader, 0); pthread_create(&w, 0, writer, 0);\n" \
	"  pthread_join(w, 0); pthread_join(r, 0); return 0; }\n"
#define ACQ_FENCE "  __atomic_thread_fence(__ATOMIC_ACQUIRE);"
#define REL_FENCE "  __atomic_thread_fence(__ATOMIC_RELEASE);"
#define GA "a = __atomic_load_n(&d.a, __ATOMIC_RELAXED);"
#define GB "b = __atomic_load_n(&d.b, __ATOMIC_RELAXED);"
#define SA "__atomic_store_n(&d.a, v, __ATOMIC_RELAXED);"
#define SB "__atomic_store_n(&d.b, v, __ATOMIC_RELAXED);"

Test(seqlock, wrappers_of_wrappers_with_their_fences_are_no_finding)
{
	expect_one(TWO_DEEP(ACQ_FENCE, REL_FENCE, GA, GB, SA, SB));
}

Test(seqlock, a_retry_two_calls_deep_without_its_fence_is_missing_acquire)
{
	expect_one(TWO_DEEP("", REL_FENCE, GA " /*R*/", GB " /*R*/", SA, SB));
	cr_assert(strstr(last_findings_text(), "atomic_thread_fence(memory_order_acquire)"), "%s",
		  last_findings_text());
}

Test(seqlock, a_write_begin_two_calls_deep_without_its_fence_is_missing_release)
{
	expect_one(TWO_DEEP(ACQ_FENCE, "", GA, GB, SA " /*W*/", SB " /*W*/"));
}

/* A function that returns what it returns itself (recursion) is asked
 * about while it is being worked out: it is no wrapper then, and the scan
 * ends. */
Test(seqlock, a_recursive_reader_ends)
{
	expect_one(HEAD "static unsigned get(struct snap *p, int n) { return n ? get(p, n - 1) : READ_ONCE(p->seq); }\n"
		   "static void *reader(void *x) { unsigned s; long a;\n"
		   "  do { s = get(&S, 2);\n" RMB "\n" RA "\n" RMB "\n  } while (get(&S, 1) != s);\n"
		   "  return (void *)a; }\n"
		   "int main(void) { pthread_t r; pthread_create(&r, 0, reader, 0); pthread_join(r, 0); return 0; }\n");
}
