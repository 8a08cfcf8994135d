/* tests/unit/test_storedflag.c — issue 12, shape 4: a flag's value that is
 * stored rather than tested, and tested later (analyzer/frontend/
 * extract_expr.c, note_forwarded): a plain read of an lvalue that its
 * function stored earlier carries the stored value's marked reads, so a
 * test of it guards what follows and an address computed from it depends
 * on them.  Each buggy shape has an ordered twin that must give nothing.
 * Real scans, through scan_helper.c. */
#include <criterion/criterion.h>

#include "scan_helper.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\n"

/* A ring's producer publishes slots with a release; the consumer keeps
 * its copy of the head in a field of its own (READ is how it reads the
 * head) and tests the copy later. */
#define CACHED(read, marker) \
	HEAD "struct ring { unsigned head; long slot[8]; } q;\n" \
	"struct cons { unsigned seen; } c;\n" \
	"static void *producer(void *a) { for (unsigned h = 0; h < 100; h++) {\n" \
	"  q.slot[h % 8] = h;\n  smp_store_release(&q.head, h + 1); } return a; }\n" \
	"static void *consumer(void *a) { unsigned t = 0; long sum = 0;\n" \
	"  c.seen = " read ";\n" \
	"  if (c.seen != t)\n    sum += q.slot[t % 8]; " marker "\n" \
	"  return (void *)sum; }\n" \
	"int main(void) { pthread_t x, y;\n" \
	"  pthread_create(&x, 0, producer, 0); pthread_create(&y, 0, consumer, 0);\n" \
	"  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n"

Test(storedflag, a_copy_of_the_flag_tested_later_guards_the_reads)
{
	expect_one(CACHED("READ_ONCE(q.head)", "/*R*/"));
}

Test(storedflag, a_copy_made_with_an_acquire_orders_the_reads)
{
	expect_one(CACHED("smp_load_acquire(&q.head)", ""));
}

/* Only the lvalue stored is read back: the same field of another
 * instance carries nothing of the flag. */
Test(storedflag, another_lvalue_carries_nothing_of_the_flag)
{
	expect_one(HEAD "struct ring { unsigned head; long slot[8]; } q;\n"
		   "struct cons { unsigned seen; } c, other;\n"
		   "static void *producer(void *a) { for (unsigned h = 0; h < 100; h++) {\n"
		   "  q.slot[h % 8] = h;\n  smp_store_release(&q.head, h + 1); } return a; }\n"
		   "static void *consumer(void *a) { unsigned t = 0; long sum = 0;\n"
		   "  c.seen = READ_ONCE(q.head);\n"
		   "  if (other.seen != t)\n    sum += q.slot[t % 8];\n"
		   "  return (void *)sum + c.seen; }\n"
		   "int main(void) { pthread_t x, y;\n"
		   "  pthread_create(&x, 0, producer, 0); pthread_create(&y, 0, consumer, 0);\n"
		   "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n");
}

/* DPDK's ring: the count goes out through a pointer parameter and is
 * read back from it to decide what the function returns; the caller
 * reads the slots when the result says there are some. */
#define OUT_PARAM(read, marker) \
	HEAD "struct ring { unsigned head; long slot[8]; } q;\n" \
	"static void *producer(void *a) { for (unsigned h = 0; h < 100; h++) {\n" \
	"  q.slot[h % 8] = h;\n  smp_store_release(&q.head, h + 1); } return a; }\n" \
	"static int count(unsigned t, unsigned *n) {\n" \
	"  *n = " read " - t;\n" \
	"  if (*n == 0)\n    return 0;\n  return 1; }\n" \
	"static void *consumer(void *a) { unsigned n; long sum = 0;\n" \
	"  if (count(0, &n))\n    sum = q.slot[0]; " marker "\n" \
	"  return (void *)sum; }\n" \
	"int main(void) { pthread_t x, y;\n" \
	"  pthread_create(&x, 0, producer, 0); pthread_create(&y, 0, consumer, 0);\n" \
	"  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n"

Test(storedflag, a_count_read_back_from_an_out_parameter_guards_the_callers_reads)
{
	expect_one(OUT_PARAM("READ_ONCE(q.head)", "/*R*/"));
}

Test(storedflag, a_count_from_an_acquire_orders_the_callers_reads)
{
	expect_one(OUT_PARAM("smp_load_acquire(&q.head)", ""));
}

/* A pointer kept in a field and read back: what is reached through it
 * depends on the pointer's read (ordered), what is not is only guarded. */
Test(storedflag, a_pointer_read_back_orders_what_it_reaches_and_guards_the_rest)
{
	expect_one(HEAD "#include <stdlib.h>\n"
		   "struct node { long val; };\nstatic struct node *gp;\nstatic long other;\n"
		   "struct cons { struct node *cur; } c;\n"
		   "static void *writer(void *a) { struct node *n = malloc(sizeof *n); if (!n) return a;\n"
		   "  n->val = 42;\n  other = 7;\n  smp_store_release(&gp, n); return a; }\n"
		   "static void *reader(void *a) { long v = 0;\n"
		   "  c.cur = READ_ONCE(gp);\n"
		   "  if (c.cur) {\n    v = c.cur->val;\n    v += other; /*R*/\n  }\n"
		   "  return (void *)v; }\n"
		   "int main(void) { pthread_t x, y;\n"
		   "  pthread_create(&x, 0, writer, 0); pthread_create(&y, 0, reader, 0);\n"
		   "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n");
}

/* The value goes out through a pointer parameter into the caller's own
 * local, which the caller tests (get(&n); if (n)): the callee's summary
 * says which parameters it stores a read through (out_tells), and the
 * local carries the read (compute_derived_through_calls).  FETCH is the
 * helper's body; chains pass the pointer on. */
#define INTO_LOCAL(fetch, marker) \
	HEAD "struct ring { unsigned head; long slot[8]; } q;\n" \
	"static void *producer(void *a) { for (unsigned h = 0; h < 100; h++) {\n" \
	"  q.slot[h % 8] = h;\n  smp_store_release(&q.head, h + 1); } return a; }\n" \
	"static void fetch(unsigned *n) { " fetch " }\n" \
	"static void fetch_on(unsigned *n) { fetch(n); }\n" \
	"static void *consumer(void *a) { unsigned n = 0; long sum = 0;\n" \
	"  fetch_on(&n);\n" \
	"  if (n)\n    sum = q.slot[0]; " marker "\n" \
	"  return (void *)sum; }\n" \
	"int main(void) { pthread_t x, y;\n" \
	"  pthread_create(&x, 0, producer, 0); pthread_create(&y, 0, consumer, 0);\n" \
	"  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n"

Test(storedflag, a_read_stored_into_the_callers_local_guards_its_reads)
{
	expect_one(INTO_LOCAL("*n = READ_ONCE(q.head);", "/*R*/"));
}

Test(storedflag, an_acquire_stored_into_the_callers_local_orders_its_reads)
{
	expect_one(INTO_LOCAL("*n = smp_load_acquire(&q.head);", ""));
}

/* What the callee stores through the pointer is no read (its result is):
 * the local's test says nothing of the flag and guards nothing, so the
 * slot read is no reader of the producer's publication. */
Test(storedflag, a_constant_stored_into_the_callers_local_guards_nothing)
{
	expect_one(HEAD "struct ring { unsigned head; long slot[8]; } q;\n"
		   "static void *producer(void *a) { for (unsigned h = 0; h < 100; h++) {\n"
		   "  q.slot[h % 8] = h;\n  smp_store_release(&q.head, h + 1); } return a; }\n"
		   "static unsigned fetch(unsigned *n) { unsigned h = READ_ONCE(q.head); *n = 1; return h; }\n"
		   "static void *consumer(void *a) { unsigned n = 0; long sum = 0;\n"
		   "  unsigned h = fetch(&n);\n"
		   "  if (n)\n    sum = q.slot[0];\n"
		   "  return (void *)(sum + h); }\n"
		   "int main(void) { pthread_t x, y;\n"
		   "  pthread_create(&x, 0, producer, 0); pthread_create(&y, 0, consumer, 0);\n"
		   "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n");
}

/* A read that a fence orders before the store orders whatever the caller
 * does with the value: the local carries no order the caller must keep
 * (note_stored_read).  Taken as carried, the read is still pending in
 * the caller on the path that returns early without the fence, and the
 * slot read after the test would be reported (ck_ring's dequeues: a load
 * fence after the index loads, then the slot copied out). */
Test(storedflag, a_read_fenced_before_it_is_stored_carries_no_order)
{
	expect_one(HEAD "struct ring { unsigned head; long slot[8]; } q;\n"
		   "static void *producer(void *a) { for (unsigned h = 0; h < 100; h++) {\n"
		   "  q.slot[h % 8] = h;\n  smp_store_release(&q.head, h + 1); } return a; }\n"
		   "static int fetch(unsigned *n) { unsigned h = READ_ONCE(q.head); if (!h) return 0;\n"
		   "  smp_rmb(); *n = h; return 1; }\n"
		   "static void *consumer(void *a) { unsigned n = 0; long sum = 0;\n"
		   "  (void)fetch(&n);\n"
		   "  if (n)\n    sum = q.slot[0];\n"
		   "  return (void *)sum; }\n"
		   "int main(void) { pthread_t x, y;\n"
		   "  pthread_create(&x, 0, producer, 0); pthread_create(&y, 0, consumer, 0);\n"
		   "  pthread_join(x, 0); pthread_join(y, 0); return 0; }\n");
}
