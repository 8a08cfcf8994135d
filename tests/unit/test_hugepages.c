/* tests/unit/test_hugepages.c — when `scan` runs itself again with glibc's
 * malloc asking for transparent huge pages (analyzer/driver/hugepages.c):
 * only in the kernel's "madvise" mode, never over the user's own setting,
 * and keeping the user's other tunables. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/driver/hugepages.h"

static void expect_tunables(const char *given, const char *modes, const char *want)
{
	char *got = huge_pages_tunables(given, modes);

	if (!want)
		cr_expect_null(got, "given \"%s\" in \"%s\": \"%s\", expected no change", given ? given : "(unset)",
			       modes ? modes : "(unreadable)", got);
	else
		cr_expect(got && strcmp(got, want) == 0, "given \"%s\" in \"%s\": \"%s\", expected \"%s\"",
			  given ? given : "(unset)", modes ? modes : "(unreadable)", got ? got : "(no change)", want);
	free(got);
}

Test(hugepages, added_in_the_madvise_mode)
{
	expect_tunables(NULL, "always [madvise] never\n", "glibc.malloc.hugetlb=1");
	expect_tunables("", "always [madvise] never\n", "glibc.malloc.hugetlb=1");
}

Test(hugepages, the_users_other_tunables_are_kept)
{
	expect_tunables("glibc.malloc.arena_max=2", "always [madvise] never\n",
			"glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

Test(hugepages, the_users_own_setting_stands)
{
	expect_tunables("glibc.malloc.hugetlb=0", "always [madvise] never\n", NULL);
	expect_tunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2", "always [madvise] never\n", NULL);
}

Test(hugepages, nothing_in_the_other_modes)
{
	expect_tunables(NULL, "[always] madvise never\n", NULL);
	expect_tunables(NULL, "always madvise [never]\n", NULL);
	expect_tunables(NULL, NULL, NULL);
	expect_tunables(NULL, "", NULL);
}
