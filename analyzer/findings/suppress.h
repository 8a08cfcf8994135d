/* analyzer/findings/suppress.h — inline suppressions: comments that tell
 * kcsan-scan to stay quiet about a finding.
 *
 *   x = 1;   // kcsan-scan: ignore
 *   // kcsan-scan: ignore(missing-release, data-race)
 *   y = 2;
 *
 * A marker covers findings with a location on its own line or on the line
 * below it; with a list it covers only the kinds named.  The scan reads
 * them from every file that holds events and keeps them in the
 * suppressions table; `report` applies them. */
#ifndef KCSAN_SUPPRESS_H
#define KCSAN_SUPPRESS_H

#include <stddef.h>
#include <sqlite3.h>

struct suppression {
	int line, col;          /* of the marker, 1-based */
	char **kinds;           /* the kinds named; NULL (nkinds 0) for every kind */
	int nkinds;
};

struct suppression_list {
	struct suppression *items;
	int n, cap;
};

/* Finds the markers in the comments of TEXT (LEN bytes; string and
 * character literals are skipped) and appends them to OUT. */
void suppress_parse(const char *text, size_t len, struct suppression_list *out);

void suppress_list_free(struct suppression_list *l);

/* Replaces the suppressions table with the markers of every file that
 * holds events, in one transaction.  A file that cannot be read any more
 * has none.  Returns 0, or -1 with a one-line reason in ERR. */
int suppress_refresh(sqlite3 *db, char *err, size_t errlen);

#endif
