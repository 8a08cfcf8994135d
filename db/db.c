/* db/db.c — opening kcsan-scan databases and small helpers shared by the
 * scanner, the report and the runtime.  See db.h for the contracts. */
#include "db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int user_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Counts the tables of a database; used to tell a fresh file from a
 * foreign database that merely has user_version 0. */
static int table_count(sqlite3 *db)
{
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* Reads user_version and the table count from one snapshot: read apart,
 * a schema another process commits in between looks like a foreign
 * database (version 0, yet tables). */
static void read_header(sqlite3 *db, int *version, int *tables)
{
	int in_txn = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;

	*version = user_version(db);
	*tables = table_count(db);
	if (in_txn)
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
}

/* Switches to WAL.  Changing the journal mode needs the database to
 * itself and SQLite does not call the busy handler for it, so when other
 * processes are creating or using the same file at this moment it is
 * retried for up to the busy timeout. */
static int set_wal(sqlite3 *db, char *err, size_t errlen)
{
	for (int waited_ms = 0;; waited_ms += 10) {
		int rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if (((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) || waited_ms >= 30000) {
			snprintf(err, errlen, "database error: %s", sqlite3_errmsg(db));
			return -1;
		}
		sqlite3_sleep(10);
	}
}

sqlite3 *kdb_open(const char *path, enum kdb_mode mode, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int flags = mode == KDB_CREATE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
				       : SQLITE_OPEN_READONLY;
	int version, tables;

	if (mode == KDB_READ_ONLY && access(path, F_OK) != 0) {
		snprintf(err, errlen, "database '%s' does not exist (run 'kcsan-scan scan' first)", path);
		return NULL;
	}
	if (sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open database '%s': %s", path,
			 db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 30000);
	sqlite3_extended_result_codes(db, 1);

	/* Reading the header tells a non-database file apart before we write. */
	read_header(db, &version, &tables);
	if (version < 0 || tables < 0) {
		snprintf(err, errlen, "'%s' is not a kcsan-scan database: %s", path, sqlite3_errmsg(db));
		goto fail;
	}
	if (version == 0 && tables == 0) {
		if (mode != KDB_CREATE) {
			snprintf(err, errlen, "database '%s' is empty (run 'kcsan-scan scan' first)", path);
			goto fail;
		}
		if (set_wal(db, err, errlen) < 0)
			goto fail;
		if (kdb_exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
			goto fail;
		/* Another process may have created the schema meanwhile. */
		if (table_count(db) == 0 && kdb_exec(db, kdb_schema_sql, err, errlen) < 0) {
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			goto fail;
		}
		if (kdb_exec(db, "COMMIT", err, errlen) < 0)
			goto fail;
		version = user_version(db);
	}
	if (version != KDB_SCHEMA_VERSION) {
		if (version == 0)
			snprintf(err, errlen, "'%s' is not a kcsan-scan database (it has other tables); refusing to touch it", path);
		else
			snprintf(err, errlen, "database '%s' has schema version %d, this kcsan-scan needs version %d; "
				 "scan into a new file or delete it", path, version, KDB_SCHEMA_VERSION);
		goto fail;
	}
	/* A reader must work on a database it may not write (a CI artifact):
	 * only writers set the journal mode. */
	if (mode == KDB_CREATE && set_wal(db, err, errlen) < 0)
		goto fail;
	if (kdb_exec(db, mode == KDB_CREATE
		     ? "PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL"
		     : "PRAGMA foreign_keys=ON", err, errlen) < 0)
		goto fail;
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

int kdb_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "database error: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

sqlite3_stmt *kdb_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "kcsan-scan: internal error: cannot prepare '%.60s...': %s\n",
			sql, sqlite3_errmsg(db));
		abort();
	}
	return st;
}

long long kdb_intern(sqlite3 *db, const char *table, const char *keycol,
		     const char *key, const char *extracol, const char *extra)
{
	char sql[256];
	sqlite3_stmt *st;
	long long id = -1;

	snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE %s = ?1", table, keycol);
	st = kdb_prepare(db, sql);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (id >= 0)
		return id;

	if (extracol)
		snprintf(sql, sizeof sql, "INSERT INTO %s(%s, %s) VALUES (?1, ?2)", table, keycol, extracol);
	else
		snprintf(sql, sizeof sql, "INSERT INTO %s(%s) VALUES (?1)", table, keycol);
	st = kdb_prepare(db, sql);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (extracol)
		sqlite3_bind_text(st, 2, extra ? extra : key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return id;
}

void kdb_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
