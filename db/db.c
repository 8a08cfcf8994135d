/* db/db.c — opening kcsan-scan databases and small helpers shared by the
 * scanner, the report and the runtime.  See db.h for the contracts.
 *
 * The rule that keeps other people's files safe: nothing is written to a
 * file before it is known to be ours (or empty).  "Ours" is decided by the
 * tables, not by PRAGMA user_version alone, which any SQLite file may set:
 * every table and column of db/schema.sql must be there.  The expected
 * shape is read from the schema itself (applied to an in-memory database),
 * so there is no second list to keep in step. */
#include "db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Every (table, column) of a database, one per row. */
static const char shape_sql[] =
	"SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c"
	" WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'";

/* Does DB have every table and column that db/schema.sql creates?
 * Returns 1, 0, or -1 when DB cannot be read. */
static int has_our_tables(sqlite3 *db)
{
	sqlite3 *ref = NULL;
	sqlite3_stmt *want = NULL, *have = NULL;
	int ours = -1, rc;

	if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(ref, kdb_schema_sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(ref, shape_sql, -1, &want, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master m, pragma_table_info(m.name) c"
			       " WHERE m.type = 'table' AND m.name = ?1 AND c.name = ?2",
			       -1, &have, NULL) != SQLITE_OK)
		goto out;
	ours = 1;
	while (ours == 1 && (rc = sqlite3_step(want)) == SQLITE_ROW) {
		sqlite3_bind_text(have, 1, (const char *)sqlite3_column_text(want, 0), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(have, 2, (const char *)sqlite3_column_text(want, 1), -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(have);
		if (rc != SQLITE_ROW)
			ours = rc == SQLITE_DONE ? 0 : -1;
		sqlite3_reset(have);
	}
out:
	sqlite3_finalize(want);
	sqlite3_finalize(have);
	sqlite3_close(ref);
	return ours;
}

struct header {
	int version;    /* PRAGMA user_version, -1 when unreadable */
	int tables;     /* entries of sqlite_master, -1 when unreadable */
	int ours;       /* has_our_tables() */
};

/* Reads the header from one snapshot: read apart, a schema another
 * process commits in between looks like a foreign database (version 0,
 * yet tables). */
static void read_header(sqlite3 *db, struct header *h)
{
	int in_txn = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;

	h->version = user_version(db);
	h->tables = table_count(db);
	h->ours = h->tables > 0 ? has_our_tables(db) : 0;
	if (in_txn)
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
}

/* How long a connection waits for another one's lock before its statement
 * fails with SQLITE_BUSY, and how often it looks again meanwhile
 * (wait_for_lock). */
#define BUSY_GIVE_UP_MS 30000
#define BUSY_POLL_US 500

/* Switches to WAL.  Changing the journal mode needs the database to
 * itself and SQLite does not call the busy handler for it, so when other
 * processes are creating or using the same file at this moment it is
 * retried for up to BUSY_GIVE_UP_MS. */
static int set_wal(sqlite3 *db, char *err, size_t errlen)
{
	for (int waited_ms = 0;; waited_ms += 10) {
		int rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if (((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) || waited_ms >= BUSY_GIVE_UP_MS) {
			snprintf(err, errlen, "database error: %s", sqlite3_errmsg(db));
			return -1;
		}
		sqlite3_sleep(10);
	}
}

/* "file:PATH?immutable=1" with PATH percent-encoded where a URI needs it. */
static char *immutable_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *uri = malloc(3 * strlen(path) + sizeof "file:?immutable=1"), *o;

	if (!uri)
		return NULL;
	o = uri + sprintf(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p < 0x20 || *p >= 0x7f) {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		} else {
			*o++ = (char)*p;
		}
	}
	strcpy(o, "?immutable=1");
	return uri;
}

/* A WAL database that nobody may write (in a read-only directory, a CI
 * artifact) cannot be opened read-only the usual way when its -shm file
 * is missing: SQLite wants to create it.  With no -wal file either, the
 * database file alone is the whole content, and opening it immutable is
 * exact.  Returns the connection or NULL. */
static sqlite3 *open_immutable(const char *path)
{
	char *wal = malloc(strlen(path) + sizeof "-wal"), *uri;
	struct stat st;
	sqlite3 *db = NULL;
	int has_wal;

	if (!wal)
		return NULL;
	sprintf(wal, "%s-wal", path);
	has_wal = stat(wal, &st) == 0 && st.st_size > 0;
	free(wal);
	if (has_wal || !(uri = immutable_uri(path)))
		return NULL;
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX,
			    NULL) != SQLITE_OK) {
		sqlite3_close(db);
		db = NULL;
	}
	free(uri);
	return db;
}

/*
 * SQLite's busy handler for the connections we open.  Parsing workers
 * store each TU in a transaction of its own, and two workers often want
 * to store at once: the second waits for the first's commit, some tens of
 * milliseconds.  sqlite3_busy_timeout()'s handler sleeps longer and longer
 * between tries (1, 2, 5, 10, 15 ms ...), so a wait of 20 ms became one of
 * 33; looking again every half millisecond ends the wait when the lock
 * is free.  (Open vSwitch at -j 2: 29 of the 326 stores waited, 0.55 s in
 * all.)  Returns nonzero to try again.
 */
static int wait_for_lock(void *unused, int tries)
{
	struct timespec poll = { 0, BUSY_POLL_US * 1000L };

	(void)unused;
	if ((long long)tries * BUSY_POLL_US >= (long long)BUSY_GIVE_UP_MS * 1000)
		return 0;
	nanosleep(&poll, NULL);
	return 1;
}

sqlite3 *kdb_open(const char *path, enum kdb_mode mode, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int flags = mode == KDB_CREATE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
				       : SQLITE_OPEN_READONLY;
	struct header h;

	if (!*path) {
		snprintf(err, errlen, "the database name is empty");
		return NULL;
	}
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
	sqlite3_busy_handler(db, wait_for_lock, NULL);
	sqlite3_extended_result_codes(db, 1);

	/* Reading the header tells a non-database file apart before we write. */
	read_header(db, &h);
	if ((h.version < 0 || h.tables < 0) && mode == KDB_READ_ONLY) {
		sqlite3 *imm = open_immutable(path);

		if (imm) {
			sqlite3_close(db);
			db = imm;
			read_header(db, &h);
		}
	}
	if (h.version < 0 || h.tables < 0 || h.ours < 0) {
		snprintf(err, errlen, "cannot read '%s' as a kcsan-scan database: %s", path, sqlite3_errmsg(db));
		goto fail;
	}
	if (h.version == 0 && h.tables == 0) {
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
		read_header(db, &h);
	}
	if (h.version != KDB_SCHEMA_VERSION && h.version > 0 && h.tables > 0 &&
	    sqlite3_table_column_metadata(db, NULL, "scans", "tool_version", NULL, NULL, NULL, NULL, NULL) == SQLITE_OK) {
		snprintf(err, errlen, "database '%s' has schema version %d, this kcsan-scan needs version %d; "
			 "scan into a new file or delete it", path, h.version, KDB_SCHEMA_VERSION);
		goto fail;
	}
	if (h.version != KDB_SCHEMA_VERSION || !h.ours) {
		snprintf(err, errlen, "'%s' is not a kcsan-scan database (it has other tables); refusing to touch it",
			 path);
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

/* The statements kdb_cached keeps start with this comment: it tells them
 * apart from the connection's other statements (which their owners
 * finalize), with no table of our own beside SQLite's list. */
#define CACHED_MARK "/* kdb_cached */ "

sqlite3_stmt *kdb_cached(sqlite3 *db, const char *sql)
{
	size_t ml = strlen(CACHED_MARK);
	sqlite3_stmt *st;
	char *text;

	for (st = sqlite3_next_stmt(db, NULL); st; st = sqlite3_next_stmt(db, st)) {
		const char *s = sqlite3_sql(st);

		if (s && strncmp(s, CACHED_MARK, ml) == 0 && strcmp(s + ml, sql) == 0) {
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			return st;
		}
	}
	text = sqlite3_mprintf("%s%s", CACHED_MARK, sql);
	if (!text || sqlite3_prepare_v3(db, text, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "kcsan-scan: internal error: cannot prepare \"%s\": %s\n", sql, sqlite3_errmsg(db));
		abort();
	}
	sqlite3_free(text);
	return st;
}

void kdb_close(sqlite3 *db)
{
	sqlite3_stmt *st, *next;
	size_t ml = strlen(CACHED_MARK);

	for (st = sqlite3_next_stmt(db, NULL); st; st = next) {
		const char *s = sqlite3_sql(st);

		next = sqlite3_next_stmt(db, st);
		if (s && strncmp(s, CACHED_MARK, ml) == 0)
			sqlite3_finalize(st);
	}
	sqlite3_close(db);
}

long long kdb_intern(sqlite3 *db, const char *table, const char *keycol,
		     const char *key, const char *extracol, const char *extra)
{
	char sql[256];
	sqlite3_stmt *st;
	long long id = -1;
	int rc;

	/* (TABLE and the columns are ours, never input: the statements are
	 * few, each prepared once per connection) */
	snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE %s = ?1", table, keycol);
	st = kdb_cached(db, sql);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -1;
	if (id >= 0 && extracol && extra) {
		/* Several names for one key (two TUs name a field through
		 * different expressions): the least one stays, so that the name
		 * does not depend on which TU a worker stored first. */
		snprintf(sql, sizeof sql, "UPDATE %s SET %s = ?2 WHERE id = ?1 AND %s > ?2", table, extracol, extracol);
		st = kdb_cached(db, sql);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, extra, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE)
			id = -1;
		sqlite3_reset(st);
	}
	if (id >= 0)
		return id;

	if (extracol)
		snprintf(sql, sizeof sql, "INSERT INTO %s(%s, %s) VALUES (?1, ?2)", table, keycol, extracol);
	else
		snprintf(sql, sizeof sql, "INSERT INTO %s(%s) VALUES (?1)", table, keycol);
	st = kdb_cached(db, sql);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (extracol)
		sqlite3_bind_text(st, 2, extra ? extra : key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_reset(st);
	return id;
}

void kdb_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
