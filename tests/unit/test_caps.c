/* tests/unit/test_caps.c — an iteration cap that stops a fixpoint is
 * counted (analyzer/analysis/caps.c), never silent.  The derivation of
 * locals from marked reads is flow-insensitive and walks the function in
 * order, one step of a chain per round: a chain written backwards, longer
 * than the cap, runs out of rounds; the same chain written forwards needs
 * one round. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analysis/caps.h"
#include "scan_helper.h"

#define CHAIN 40

/* A function whose local l40 comes from READ_ONCE(flag) through 40 copies,
 * the copies written last-first (BACKWARDS) or first-first. */
static char *chain_source(int backwards)
{
	size_t cap = 64 * CHAIN + 512, len = 0;
	char *s = malloc(cap);

	cr_assert_not_null(s);
	len += snprintf(s + len, cap - len, "#include <kcsan/lkmm.h>\nint flag;\nint f(void)\n{\n\tint ");
	for (int i = 0; i <= CHAIN; i++)
		len += snprintf(s + len, cap - len, "l%d%s", i, i < CHAIN ? ", " : ";\n");
	len += snprintf(s + len, cap - len, "\tfor (int k = 0; k < 2; k++) {\n");
	for (int j = 0; j <= CHAIN; j++) {
		int i = backwards ? CHAIN - j : j;

		if (i == 0)
			len += snprintf(s + len, cap - len, "\t\tl0 = READ_ONCE(flag);\n");
		else
			len += snprintf(s + len, cap - len, "\t\tl%d = l%d;\n", i, i - 1);
	}
	snprintf(s + len, cap - len, "\t}\n\treturn l%d;\n}\n", CHAIN);
	return s;
}

Test(caps, backwards_chain_hits_the_derivation_cap)
{
	char *text = chain_source(1);

	expect_one(text);
	free(text);
	cr_assert_geq(analysis_cap_count(CAP_DERIVED), 1, "the cap was hit, but not counted");
}

Test(caps, forwards_chain_hits_none)
{
	char *text = chain_source(0);

	expect_one(text);
	free(text);
	cr_assert_eq(analysis_caps_hit(), 0);
}

/* A recursive component that passes a pointer parameter on: each round of
 * its fixpoint cloned the clones of the round before (count_b's access
 * seen through count_a's call, seen through count_b's call, ...), so that
 * its summaries never settled -- the cap was hit, and each turn of the
 * recursion made one more finding of the same two writes (26 of them).
 * Clones are now made once per access, call and object (callview.c):
 * the component settles, and each racy write is found once. */
static const char recursive_src[] =
	"#include <kcsan/lkmm.h>\n"
	"void count_b(int *total, int depth);\n"
	"void count_a(int *total, int depth)\n"
	"{\n"
	"\t*total += 1; /*W*/\n"
	"\tif (depth > 0)\n"
	"\t\tcount_b(total, depth - 1);\n"
	"}\n"
	"void count_b(int *total, int depth)\n"
	"{\n"
	"\t*total += 2; /*W*/\n"
	"\tif (depth > 0)\n"
	"\t\tcount_a(total, depth - 1);\n"
	"}\n"
	"int sum, ready;\n"
	"void writer(void)\n"
	"{\n"
	"\tcount_a(&sum, 3);\n"
	"\tWRITE_ONCE(ready, 1);\n"
	"}\n"
	"int reader(void)\n"
	"{\n"
	"\tif (READ_ONCE(ready))\n"
	"\t\treturn sum; /*R*/\n"
	"\treturn 0;\n"
	"}\n";

Test(caps, recursion_passing_a_pointer_settles)
{
	const char *text;
	int lines = 0;

	expect_one(recursive_src);
	cr_assert_eq(analysis_caps_hit(), 0, "a recursive component did not settle");
	text = last_findings_text();
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	cr_assert_eq(lines, 3, "one finding per racy access, got:\n%s", text);
}

Test(caps, print_names_what_was_hit)
{
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof buf - 1, "w");

	analysis_caps_reset();
	cr_assert_eq(analysis_caps_print(f), 0);
	fflush(f);
	cr_assert_str_eq(buf, "iteration caps hit: none\n");
	rewind(f);
	analysis_cap_hit(CAP_SUMMARY);
	analysis_cap_hit(CAP_SUMMARY);
	analysis_cap_hit(CAP_DERIVED);
	cr_assert_eq(analysis_caps_print(f), 2);
	fputc('\0', f);
	fclose(f);
	cr_assert_str_eq(buf, "iteration caps hit: local-derivation 1, recursive-summaries 2\n");
}
