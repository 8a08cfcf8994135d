/* tests/unit/temp_db.h — a fresh kcsan-scan database in a temporary
 * directory of its own, for the unit tests that write rows by hand. */
#ifndef KCSAN_TEST_TEMP_DB_H
#define KCSAN_TEST_TEMP_DB_H

#include <sqlite3.h>

struct temp_db {
	char dir[64];
	sqlite3 *db;
};

/* Creates /tmp/kcsan-TAG-XXXXXX/k.db with our schema into T (fails the
 * current test when it cannot). */
void temp_db_open(struct temp_db *t, const char *tag);
/* Closes it and removes its directory. */
void temp_db_close(struct temp_db *t);

#endif
