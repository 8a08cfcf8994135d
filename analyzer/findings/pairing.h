/* analyzer/findings/pairing.h — from the ordering analysis to findings: pair the
 * writer-side and reader-side patterns on the same (data, flag), apply the
 * precision rules, write candidates, pairs and findings into the database. */
#ifndef KCSAN_PAIRING_H
#define KCSAN_PAIRING_H

#include <sqlite3.h>
#include "analyzer/analysis/dataflow.h"
#include "analyzer/model/vocab.h"

struct finding_counts { int errors, warnings, notes; };

/* Replaces the stored candidates, pairs and findings with those of A.
 * ROOT is the directory file paths are made relative to.  Returns 0, or
 * -1 with ERR (nothing is changed then). */
int pairing_store(sqlite3 *db, const struct analysis *a, const struct vocab *vocab,
		  const char *root, long long scan_id, struct finding_counts *counts,
		  char *err, size_t errlen);

#endif
