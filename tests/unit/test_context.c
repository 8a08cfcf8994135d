/* tests/unit/test_context.c — precision on real-code shapes (docs/real-code.md):
 * which objects are really shared (weakness 3: private locals passed to
 * helpers, memory fresh from malloc), which code really runs concurrently
 * (weakness 5), and which programs really run together (weakness 6).  Each
 * correct shape must give nothing and its buggy twin must still be
 * reported.  Real scans, through scan_helper.c. */
#include <criterion/criterion.h>

#include "scan_helper.h"

#define LKMM "#include <kcsan/lkmm.h>\n"

/* ---- weakness 3: object identity ---- */

Test(identity, private_local_passed_to_a_helper_is_not_shared)
{
	expect_one(LKMM "int flag;\n"
		   "struct buf { int v; };\n"
		   "void consume(struct buf *b);\n"
		   "static void fill(struct buf *b, int v) { b->v = v; }\n"
		   "void writer(void) { struct buf mine; fill(&mine, 1); WRITE_ONCE(flag, 1); consume(&mine); }\n"
		   "void reader(void) { struct buf other; if (READ_ONCE(flag)) { fill(&other, 2); consume(&other); } }\n");
}

Test(identity, shared_struct_passed_to_the_same_helper_still_races)
{
	expect_one(LKMM "int flag;\n"
		   "struct buf { int v; } shared;\n"
		   "static void fill(struct buf *b, int v) { b->v = v; /*W*/ }\n"
		   "void writer(void) { fill(&shared, 1); WRITE_ONCE(flag, 1); }\n"
		   "int reader(void) { return smp_load_acquire(&flag) ? shared.v : 0; }\n");
}

Test(identity, private_local_array_passed_to_a_helper_is_not_shared)
{
	expect_one(LKMM "int flag;\n"
		   "static void zero(long *v, int n) { for (int i = 0; i < n; i++) v[i] = 0; }\n"
		   "void writer(void) { long mask[4]; zero(mask, 4); WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) { long mask[4]; if (READ_ONCE(flag)) zero(mask, 4); }\n");
}

Test(identity, initialising_fresh_memory_after_a_flag_read_races_with_nothing)
{
	expect_one(LKMM "#include <stdlib.h>\n"
		   "struct node { int a; } *gp, *spare;\n"
		   "int flag;\n"
		   "void writer(void) { gp->a = 1; WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) {\n"
		   "	if (READ_ONCE(flag)) {\n"
		   "		struct node *n = malloc(sizeof *n);\n"
		   "		if (!n)\n"
		   "			return;\n"
		   "		n->a = 2;\n"
		   "		smp_store_release(&spare, n);\n"
		   "	}\n"
		   "}\n");
}

Test(identity, fresh_memory_written_after_its_publication_still_races)
{
	expect_one(LKMM "#include <stdlib.h>\n"
		   "struct node { int a; } *gp, *spare;\n"
		   "int flag;\n"
		   "void writer(void) { gp->a = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) {\n"
		   "	if (READ_ONCE(flag)) {\n"
		   "		struct node *n = calloc(1, sizeof *n);\n"
		   "		smp_store_release(&spare, n);\n"
		   "		n->a = 2; /*R*/\n"
		   "	}\n"
		   "}\n");
}

Test(identity, fresh_memory_published_without_release_is_still_reported)
{
	expect_one(LKMM "#include <stdlib.h>\n"
		   "struct node { int a; } *head;\n"
		   "void push(int v) { struct node *n = malloc(sizeof *n); n->a = v; /*W*/ WRITE_ONCE(head, n); }\n"
		   "int get(void) { struct node *p = smp_load_acquire(&head); return p ? p->a : 0; }\n");
}
