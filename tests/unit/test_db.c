/* tests/unit/test_db.c — db/db.c's recognition of our databases: a new
 * file gets the schema and the version db/schema_version.h names; a file
 * with our user_version but other tables is refused and left unchanged. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"

static char path[64];

static void make_path(void)
{
	int fd;

	snprintf(path, sizeof path, "/tmp/kcsan-test-db.XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	unlink(path);
}

static void remove_files(void)
{
	char side[80];

	unlink(path);
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
}

TestSuite(db, .init = make_path, .fini = remove_files);

Test(db, new_file_gets_the_schema_version)
{
	char err[256];
	sqlite3 *db = kdb_open(path, KDB_CREATE, err, sizeof err);
	sqlite3_stmt *st;

	cr_assert_not_null(db, "%s", err);
	cr_assert_eq(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	cr_assert_eq(sqlite3_column_int(st, 0), KDB_SCHEMA_VERSION,
		     "db/schema.sql and db/schema_version.h disagree");
	sqlite3_finalize(st);
	sqlite3_close(db);
	/* and it is recognised as ours when opened again */
	db = kdb_open(path, KDB_READ_ONLY, err, sizeof err);
	cr_assert_not_null(db, "%s", err);
	sqlite3_close(db);
}

Test(db, our_version_other_tables_refused_untouched)
{
	char err[256], sql[128];
	sqlite3 *db;
	struct stat before, after;

	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	snprintf(sql, sizeof sql, "CREATE TABLE scans(x); PRAGMA user_version = %d", KDB_SCHEMA_VERSION);
	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	cr_assert_eq(stat(path, &before), 0);
	cr_assert_null(kdb_open(path, KDB_CREATE, err, sizeof err));
	cr_assert(strstr(err, "not a kcsan-scan database"), "%s", err);
	cr_assert_null(kdb_open(path, KDB_READ_ONLY, err, sizeof err));
	cr_assert_eq(stat(path, &after), 0);
	cr_assert_eq(before.st_size, after.st_size);
	cr_assert_eq(before.st_mtime, after.st_mtime);
}

Test(db, empty_name_refused)
{
	char err[256];

	cr_assert_null(kdb_open("", KDB_CREATE, err, sizeof err));
	cr_assert(strstr(err, "empty"), "%s", err);
}
