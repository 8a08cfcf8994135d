/* tests/unit/test_nesting.c — the front end's walks recurse once per level
 * of the code's nesting: past MAX_NESTING levels a translation unit fails
 * with one line and no facts (never a crash), below it is analysed as
 * usual.  Real libclang on generated sources, through extract_tu. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan_helper.h"
#include "analyzer/frontend/extract_int.h"

/* Extracts "int f(void) { return x+x+...; }" with TERMS terms (a sum is a
 * left-nested tree TERMS - 1 levels deep) into FACTS. */
static void extract_sum(int terms, struct tu_facts *facts)
{
	static const char head[] = "int x;\nint f(void) { return x", tail[] = "; }\n";
	char *text = xmalloc(sizeof head + 2 * (size_t)terms + sizeof tail), *p = text;

	p += sprintf(p, "%s", head);
	for (int i = 1; i < terms; i++)
		p += sprintf(p, "+x");
	sprintf(p, "%s", tail);
	extract_text(text, facts);
	free(text);
}

Test(nesting, deeper_than_the_limit_fails_cleanly)
{
	struct tu_facts facts = { 0 };

	extract_sum(MAX_NESTING + 500, &facts);
	cr_assert_not_null(facts.diagnostics);
	cr_assert(strstr(facts.diagnostics, "nested deeper than") != NULL, "%s", facts.diagnostics);
	cr_assert(facts.own_reason);
	cr_assert_eq(facts.nfunctions, 0);
	facts_free(&facts);
}

Test(nesting, below_the_limit_is_analysed)
{
	struct tu_facts facts = { 0 };

	extract_sum(MAX_NESTING / 2, &facts);
	cr_assert_null(facts.diagnostics, "%s", facts.diagnostics);
	cr_assert_eq(facts.nfunctions, 1);
	facts_free(&facts);
}
