/* analyzer/model/store.h — moving facts between memory and the database.
 *
 * store_tu() replaces everything known about one translation unit in one
 * transaction, so an interrupted scan never leaves half a TU behind.
 * store_load_functions() reads every function of the tree back for the
 * whole-tree analysis (one copy per link key: a static inline function in
 * a header is the same function in every TU that includes it). */
#ifndef KCSAN_STORE_H
#define KCSAN_STORE_H

#include <sqlite3.h>
#include "facts.h"

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
 * function_free on each, then free). Event ids are filled in. */
int store_load_functions(sqlite3 *db, struct function **out, int *n);

/* FNV-1a 64 of a file's content as 16 hex digits into HEX (17 bytes);
 * returns -1 if the file cannot be read. */
int hash_file(const char *path, char *hex);
void hash_text(const char *text, size_t len, char *hex);

#endif
