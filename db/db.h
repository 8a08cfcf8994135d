/* db/db.h — opening kcsan-scan databases.
 *
 * Every program part opens its database through kdb_open() so that the
 * schema version check, WAL mode, foreign keys and the busy timeout are the
 * same everywhere.  The schema itself lives only in db/schema.sql; the build
 * embeds it as the string kdb_schema_sql.
 */
#ifndef KCSAN_DB_H
#define KCSAN_DB_H

#include <stddef.h>
#include <sqlite3.h>

#include "schema_version.h"

extern const char kdb_schema_sql[];

enum kdb_mode {
	KDB_READ_ONLY,  /* the file must exist and carry our schema; opened read-only */
	KDB_CREATE,     /* create the file and the schema if missing */
};

/* Opens PATH.  On success returns the connection (WAL, foreign keys on,
 * busy timeout set).  On failure returns NULL and writes a one-line reason
 * into ERR (ERRLEN bytes); the file is left byte for byte as it was.  A
 * database whose user_version is not KDB_SCHEMA_VERSION, or that lacks
 * any table or column of db/schema.sql (a file that is not a kcsan-scan
 * database at all), is refused before anything is written to it.  A
 * read-only database that cannot be opened the usual way (a WAL file in
 * a directory we may not write) is opened immutable when that is exact. */
sqlite3 *kdb_open(const char *path, enum kdb_mode mode, char *err, size_t errlen);

/* Runs SQL with no result rows; on error writes the message into ERR and
 * returns -1. */
int kdb_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);

/* Prepares SQL or aborts the program with a message naming the statement:
 * our own statements failing to prepare is a programming error. */
sqlite3_stmt *kdb_prepare(sqlite3 *db, const char *sql);

/* The statement for SQL, prepared once per connection and kept until
 * kdb_close: reset, its bindings cleared.  The caller resets it after
 * its last step (a statement left mid-read keeps a read transaction
 * open).  Aborts like kdb_prepare when SQL does not prepare. */
sqlite3_stmt *kdb_cached(sqlite3 *db, const char *sql);

/* Finalizes the statements kdb_cached kept, then closes DB. */
void kdb_close(sqlite3 *db);

/* Returns the id of the row of TABLE (files or objects) whose unique column
 * KEYCOL equals KEY, inserting it (with EXTRA as the second column value,
 * may be NULL) when missing.  When the row exists, EXTRACOL keeps the least
 * of its value and EXTRA, so that the result does not depend on the order
 * of the calls.  Returns -1 on error. */
long long kdb_intern(sqlite3 *db, const char *table, const char *keycol,
		     const char *key, const char *extracol, const char *extra);

/* Current time as ISO-8601 UTC ("2026-12-03T10:00:00Z") into BUF (>= 21 bytes). */
void kdb_now(char *buf, size_t len);

#endif
