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

/* Of function LINK_KEY defined in header FILE: the path of the first TU
 * (bytewise, as the loader orders them) that stores a copy, as a new
 * string, or NULL when none does (or the read fails). */
char *store_first_copy(sqlite3 *db, const char *link_key, const char *file);

/* A stored TU as a scan needs it to parse the TU again. */
struct stored_tu {
	char *path, *directory, *arguments, *flags_hash;
};

/* The TUs that skipped a header function (skipped_functions) whose copy
 * no longer stands: no TU whose path sorts before theirs stores it, or
 * the header is a harness.  They must be parsed again, storing every
 * function.  *OUT (free with stored_tus_free) holds *N of them, by path.
 * Returns 0, or -1 when the read fails. */
int store_orphaned_tus(sqlite3 *db, struct stored_tu **out, int *n);
void stored_tus_free(struct stored_tu *v, int n);

/* Loads all functions.  *OUT is an array of *N functions (free with
 * function_free on each, then free). Event ids are filled in.  Their
 * bodies are read by up to THREADS threads, the others through read-only
 * connections of their own to DB's file (none is written meanwhile); the
 * result does not depend on THREADS.  Returns 0, or -1 (nothing loaded)
 * when a read fails. */
int store_load_functions(sqlite3 *db, int threads, struct function **out, int *n);


#endif
