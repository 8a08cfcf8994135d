/* analyzer/driver/hugepages.h — the scan's heap in transparent huge pages:
 * `scan` runs itself again with glibc's malloc told to ask for them, where
 * the kernel gives them only to memory that asks (see hugepages.c). */
#ifndef KCSAN_HUGEPAGES_H
#define KCSAN_HUGEPAGES_H

/* The GLIBC_TUNABLES value to run with, as a new string, given the one
 * the process has (TUNABLES, NULL when unset) and the kernel's list of
 * transparent-huge-page modes (THP_MODES, the text of
 * /sys/kernel/mm/transparent_hugepage/enabled, NULL when unreadable);
 * NULL when nothing is to change: the mode is not "madvise", or
 * TUNABLES names glibc.malloc.hugetlb already. */
char *huge_pages_tunables(const char *tunables, const char *thp_modes);

/* Where the tunable is to be added (glibc only), adds it and executes
 * /proc/self/exe with ARGV (main's); returns only when nothing was to
 * change or the exec failed, the environment then as it was. */
void scan_prefer_huge_pages(char **argv);

#endif
