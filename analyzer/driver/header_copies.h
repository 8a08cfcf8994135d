/* analyzer/driver/header_copies.h — which header functions a scan worker
 * can leave to a copy another TU stored (extract.h, struct header_copies).
 *
 * A worker asks the database once per header function and remembers the
 * answer: the first TU (by path) known to store a copy.  The worker's own
 * TUs come in path order (scan.c sorts them), so after the first TU that
 * stores a function, the worker's later TUs skip it without a query. */
#ifndef KCSAN_HEADER_COPIES_H
#define KCSAN_HEADER_COPIES_H

#include <sqlite3.h>
#include "analyzer/frontend/extract.h"

struct copies_known;

/* A cache over DB (borrowed; it must outlive the cache). */
struct copies_known *copies_known_new(sqlite3 *db);
void copies_known_free(struct copies_known *k);

/* The struct header_copies extract_tu takes, answering from K. */
struct header_copies copies_known_oracle(struct copies_known *k);

#endif
