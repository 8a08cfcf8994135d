/* db/facts.h — the owner of the facts tables: moving facts between memory
 * and the database.
 *
 * store_tu() replaces everything known about one translation unit in one
 * transaction, so an interrupted scan never leaves half a TU behind.
 * store_load_functions() reads every function of the tree back for the
 * whole-tree analysis (one copy per link key: a static inline function in
 * a header is the same function in every TU that includes it). */
#ifndef KCSAN_DB_FACTS_H
#define KCSAN_DB_FACTS_H

#include <sqlite3.h>
#include "analyzer/model/facts.h"

struct tu_record {
	const char *path;        /* absolute main file */
	const char *directory;
	const char *arguments;   /* JSON array text */
	const char *flags_hash;
	long long scan_id;
};

/* Writes the TU (and, when it parsed, its functions, blocks, events and
 * dependencies with their content hashes).  Returns 0 or -1 with ERR. */
int store_tu(sqlite3 *db, const struct tu_record *rec, const struct tu_facts *facts,
	     char *err, size_t errlen);

/* Is the stored TU for PATH up to date: it parsed, has the same flags hash,
 * and every file it read still has the stored content hash?  (Hashes files as needed.) */
int store_tu_is_current(sqlite3 *db, const char *path, const char *flags_hash);

/* Loads all functions.  *OUT is an array of *N functions (free with
 * function_free on each, then free). Event ids are filled in.  Returns 0,
 * or -1 (nothing loaded) when a read fails. */
int store_load_functions(sqlite3 *db, struct function **out, int *n);


#endif
