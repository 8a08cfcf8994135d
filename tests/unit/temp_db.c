/* tests/unit/temp_db.c — see temp_db.h. */
#include "temp_db.h"
#include "db.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

void temp_db_open(struct temp_db *t, const char *tag)
{
	char path[128], err[512];

	snprintf(t->dir, sizeof t->dir, "/tmp/kcsan-%s-XXXXXX", tag);
	cr_assert_not_null(mkdtemp(t->dir));
	snprintf(path, sizeof path, "%s/k.db", t->dir);
	t->db = kdb_open(path, KDB_CREATE, err, sizeof err);
	cr_assert_not_null(t->db, "%s", err);
}

void temp_db_close(struct temp_db *t)
{
	char cmd[128];

	kdb_close(t->db);
	t->db = NULL;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
	cr_assert_eq(system(cmd), 0);
}
