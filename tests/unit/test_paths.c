/* tests/unit/test_paths.c — one rule for "relative to the scanned tree"
 * (analyzer/model/paths.c), used by finding ids, finding locations and
 * the report. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "analyzer/model/paths.h"

Test(paths, below_the_root)
{
	cr_assert_str_eq(path_in_tree("/r/src/a.c", "/r"), "src/a.c");
	cr_assert_str_eq(path_in_tree("/r/src/a.c", "/r/"), "src/a.c");
	cr_assert_str_eq(path_in_tree("/r/a.c", "/r//"), "a.c");
}

Test(paths, not_below_the_root)
{
	cr_assert_null(path_in_tree("/r2/a.c", "/r"));     /* a sibling that shares a prefix */
	cr_assert_null(path_in_tree("/r", "/r"));
	cr_assert_null(path_in_tree("/r/", "/r"));
	cr_assert_null(path_in_tree("/usr/include/stdio.h", "/r"));
	cr_assert_null(path_in_tree("src/a.c", "/r"));
}

Test(paths, no_root_to_speak_of)
{
	cr_assert_null(path_in_tree("/usr/include/stdio.h", "/"));
	cr_assert_null(path_in_tree("/a.c", ""));
	cr_assert_null(path_in_tree("/a.c", NULL));
	cr_assert_null(path_in_tree(NULL, "/r"));
}

static void normalizes(const char *in, const char *want)
{
	char *got = path_normalized(in);

	cr_assert_str_eq(got, want, "%s", in);
	free(got);
}

Test(paths, normalized)
{
	normalizes("/t/CodeSamples/datastruct/Issaquah/../../api.h", "/t/CodeSamples/api.h");
	normalizes("/t/./a//b/./c.h", "/t/a/b/c.h");
	normalizes("/t/a/..", "/t");
	normalizes("/..", "/");
	normalizes("/../x.h", "/x.h");
	normalizes("/", "/");
	normalizes("/t/a.h", "/t/a.h");
	normalizes("/t/..h/.x", "/t/..h/.x");      /* names that start with dots */
}
