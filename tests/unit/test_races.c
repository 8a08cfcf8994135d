/* tests/unit/test_races.c — the races a runtime records, end to end through
 * the database: written by db/races.c (the code the runtime links, here
 * with the linked SQLite in its function table), read back by
 * cli/report_load.c.  Each side's stack is rows of race_frames, in depth
 * order; a race seen again keeps its first stack; a side that is not
 * known has no frames; deleting a race deletes its frames; each run's
 * sightings are rows of run_races; paths are shown normalised and an
 * unknown line as null, never 0. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/report.h"
#include "db.h"
#include "temp_db.h"
#include "races.h"

static const struct kdb_sqlite_fns linked = KDB_SQLITE_FNS_LINKED;
static struct temp_db tmp;
static sqlite3 *db;

static void open_db(void)
{
	temp_db_open(&tmp, "races");
	db = tmp.db;
}

static void close_db(void)
{
	temp_db_close(&tmp);
	db = NULL;
}

TestSuite(races, .init = open_db, .fini = close_db);

/* The writer's frames: put <- produce <- a thread with no line info. */
static const struct kdb_frame writer_frames[] = {
	{ "put", "/src/deep.c", 5, "./deep+0x65ec" },
	{ "produce", "/src/deep.c", 6, "./deep+0x6637" },
	{ "w", NULL, 0, "./deep+0x6796" },
};
static const struct kdb_frame reader_frames[] = {
	{ "get", "/src/deep.c", 7, "./deep+0x668c" },
	{ "r", "/src/deep.c", 10, "./deep+0x680a" },
};
static const struct kdb_race_side writer = {
	"put", "/src/deep.c", 5, "write", 0, 1, writer_frames, 3,
};
static const struct kdb_race_side reader = {
	"get", "/src/deep.c", 7, "read", 0, 2, reader_frames, 2,
};

/* Writes R through a writer prepared once for all of them, in one
 * transaction each, as the runtime does. */
static void write_races(const struct kdb_race *const *r, int n)
{
	struct kdb_races w;

	cr_assert_eq(kdb_races_prepare(&w, &linked, db), SQLITE_OK, "%s", sqlite3_errmsg(db));
	for (int i = 0; i < n; i++) {
		cr_assert_eq(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
		cr_assert_eq(kdb_races_write(&w, r[i]), SQLITE_OK, "%s", sqlite3_errmsg(db));
		cr_assert_eq(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	}
	kdb_races_finalize(&w);
}

static long long count(const char *sql)
{
	sqlite3_stmt *st = kdb_prepare(db, sql);
	long long n;

	cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s: %s", sql, sqlite3_errmsg(db));
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* The one finding's dynamic stacks of the JSON report. */
static json_t *report_stacks(json_t **doc)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	json_t *f;

	cr_assert_not_null(out);
	cr_assert_eq(report_render(db, REPORT_JSON, out, err, sizeof err), 0, "%s", err);
	fclose(out);
	*doc = json_loads(buf, 0, NULL);
	free(buf);
	cr_assert_not_null(*doc);
	cr_assert_eq(json_array_size(json_object_get(*doc, "findings")), 1);
	f = json_array_get(json_object_get(*doc, "findings"), 0);
	return json_object_get(json_object_get(f, "dynamic"), "stacks");
}

static void expect_frame(json_t *stacks, int side, int depth, const char *fn, const char *file, int line)
{
	json_t *fr = json_array_get(json_array_get(stacks, side), depth);

	cr_assert_not_null(fr, "no frame %d on side %d", depth, side);
	cr_assert_str_eq(json_string_value(json_object_get(fr, "function")), fn);
	if (file)
		cr_assert_str_eq(json_string_value(json_object_get(fr, "file")), file);
	else
		cr_assert(json_is_null(json_object_get(fr, "file")));
	/* An unknown line is null: a 0 would read as a place in the file. */
	if (line)
		cr_assert_eq(json_integer_value(json_object_get(fr, "line")), line);
	else
		cr_assert(json_is_null(json_object_get(fr, "line")), "line of frame %d: not null", depth);
}

Test(races, frames_are_rows_read_back_in_depth_order)
{
	struct kdb_race r = { .fingerprint = "r1", .run_id = -1, .kind = "missing-release",
			      .object = "x", .reordered = 1, .a = &writer, .b = &reader,
			      .now = "2026-12-04T01:00:00Z" };
	const struct kdb_race *rs[] = { &r };
	json_t *doc, *stacks;

	write_races(rs, 1);
	cr_assert_eq(count("SELECT count(*) FROM race_frames WHERE side = 'a'"), 3);
	cr_assert_eq(count("SELECT count(*) FROM race_frames WHERE side = 'b'"), 2);
	cr_assert_eq(count("SELECT count(*) FROM race_frames WHERE side = 'a' AND depth = 2"
			   " AND function = 'w' AND file IS NULL AND line IS NULL"
			   " AND module_offset = './deep+0x6796'"), 1);
	cr_assert_eq(count("SELECT count(*) FROM races WHERE run_id IS NULL AND a_line = 5 AND b_line = 7"), 1);

	stacks = report_stacks(&doc);
	cr_assert_eq(json_array_size(json_array_get(stacks, 0)), 3);
	cr_assert_eq(json_array_size(json_array_get(stacks, 1)), 2);
	expect_frame(stacks, 0, 0, "put", "/src/deep.c", 5);
	expect_frame(stacks, 0, 1, "produce", "/src/deep.c", 6);
	expect_frame(stacks, 0, 2, "w", NULL, 0);
	expect_frame(stacks, 1, 0, "get", "/src/deep.c", 7);
	expect_frame(stacks, 1, 1, "r", "/src/deep.c", 10);
	json_decref(doc);
}

Test(races, a_race_seen_again_keeps_its_first_stack)
{
	static const struct kdb_frame other[] = { { "elsewhere", "/src/x.c", 99, "./deep+0x1" } };
	struct kdb_race_side again = writer;
	struct kdb_race first = { .fingerprint = "r1", .run_id = -1, .kind = "data-race",
				  .a = &writer, .b = &reader, .now = "2026-12-04T01:00:00Z" };
	struct kdb_race second = first;
	const struct kdb_race *rs[] = { &first, &second };
	json_t *doc, *stacks;

	again.frames = other;
	again.nframes = 1;
	second.a = &again;
	second.now = "2026-12-04T02:00:00Z";
	write_races(rs, 2);
	cr_assert_eq(count("SELECT observations FROM races"), 2);
	cr_assert_eq(count("SELECT count(*) FROM race_frames"), 5);
	cr_assert_eq(count("SELECT count(*) FROM race_frames WHERE function = 'elsewhere'"), 0);
	stacks = report_stacks(&doc);
	expect_frame(stacks, 0, 0, "put", "/src/deep.c", 5);
	cr_assert_eq(json_array_size(json_array_get(stacks, 0)), 3);
	json_decref(doc);
}

Test(races, unknown_other_side_has_no_frames)
{
	struct kdb_race r = { .fingerprint = "r2", .run_id = -1, .kind = "data-race",
			      .a = &writer, .b = NULL, .now = "2026-12-04T01:00:00Z" };
	const struct kdb_race *rs[] = { &r };
	json_t *doc, *stacks;

	write_races(rs, 1);
	cr_assert_eq(count("SELECT count(*) FROM races WHERE b_function IS NULL AND b_file IS NULL"), 1);
	cr_assert_eq(count("SELECT count(*) FROM race_frames WHERE side = 'b'"), 0);
	stacks = report_stacks(&doc);
	cr_assert_eq(json_array_size(json_array_get(stacks, 0)), 3);
	cr_assert_eq(json_array_size(json_array_get(stacks, 1)), 0);
	json_decref(doc);
}

Test(races, deleting_a_race_deletes_its_frames)
{
	struct kdb_race a = { .fingerprint = "ra", .run_id = -1, .kind = "data-race",
			      .a = &writer, .b = &reader, .now = "2026-12-04T01:00:00Z" };
	struct kdb_race b = a;
	const struct kdb_race *rs[] = { &a, &b };

	b.fingerprint = "rb";
	write_races(rs, 2);
	cr_assert_eq(count("SELECT count(*) FROM race_frames"), 10);
	cr_assert_eq(sqlite3_exec(db, "DELETE FROM races WHERE fingerprint = 'ra'", NULL, NULL, NULL), SQLITE_OK);
	cr_assert_eq(count("SELECT count(*) FROM race_frames"), 5);
	cr_assert_eq(count("SELECT count(*) FROM race_frames f JOIN races r ON r.id = f.race_id"
			   " WHERE r.fingerprint = 'rb'"), 5);
}

Test(races, each_run_that_sees_a_race_is_recorded_once)
{
	struct kdb_race r = { .fingerprint = "r1", .run_id = 1, .kind = "data-race",
			      .a = &writer, .b = &reader, .now = "2026-12-04T01:00:00Z" };
	struct kdb_race again = r, later = r, outside = r;
	const struct kdb_race *rs[] = { &r, &again, &later, &outside };

	cr_assert_eq(sqlite3_exec(db, "INSERT INTO runs(id, command, cwd, started_at) VALUES"
				  " (1, '[]', '/', 'x'), (2, '[]', '/', 'y')", NULL, NULL, NULL), SQLITE_OK);
	later.run_id = 2;
	outside.run_id = 7;	/* not in runs: a program not started by run */
	write_races(rs, 4);
	cr_assert_eq(count("SELECT observations FROM races"), 4);
	/* Found by run 1, which it keeps; seen by runs 1 and 2. */
	cr_assert_eq(count("SELECT run_id FROM races"), 1);
	cr_assert_eq(count("SELECT count(*) FROM run_races"), 2);
	cr_assert_eq(count("SELECT count(*) FROM run_races WHERE run_id = 2"), 1);
	cr_assert_eq(sqlite3_exec(db, "DELETE FROM races", NULL, NULL, NULL), SQLITE_OK);
	cr_assert_eq(count("SELECT count(*) FROM run_races"), 0);
}

/* Rows written by a runtime that did not normalise DWARF's names. */
Test(races, report_shows_paths_normalised)
{
	static const struct kdb_frame frames[] = {
		{ "put", "/src/validate/../../src/./inc//deep.h", 5, "./deep+0x65ec" },
	};
	struct kdb_race_side side = writer;
	struct kdb_race r = { .fingerprint = "r1", .run_id = -1, .kind = "data-race",
			      .a = &side, .b = &reader, .now = "2026-12-04T01:00:00Z" };
	const struct kdb_race *rs[] = { &r };
	json_t *doc, *stacks, *loc;

	side.file = frames[0].file;
	side.frames = frames;
	side.nframes = 1;
	write_races(rs, 1);
	stacks = report_stacks(&doc);
	expect_frame(stacks, 0, 0, "put", "/src/inc/deep.h", 5);
	loc = json_array_get(json_object_get(json_array_get(json_object_get(doc, "findings"), 0),
					     "locations"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(loc, "file")), "/src/inc/deep.h");
	json_decref(doc);
}

static void expect_normal(const char *in, const char *want)
{
	char buf[256];

	snprintf(buf, sizeof buf, "%s", in);
	kdb_path_normalize(buf);
	cr_assert_str_eq(buf, want, "'%s'", in);
}

Test(races, paths_are_normalised_lexically)
{
	/* The path: the '..'s that climb above a relative path stay. */
	expect_normal("validate/../../../include/ck_stack.h", "../../include/ck_stack.h");
	expect_normal("/ck/regressions/ck_stack/validate/../../../include/ck_stack.h", "/ck/include/ck_stack.h");
	expect_normal("a//b/./c/", "a/b/c");
	expect_normal("./a", "a");
	expect_normal("../a/../b", "../b");
	expect_normal("x/../../y", "../y");
	expect_normal("../../a/b/../..", "../..");
	expect_normal("a/b/../../..", "..");
	expect_normal("a/..", ".");
	expect_normal("", ".");
	expect_normal("/", "/");
	expect_normal("/..", "/");
	expect_normal("/../a", "/a");
	expect_normal("/a/b/../../..", "/");
	expect_normal("//a//b", "/a/b");
}
