/* tests/unit/test_suppress.c — the comment lexer of inline suppressions
 * (analyzer/findings/suppress.c): markers in comments count, in strings and code
 * not; the kinds of a list; lines and columns. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/findings/suppress.h"

static struct suppression_list parse(const char *text)
{
	struct suppression_list l = { 0 };

	suppress_parse(text, strlen(text), &l);
	return l;
}

Test(suppress, line_comment_every_kind)
{
	struct suppression_list l = parse("int x;\n  x = 1; // kcsan-scan: ignore\n");

	cr_assert_eq(l.n, 1);
	cr_assert_eq(l.items[0].line, 2);
	cr_assert_eq(l.items[0].col, 13);
	cr_assert_eq(l.items[0].nkinds, 0);
	suppress_list_free(&l);
}

Test(suppress, block_comment_with_kinds)
{
	struct suppression_list l = parse("/* one\n * kcsan-scan:ignore( missing-release ,data-race)\n */\n");

	cr_assert_eq(l.n, 1);
	cr_assert_eq(l.items[0].line, 2);
	cr_assert_eq(l.items[0].nkinds, 2);
	cr_assert_str_eq(l.items[0].kinds[0], "missing-release");
	cr_assert_str_eq(l.items[0].kinds[1], "data-race");
	suppress_list_free(&l);
}

Test(suppress, strings_and_code_are_not_comments)
{
	struct suppression_list l = parse(
		"const char *s = \"// kcsan-scan: ignore\";\n"
		"char c = '\"'; int kcsan_scan_ignore;\n"
		"const char *t = \"\\\" /* kcsan-scan: ignore */\";\n");

	cr_assert_eq(l.n, 0);
	suppress_list_free(&l);
}

Test(suppress, near_misses)
{
	/* "ignored" is another word; a marker needs the "kcsan-scan:" prefix. */
	struct suppression_list l = parse("// kcsan-scan: ignored\n// ignore\n/* kcsan-scan: ignore */ /* kcsan-scan: ignore(x) */\n");

	cr_assert_eq(l.n, 2);
	cr_assert_eq(l.items[0].line, 3);
	cr_assert_eq(l.items[1].col, 29);
	cr_assert_eq(l.items[1].nkinds, 1);
	suppress_list_free(&l);
}

Test(suppress, unterminated_comment_and_empty_text)
{
	struct suppression_list l = parse("/* kcsan-scan: ignore");

	cr_assert_eq(l.n, 1);
	suppress_list_free(&l);
	l = parse("");
	cr_assert_eq(l.n, 0);
	suppress_list_free(&l);
}
