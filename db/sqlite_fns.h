/* db/sqlite_fns.h — the SQLite functions that db/races.c calls, as a
 * table of pointers.
 *
 * db/races.c is linked into two kinds of program: the runtime, which must
 * not link libsqlite3 (a program run without KCSAN_DB needs none, and an
 * instrumented program may not even find it), and the CLI and its tests,
 * which link it.  So races.c calls SQLite only through this table: the
 * runtime fills it with dlopen (runtime/dynlib.c, kcsan_sq), a program
 * that links SQLite with KDB_SQLITE_FNS_LINKED.  The order of the fields
 * is the order of runtime/dynlib.c's name list (a static assertion there
 * checks the count). */
#ifndef KCSAN_DB_SQLITE_FNS_H
#define KCSAN_DB_SQLITE_FNS_H

#include <sqlite3.h>

struct kdb_sqlite_fns {
	__typeof__(&sqlite3_open_v2) open_v2;
	__typeof__(&sqlite3_busy_timeout) busy_timeout;
	__typeof__(&sqlite3_exec) exec;
	__typeof__(&sqlite3_prepare_v2) prepare_v2;
	__typeof__(&sqlite3_bind_text) bind_text;
	__typeof__(&sqlite3_bind_int64) bind_int64;
	__typeof__(&sqlite3_bind_null) bind_null;
	__typeof__(&sqlite3_step) step;
	__typeof__(&sqlite3_reset) reset;
	__typeof__(&sqlite3_column_text) column_text;
	__typeof__(&sqlite3_column_int) column_int;
	__typeof__(&sqlite3_column_int64) column_int64;
	__typeof__(&sqlite3_finalize) finalize;
	__typeof__(&sqlite3_errmsg) errmsg;
	__typeof__(&sqlite3_close) close;
	__typeof__(&sqlite3_get_autocommit) get_autocommit;
};

/* The initialiser for a program linked with libsqlite3 (the CLI's tests). */
#define KDB_SQLITE_FNS_LINKED { \
	sqlite3_open_v2, sqlite3_busy_timeout, sqlite3_exec, sqlite3_prepare_v2, \
	sqlite3_bind_text, sqlite3_bind_int64, sqlite3_bind_null, sqlite3_step, \
	sqlite3_reset, sqlite3_column_text, sqlite3_column_int, sqlite3_column_int64, \
	sqlite3_finalize, sqlite3_errmsg, sqlite3_close, sqlite3_get_autocommit }

#endif
