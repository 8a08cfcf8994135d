/* tests/unit/test_nesting.c — the front end's walks recurse once per level
 * of the code's nesting: past MAX_NESTING levels a translation unit fails
 * with one line and no facts (never a crash), below it is analysed as
 * usual.  Real libclang on generated sources, through extract_tu. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/frontend/extract.h"
#include "analyzer/frontend/extract_int.h"
#include "analyzer/frontend/libclang.h"
#include "analyzer/driver/scan.h"
#include "analyzer/model/vocab.h"

/* Extracts "int f(void) { return x+x+...; }" with TERMS terms (a sum is a
 * left-nested tree TERMS - 1 levels deep) into FACTS. */
static void extract_sum(int terms, struct tu_facts *facts)
{
	char path[] = "/tmp/kcsan-nesting-XXXXXX.c";
	int fd = mkstemps(path, 2);
	FILE *f;
	struct vocab v = { 0 };
	char err[256];
	char *args[] = { "-isystem", (char *)kcsan_include_dir() };

	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	fputs("int x;\nint f(void) { return x", f);
	for (int i = 1; i < terms; i++)
		fputs("+x", f);
	fputs("; }\n", f);
	fclose(f);
	kcsan_libclang_load();
	cr_assert_eq(vocab_load(&v, "lkmm", NULL, err, sizeof err), 0);
	vocab_finish(&v, NULL);
	extract_tu(path, "/tmp", args, 2, &v, NULL, facts);
	unlink(path);
	vocab_free(&v);
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
