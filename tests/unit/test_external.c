/* tests/unit/test_external.c — issue 12, shape 7: memory shared with an
 * agent outside the tree, declared by a profile line "NAME external none"
 * (analyzer/findings/external.c, pairing.c's assumed_other_side): the
 * writer-side and reader-side patterns on it are reported with the side
 * the tree lacks assumed.  Each buggy shape has an ordered twin, and the
 * same program without the declaration gives nothing.  Real scans,
 * through scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"
#include "analyzer/model/vocab.h"

#define HEAD "#include <kcsan/lkmm.h>\n#include <pthread.h>\n#include <sys/mman.h>\n"

/* One side of a ring in shared memory: PRODUCER's body publishes slots,
 * CONSUMER's reads them; the other process is not in the tree. */
#define RING(body) \
	HEAD "struct shm_ring { unsigned head; long slot[16]; };\n" \
	"static struct shm_ring *ring;\n" \
	"static void *side(void *a) { struct shm_ring *r = ring;\n" body "  return a; }\n" \
	"int main(void) { pthread_t t;\n" \
	"  ring = mmap(0, sizeof *ring, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);\n" \
	"  if (ring == MAP_FAILED) return 1;\n" \
	"  pthread_create(&t, 0, side, 0); pthread_join(t, 0); return 0; }\n"

#define PRODUCE(marker, publish) \
	RING("  for (unsigned h = 0; h < 100; h++) {\n" \
	     "    r->slot[h % 16] = h; " marker "\n" \
	     "    " publish "\n  }\n")

#define CONSUME(read, marker) \
	RING("  long v = 0;\n  for (unsigned t = 0; t < 100; t++)\n" \
	     "    if (" read " != t)\n      v += r->slot[t % 16]; " marker "\n" \
	     "  a = (void *)v;\n")

static void expect_with(const char *text, const char *profile)
{
	struct src s = { "ring.c", text };

	expect_findings(&s, 1, profile);
}

Test(external, a_producer_into_declared_memory_needs_a_release)
{
	expect_with(PRODUCE("/*W*/", "WRITE_ONCE(r->head, h + 1);"), "shm_ring external none\n");
	cr_assert(strstr(last_findings_text(), "is not ordered before the write of 'r->head'"), "%s",
		  last_findings_text());
}

Test(external, a_producer_with_a_release_is_ordered)
{
	expect_with(PRODUCE("", "smp_store_release(&r->head, h + 1);"), "shm_ring external none\n");
}

Test(external, without_the_declaration_nothing_is_assumed)
{
	expect_with(PRODUCE("", "WRITE_ONCE(r->head, h + 1);"), NULL);
}

Test(external, a_consumer_of_declared_memory_needs_an_acquire)
{
	expect_with(CONSUME("READ_ONCE(r->head)", "/*R*/"), "shm_ring external none\n");
}

Test(external, a_consumer_with_an_acquire_is_ordered)
{
	expect_with(CONSUME("smp_load_acquire(&r->head)", ""), "shm_ring external none\n");
}

/* Both accesses must be in the declared memory: a field alone declares
 * only itself. */
Test(external, a_declared_field_alone_leaves_the_data_in_the_tree)
{
	expect_with(PRODUCE("", "WRITE_ONCE(r->head, h + 1);"), "shm_ring.head external none\n");
}

Test(external, declared_fields_are_each_external)
{
	expect_with(PRODUCE("/*W*/", "WRITE_ONCE(r->head, h + 1);"),
		    "shm_ring.head external none\nshm_ring.slot external none\n");
}

/* Untyped memory reached through a function's result: the index and the
 * slots are pointers into what shm_base() returns. */
#define BASE(publish, marker) \
	HEAD "static char area[4096];\n" \
	"char *shm_base(void);\n" \
	"static void *side(void *a) { char *base = shm_base();\n" \
	"  unsigned *idx = (unsigned *)base; long *slots = (long *)(base + 64);\n" \
	"  for (unsigned h = 0; h < 100; h++) {\n" \
	"    slots[h % 16] = h; " marker "\n" \
	"    " publish "\n  }\n  return a; }\n" \
	"char *shm_base(void) { return area; }\n" \
	"int main(void) { pthread_t t; pthread_create(&t, 0, side, 0); pthread_join(t, 0); return 0; }\n"

Test(external, memory_a_declared_function_returns_is_external)
{
	expect_with(BASE("WRITE_ONCE(*idx, h + 1);", "/*W*/"), "shm_base external none\n");
}

Test(external, memory_a_declared_function_returns_published_with_a_release)
{
	expect_with(BASE("smp_store_release(idx, h + 1);", ""), "shm_base external none\n");
}

/* The profile line names memory, nothing else: no order, no obj=. */
Test(external, profile_line_takes_order_none_and_no_parameters)
{
	struct vocab v = { 0 };
	char err[256];

	cr_assert_eq(vocab_parse(&v, "shm_ring external none\nshm_ring.head external none\n", "t.prof", err,
				 sizeof err), 0, "%s", err);
	vocab_finish(&v, NULL);
	cr_assert_not_null(vocab_find_contract(&v, "shm_ring.head", NULL, OP_EXTERNAL));
	cr_assert_null(vocab_find(&v, "shm_ring", NULL), "a declaration is no primitive");
	vocab_free(&v);
	cr_assert_eq(vocab_parse(&v, "shm_ring external acquire\n", "t.prof", err, sizeof err), -1);
	cr_assert(strstr(err, "t.prof:1: 'external' takes order none") != NULL, "%s", err);
	vocab_free(&v);
	cr_assert_eq(vocab_parse(&v, "map_ring external none obj=0\n", "t.prof", err, sizeof err), -1);
	cr_assert(strstr(err, "t.prof:1: 'external' takes order none and no obj=N") != NULL, "%s", err);
	vocab_free(&v);
}

/* Typed memory reached through a declared function's result: the fields
 * are external there, through the local the result was stored in, and
 * only there (external.c, declared_source). */
#define MAPPED(publish, marker) \
	HEAD "struct ring { unsigned head; long slot[16]; };\n" \
	"static struct ring mem;\n" \
	"struct ring *map_ring(void) { return &mem; }\n" \
	"static void *side(void *a) { struct ring *r = map_ring();\n" \
	"  for (unsigned h = 0; h < 100; h++) {\n" \
	"    r->slot[h % 16] = h; " marker "\n" \
	"    " publish "\n  }\n  return a; }\n" \
	"int main(void) { pthread_t t; pthread_create(&t, 0, side, 0); pthread_join(t, 0); return 0; }\n"

Test(external, typed_memory_a_declared_function_returns_is_external)
{
	expect_with(MAPPED("WRITE_ONCE(r->head, h + 1);", "/*W*/"), "map_ring external none\n");
}

Test(external, typed_memory_a_declared_function_returns_published_with_a_release)
{
	expect_with(MAPPED("smp_store_release(&r->head, h + 1);", ""), "map_ring external none\n");
}

/* Global variables declared by name. */
#define GLOBALS(publish, marker) \
	HEAD "long shm_slots[16];\nunsigned shm_idx;\n" \
	"static void *side(void *a) { for (unsigned h = 0; h < 100; h++) {\n" \
	"    shm_slots[h % 16] = h; " marker "\n" \
	"    " publish "\n  }\n  return a; }\n" \
	"int main(void) { pthread_t t; pthread_create(&t, 0, side, 0); pthread_join(t, 0); return 0; }\n"

Test(external, declared_global_variables_are_external)
{
	expect_with(GLOBALS("WRITE_ONCE(shm_idx, h + 1);", "/*W*/"), "shm_slots external none\nshm_idx external none\n");
}

Test(external, declared_global_variables_published_with_a_release)
{
	expect_with(GLOBALS("smp_store_release(&shm_idx, h + 1);", ""), "shm_slots external none\nshm_idx external none\n");
}
