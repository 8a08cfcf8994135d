/* analyzer/driver/hugepages.c — the scan's heap in transparent huge pages
 * (see hugepages.h).
 *
 * The whole-tree analysis builds a heap of more than a gigabyte (Open
 * vSwitch: 1.5 GB) out of millions of small blocks.  Where the kernel
 * gives transparent huge pages only to memory that asks for them (the
 * "madvise" mode, Debian's default), glibc's malloc asks only when its
 * tunable glibc.malloc.hugetlb is 1.  Without them every 4 KiB of that
 * heap is a page fault of its own, and under a hypervisor a page fault is
 * dear: on the benchmark's virtual machine the faults took an eighth of
 * the analysis, and with huge pages a re-analysis of Open vSwitch took
 * 16-19 s instead of 20-23 at -j 1, 12-13 s instead of 14-16 at -j 2.
 *
 * glibc reads its tunables once, when the process starts, and malloc has
 * no call that sets this one later; so `scan` runs itself again, once,
 * with the tunable added to GLIBC_TUNABLES (the program /proc/self/exe
 * names).  It does so only when the
 * kernel is in that mode (in "always" every large heap gets huge pages
 * anyway, in "never" none does) and GLIBC_TUNABLES does not name the
 * tunable already: the user's own setting stands (glibc.malloc.hugetlb=0
 * turns this off), and the second run finds it set.  When the exec fails,
 * the scan goes on in the first process, only slower. */
#include "hugepages.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TUNABLE "glibc.malloc.hugetlb"
#define THP_MODE_FILE "/sys/kernel/mm/transparent_hugepage/enabled"

char *huge_pages_tunables(const char *tunables, const char *thp_modes)
{
	const char *added = TUNABLE "=1";
	char *out;

	/* (the file lists the modes with the kernel's own in brackets:
	 * "always [madvise] never") */
	if (!thp_modes || !strstr(thp_modes, "[madvise]"))
		return NULL;
	if (tunables && strstr(tunables, TUNABLE))
		return NULL;
	if (!tunables || !*tunables)
		return strdup(added);
	out = malloc(strlen(tunables) + 1 + strlen(added) + 1);
	if (out)
		sprintf(out, "%s:%s", tunables, added);
	return out;
}

void scan_prefer_huge_pages(char **argv)
{
#ifdef __GLIBC__
	char modes[128] = "", self[PATH_MAX];
	FILE *f = fopen(THP_MODE_FILE, "r");
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	const char *given = getenv("GLIBC_TUNABLES");
	char *before = given ? strdup(given) : NULL, *tunables;

	if (f) {
		if (!fgets(modes, sizeof modes, f))
			modes[0] = '\0';
		fclose(f);
	}
	/* (by the path the link names: under valgrind /proc/self/exe is the
	 * tool, the link the client) */
	tunables = n > 0 ? huge_pages_tunables(before, modes) : NULL;
	if (tunables && setenv("GLIBC_TUNABLES", tunables, 1) == 0) {
		self[n] = '\0';
		execv(self, argv);
		/* (the exec failed: go on as we were, the variable as it was) */
		if (before)
			setenv("GLIBC_TUNABLES", before, 1);
		else
			unsetenv("GLIBC_TUNABLES");
	}
	free(tunables);
	free(before);
#else
	(void)argv;
#endif
}
