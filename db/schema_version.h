/* db/schema_version.h — the PRAGMA user_version that db/schema.sql sets.
 *
 * The one number that the CLI, the analyser (through db.h) and the
 * runtime (which loads SQLite itself and includes only this) compare a
 * database against.  Change it together with the line in db/schema.sql;
 * tests/unit/test_db.c checks that the two agree. */
#ifndef KCSAN_DB_SCHEMA_VERSION_H
#define KCSAN_DB_SCHEMA_VERSION_H

#define KDB_SCHEMA_VERSION 6

#endif
