/* db/focus_sites.h — the source sites the runtime's focus watches: the
 * owner of the query that reads them from a scan's database, and of the
 * file `kcsan-scan run` writes them into once for every process of a run.
 *
 * Three kinds of site (runtime/focus.h says what focus does with each):
 *   KDB_FOCUS_PLAIN    the plain access of a candidate of a finding; what:
 *                      read, write or rmw
 *   KDB_FOCUS_MARKED   the marked access a writer-side candidate publishes
 *                      with; what: its access
 *   KDB_FOCUS_BARRIER  a barrier site the runtime applies by address; what:
 *                      its ordering (full, wmb, rmb, release, ...)
 *
 * Why a file: every instrumented process of a run needs the same sites,
 * and the query costs 15-40 ms on a large tree's database (Concurrency
 * Kit: 37,000 barrier events to filter, read through a fresh SQLite
 * connection with a cold page cache) -- at the start of each process, a
 * third of a 0.1 s test program's run.  `run` queries once and the
 * processes read a few kilobytes.  A process started without it (KCSAN_DB
 * set by hand, or the file gone) queries the database itself.
 *
 * The file: KDB_FOCUS_SITES_MAGIC, the database's absolute path and a NUL
 * (a process whose KCSAN_DB names another database ignores the file), then
 * per site two strings, each ended by a NUL: "KIND LINE WHAT" (WHAT never
 * has a space; "-" when the row has none) and PATH, whatever it holds.
 *
 * SQLite only through a struct kdb_sqlite_fns (sqlite_fns.h): the runtime,
 * which loads it with dlopen, links this file too.
 */
#ifndef KCSAN_DB_FOCUS_SITES_H
#define KCSAN_DB_FOCUS_SITES_H

#include <stddef.h>
#include <stdio.h>

#include "sqlite_fns.h"

enum { KDB_FOCUS_PLAIN = 0, KDB_FOCUS_MARKED = 1, KDB_FOCUS_BARRIER = 2 };

#define KDB_FOCUS_SITES_MAGIC "kcsan-focus-sites 1\n"

/* Called for each site; what may be NULL.  A value other than 0 stops
 * the walk and is returned by it. */
typedef int (*kdb_focus_site_fn)(void *arg, int kind, const char *path, int line,
				 const char *what);

/* Runs the query on DB: 0 after the last site, FN's value if it stopped,
 * or -1 on an SQLite error (sq->errmsg(db) says which). */
int kdb_focus_sites_query(const struct kdb_sqlite_fns *sq, sqlite3 *db, kdb_focus_site_fn fn,
			  void *arg);

/* Writes the file for the database DB_PATH (absolute): the query's sites
 * to OUT.  0, or -1 on an SQLite error (*sqlite_failed set) or a write
 * error (errno). */
int kdb_focus_sites_write(const struct kdb_sqlite_fns *sq, sqlite3 *db, const char *db_path,
			  FILE *out, int *sqlite_failed);

/* Walks the file's contents BUF[0, LEN) as the query would: 0 after the
 * last site, FN's value if it stopped, -1 when BUF is not such a file or
 * was written for another database than DB_PATH (nothing called then). */
int kdb_focus_sites_parse(const char *buf, size_t len, const char *db_path,
			  kdb_focus_site_fn fn, void *arg);

#endif
