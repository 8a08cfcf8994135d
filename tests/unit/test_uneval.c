/* tests/unit/test_uneval.c — operands that are never evaluated are no
 * accesses (docs/history/real-code-reviews.md, W9): __typeof__(*pos) in the type operand of
 * offsetof (container_of, cds_list_for_each_entry), a compound literal's
 * type, _Generic's controlling expression and unselected associations,
 * __builtin_constant_p.  Each shape must give nothing; its twin that
 * really reads must still be reported.  Real scans, through
 * scan_helper.c. */
#include <criterion/criterion.h>

#include "scan_helper.h"

#define HEADERS "#include <kcsan/lkmm.h>\n#include <stddef.h>\n#include <string.h>\n"
#define LIST \
	"struct list_head { struct list_head *next; };\n" \
	"struct item { int flags; struct list_head list; } last;\n" \
	"struct list_head items;\n" \
	"int flag;\n" \
	"#define list_entry(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))\n"

Test(uneval, typeof_in_offsetof_reads_nothing)
{
	expect_one(HEADERS LIST
		   "void writer(void) {\n"
		   "	struct item *pos = list_entry(items.next, __typeof__(*pos), list);\n"
		   "	WRITE_ONCE(pos->flags, 1);\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n"
		   "void reader(struct item *it) { if (READ_ONCE(flag)) memset(it, 0, sizeof(*it)); }\n");
}

Test(uneval, builtin_offsetof_with_typeof_reads_nothing)
{
	expect_one(HEADERS LIST
		   "void writer(void) {\n"
		   "	struct item *pos = (struct item *)((char *)items.next -\n"
		   "		__builtin_offsetof(__typeof__(*pos), list));\n"
		   "	WRITE_ONCE(pos->flags, 1);\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n"
		   "void reader(struct item *it) { if (READ_ONCE(flag)) memset(it, 0, sizeof(*it)); }\n");
}

Test(uneval, a_real_read_of_the_struct_is_still_reported)
{
	expect_one(HEADERS LIST
		   "void writer(void) {\n"
		   "	struct item *pos = list_entry(items.next, __typeof__(*pos), list);\n"
		   "	last = *pos; /*W*/\n"
		   "	WRITE_ONCE(flag, 1);\n"
		   "}\n"
		   "void reader(struct item *it) {\n"
		   "	if (READ_ONCE(flag))\n"
		   "		memset(it, 0, sizeof(*it)); /*R*/\n"
		   "}\n");
}

#define WRITER "int data, flag; long r;\nvoid writer(void) { data = 1; WRITE_ONCE(flag, 1); }\n"

Test(uneval, generic_compound_literal_and_constant_p_read_nothing)
{
	expect_one(HEADERS WRITER
		   "void reader(void) {\n"
		   "	if (READ_ONCE(flag))\n"
		   "		r = _Generic(data, int: 1, default: 2) + _Generic(r, int: data + 0L, default: 3)\n"
		   "		    + (__typeof__(data)){ 4 } + __builtin_constant_p(data);\n"
		   "}\n");
}

Test(uneval, the_selected_generic_association_is_read)
{
	expect_one(HEADERS "int data, flag; long r;\n"
		   "void writer(void) { data = 1; /*W*/ WRITE_ONCE(flag, 1); }\n"
		   "void reader(void) {\n"
		   "	if (READ_ONCE(flag))\n"
		   "		r = _Generic(r, long: data + 0L, default: 3); /*R*/\n"
		   "}\n");
}
