/* tests/unit/test_report.c — `kcsan-scan report` over real databases: each
 * test creates a SQLite file from db/schema.sql (kdb_open, KDB_CREATE) in a
 * temporary directory, inserts findings, locations, races and race
 * evidence the way the scanner and the runtime do, and checks the JSON
 * (every key, type and the order of docs/design.md §7), the text, the SARIF content,
 * the ordering, the dynamic-only race path and --fail-on. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/report.h"
#include "db.h"
#include "temp_db.h"

#define ROOT "/home/dev/proj"

static struct temp_db tmp;
static sqlite3 *db;

static void exec(const char *sql)
{
	char err[512];

	cr_assert_eq(kdb_exec(db, sql, err, sizeof err), 0, "%s: %s", sql, err);
}

static void open_db(void)
{
	temp_db_open(&tmp, "report");
	db = tmp.db;
	exec("INSERT INTO scans(id, tool_version, started_at, finished_at, root, arguments, status)"
	     " VALUES (1, '0.1.0', '2026-12-01T09:00:00Z', '2026-12-01T09:00:05Z', '/old/root', '[]', 'ok'),"
	     "        (2, '0.1.0', '2026-12-03T09:00:00Z', '2026-12-03T09:00:05Z', '" ROOT "', '[]', 'ok')");
}

static void close_db(void)
{
	temp_db_close(&tmp);
	db = NULL;
}

/* One static finding with the four locations of a message-passing pair
 * starting at FILE:LINE; FIX may be NULL.  Returns its findings.id. */
static long long add_finding(const char *fp, const char *kind, const char *severity,
			     const char *file, int line, const char *fix)
{
	sqlite3_stmt *st = kdb_prepare(db,
		"INSERT INTO findings(fingerprint, kind, severity, message, variable, flag,"
		" fix_file, fix_line, fix_suggestion, scan_id) VALUES (?1, ?2, ?3, ?4, 'x', 'flag', ?5, ?6, ?7, 2)");
	char msg[128];
	long long id;

	snprintf(msg, sizeof msg, "%s finding %s", kind, fp);
	sqlite3_bind_text(st, 1, fp, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, severity, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, msg, -1, SQLITE_TRANSIENT);
	if (fix) {
		sqlite3_bind_text(st, 5, file, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 6, line + 1);
		sqlite3_bind_text(st, 7, fix, -1, SQLITE_STATIC);
	}
	cr_assert_eq(sqlite3_step(st), SQLITE_DONE, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	id = sqlite3_last_insert_rowid(db);

	st = kdb_prepare(db, "INSERT INTO finding_locations(finding_id, seq, role, file, line, col,"
			 " function, access, marked) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
	static const struct { const char *role, *fn, *access; int dl, col, marked; } locs[] = {
		{ "plain-access", "writer", "write", 0, 5, 0 },
		{ "publish", "writer", "write", 1, 5, 1 },
		{ "consume", "reader", "read", 9, 9, 1 },
		{ "racing-access", "reader", "read", 10, 13, 0 },
	};
	/* Insert in reverse to show that seq, not rowid order, decides. */
	for (int i = 3; i >= 0; i--) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_text(st, 3, locs[i].role, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, file, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 5, line + locs[i].dl);
		sqlite3_bind_int(st, 6, locs[i].col);
		sqlite3_bind_text(st, 7, locs[i].fn, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, locs[i].access, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 9, locs[i].marked);
		cr_assert_eq(sqlite3_step(st), SQLITE_DONE, "%s", sqlite3_errmsg(db));
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return id;
}

/* Frame DEPTH of side SIDE of race RACE, as the runtime records it. */
static void add_frame(long long race, const char *side, int depth, const char *function,
		      const char *file, int line)
{
	sqlite3_stmt *st = kdb_prepare(db,
		"INSERT INTO race_frames(race_id, side, depth, function, file, line, module_offset)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, './prog+0x1234')");

	sqlite3_bind_int64(st, 1, race);
	sqlite3_bind_text(st, 2, side, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, depth);
	sqlite3_bind_text(st, 4, function, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, file, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, line);
	cr_assert_eq(sqlite3_step(st), SQLITE_DONE, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
}

/* One race as the runtime records it, with one frame on side a (A_FN at
 * A_FRAME_FILE:A_FRAME_LINE) and two on side b; returns races.id. */
static long long add_race(const char *fp, const char *kind, const char *object, int reordered,
			  const char *a_file, int a_line, const char *b_file, int b_line,
			  int observations, const char *first_seen,
			  const char *a_fn, const char *a_frame_file, int a_frame_line)
{
	sqlite3_stmt *st = kdb_prepare(db,
		"INSERT INTO races(fingerprint, kind, object, reordered,"
		" a_function, a_file, a_line, a_access, a_marked, a_tid,"
		" b_function, b_file, b_line, b_access, b_marked, b_tid,"
		" observations, first_seen, last_seen)"
		" VALUES (?1, ?2, ?3, ?4, 'inc', ?5, ?6, 'write', 0, 1, 'get', ?7, ?8, 'read', 0, 2,"
		" ?9, ?10, '2026-12-03T11:00:00Z')");
	long long id;

	sqlite3_bind_text(st, 1, fp, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, object, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, reordered);
	sqlite3_bind_text(st, 5, a_file, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, a_line);
	sqlite3_bind_text(st, 7, b_file, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 8, b_line);
	sqlite3_bind_int(st, 9, observations);
	sqlite3_bind_text(st, 10, first_seen, -1, SQLITE_STATIC);
	cr_assert_eq(sqlite3_step(st), SQLITE_DONE, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	id = sqlite3_last_insert_rowid(db);
	/* Side b's caller first: depth, not rowid order, decides. */
	add_frame(id, "b", 1, "main", "src/main.c", 4);
	add_frame(id, "b", 0, "get", ROOT "/src/cnt.c", 30);
	if (a_fn)       /* none: the runtime recorded no frame on side a */
		add_frame(id, "a", 0, a_fn, a_frame_file, a_frame_line);
	return id;
}

static void link_race(long long finding, long long race)
{
	char sql[128];

	snprintf(sql, sizeof sql, "INSERT INTO race_evidence(finding_id, race_id) VALUES (%lld, %lld)",
		 finding, race);
	exec(sql);
}

/* The rich fixture: every ordering key, both dynamic paths. */
static void fill_mixed(void)
{
	long long f2, r1, r2;

	add_finding("f1", "missing-release", "error", "src/mp.c", 12, "smp_store_release(&flag, 1);");
	f2 = add_finding("f2", "missing-acquire", "error", "src/mp.c", 22, "smp_load_acquire(&flag)");
	add_finding("f3", "unpaired-barrier", "warning", "src/a.c", 5, NULL);
	add_finding("f4", "data-race", "note", "b.c", 1, NULL);
	add_finding("f5", "missing-release", "error", "src/a.c", 40, NULL);   /* file before f1 */
	add_finding("f6", "missing-acquire", "error", "src/mp.c", 12, NULL);  /* kind before f1 */
	add_finding("f0", "missing-release", "error", "src/mp.c", 12, NULL);  /* id before f1 */
	add_finding("f7", "missing-release", "error", "src/mp.c", 3, NULL);   /* line before f1 */
	r1 = add_race("r1", "missing-acquire", "x", 0, ROOT "/src/mp.c", 22, ROOT "/src/mp.c", 12, 3,
		      "2026-12-03T10:00:00Z", "reader", ROOT "/src/mp.c", 22);
	r2 = add_race("r2", "missing-acquire", "x", 1, ROOT "/src/mp.c", 22, ROOT "/src/mp.c", 12, 2,
		      "2026-12-02T08:30:00Z", "reader2", "src/mp.c", 23);
	link_race(f2, r1);
	link_race(f2, r2);
	/* Not explained by any static finding. */
	add_race("r3", "data-race", "counter", 0, ROOT "/src/cnt.c", 17, ROOT "/src/cnt.c", 30, 7,
		 "2026-12-03T10:05:00Z", "inc", ROOT "/src/cnt.c", 17);
}

static char *render(enum report_format fmt)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	cr_assert_not_null(out);
	cr_assert_eq(report_render(db, fmt, out, err, sizeof err), 0, "%s", err);
	fclose(out);
	return buf;
}

static json_t *render_json(enum report_format fmt)
{
	char *text = render(fmt);
	json_error_t e;
	json_t *doc = json_loads(text, 0, &e);

	cr_assert_not_null(doc, "invalid JSON (%s, line %d):\n%s", e.text, e.line, text);
	free(text);
	return doc;
}

/* Asserts that object O has exactly the keys of KEYS (NULL-terminated) in
 * that order. */
static void expect_keys(json_t *o, const char *const *keys, const char *what)
{
	void *it = json_object_iter(o);
	int i = 0;

	cr_assert(json_is_object(o), "%s is not an object", what);
	for (; it && keys[i]; it = json_object_iter_next(o, it), i++)
		cr_assert_str_eq(json_object_iter_key(it), keys[i], "%s: key %d", what, i);
	cr_assert_null(it, "%s: unexpected key '%s'", what, it ? json_object_iter_key(it) : "");
	cr_assert_null(keys[i], "%s: missing key '%s'", what, keys[i]);
}

TestSuite(report, .init = open_db, .fini = close_db);

Test(report, json_top_level_shape)
{
	json_t *doc;

	fill_mixed();
	doc = render_json(REPORT_JSON);
	expect_keys(doc, (const char *[]){ "schema", "tool", "summary", "findings", NULL }, "report");
	cr_assert_str_eq(json_string_value(json_object_get(doc, "schema")), "kcsan-scan-report/1");
	expect_keys(json_object_get(doc, "tool"), (const char *[]){ "name", "version", NULL }, "tool");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "tool"), "name")), "kcsan-scan");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "tool"), "version")), "0.1.0");

	json_t *sum = json_object_get(doc, "summary");
	expect_keys(sum, (const char *[]){ "findings", "errors", "warnings", "notes", "suppressed", NULL }, "summary");
	cr_assert_eq(json_integer_value(json_object_get(sum, "findings")), 9);
	cr_assert_eq(json_integer_value(json_object_get(sum, "errors")), 7);
	cr_assert_eq(json_integer_value(json_object_get(sum, "warnings")), 1);
	cr_assert_eq(json_integer_value(json_object_get(sum, "notes")), 1);
	cr_assert_eq(json_integer_value(json_object_get(sum, "suppressed")), 0);
	cr_assert(json_is_array(json_object_get(doc, "findings")));
	cr_assert_eq(json_array_size(json_object_get(doc, "findings")), 9);
	json_decref(doc);
}

Test(report, json_every_finding_key_and_type)
{
	static const char *const base[] = { "id", "kind", "severity", "evidence", "message", "variable",
					    "flag", "confidence", "confidence_evidence", "locations",
					    "counterparts", NULL };
	static const char *const loc_keys[] = { "role", "file", "line", "column", "function", "access",
						"marked", NULL };
	json_t *doc, *f;
	size_t i;

	fill_mixed();
	doc = render_json(REPORT_JSON);
	json_array_foreach(json_object_get(doc, "findings"), i, f) {
		const char *keys[16];
		int n = 0;
		json_t *l, *e;
		size_t j;

		for (const char *const *k = base; *k; k++)
			keys[n++] = *k;
		if (json_object_get(f, "fix"))
			keys[n++] = "fix";
		if (json_object_get(f, "dynamic"))
			keys[n++] = "dynamic";
		keys[n] = NULL;
		expect_keys(f, keys, json_string_value(json_object_get(f, "id")));

		cr_assert(json_is_string(json_object_get(f, "id")));
		cr_assert(json_is_string(json_object_get(f, "kind")));
		cr_assert(json_is_string(json_object_get(f, "message")));
		cr_assert(json_is_string(json_object_get(f, "variable")));
		cr_assert(json_is_string(json_object_get(f, "flag")) || json_is_null(json_object_get(f, "flag")));
		const char *conf = json_string_value(json_object_get(f, "confidence"));
		cr_assert(conf && (!strcmp(conf, "high") || !strcmp(conf, "medium") || !strcmp(conf, "low")));
		cr_assert(json_is_array(json_object_get(f, "confidence_evidence")));
		cr_assert(json_is_array(json_object_get(f, "counterparts")));
		const char *sev = json_string_value(json_object_get(f, "severity"));
		cr_assert(sev && (!strcmp(sev, "error") || !strcmp(sev, "warning") || !strcmp(sev, "note")));
		cr_assert(json_array_size(json_object_get(f, "evidence")) >= 1);
		json_array_foreach(json_object_get(f, "evidence"), j, e)
			cr_assert(!strcmp(json_string_value(e), "static") || !strcmp(json_string_value(e), "dynamic"));
		cr_assert(json_array_size(json_object_get(f, "locations")) >= 2);
		json_array_foreach(json_object_get(f, "locations"), j, l) {
			expect_keys(l, loc_keys, "location");
			cr_assert(json_is_string(json_object_get(l, "role")));
			cr_assert(json_is_string(json_object_get(l, "file")));
			cr_assert(json_is_integer(json_object_get(l, "line")));
			cr_assert(json_is_integer(json_object_get(l, "column")));
			cr_assert(json_is_string(json_object_get(l, "function")));
			cr_assert(json_is_string(json_object_get(l, "access")));
			cr_assert(json_is_boolean(json_object_get(l, "marked")));
		}
		if (json_object_get(f, "fix")) {
			json_t *fix = json_object_get(f, "fix");

			expect_keys(fix, (const char *[]){ "file", "line", "suggestion", NULL }, "fix");
			cr_assert(json_is_string(json_object_get(fix, "file")));
			cr_assert(json_is_integer(json_object_get(fix, "line")));
			cr_assert(json_is_string(json_object_get(fix, "suggestion")));
		}
		if (json_object_get(f, "dynamic")) {
			json_t *d = json_object_get(f, "dynamic"), *stack, *fr;
			size_t s, k;

			expect_keys(d, (const char *[]){ "observations", "reordered", "first_seen", "matched", "stacks",
							 NULL },
				    "dynamic");
			/* how a static finding's races were joined; null for a race
			 * no static finding explains */
			cr_assert(json_array_size(json_object_get(f, "evidence")) == 2
					  ? json_is_string(json_object_get(d, "matched"))
					  : json_is_null(json_object_get(d, "matched")));
			cr_assert(json_is_integer(json_object_get(d, "observations")));
			cr_assert(json_is_boolean(json_object_get(d, "reordered")));
			cr_assert(json_is_string(json_object_get(d, "first_seen")));
			cr_assert_eq(json_array_size(json_object_get(d, "stacks")), 2);
			json_array_foreach(json_object_get(d, "stacks"), s, stack)
				json_array_foreach(stack, k, fr) {
					expect_keys(fr, (const char *[]){ "function", "file", "line", NULL }, "frame");
					cr_assert(json_is_string(json_object_get(fr, "function")));
					cr_assert(json_is_string(json_object_get(fr, "file")));
					cr_assert(json_is_integer(json_object_get(fr, "line")));
				}
		}
	}
	json_decref(doc);
}

/* A finding seen only at run time, with an id of 16 hex digits (not the
 * runtime's fingerprint, which hashes absolute paths). */
static int is_dynamic_id(json_t *f)
{
	const char *id = json_string_value(json_object_get(f, "id"));
	json_t *ev = json_object_get(f, "evidence");

	if (!id || strlen(id) != 16 || strspn(id, "0123456789abcdef") != 16)
		return 0;
	return json_array_size(ev) == 1 && strcmp(json_string_value(json_array_get(ev, 0)), "dynamic") == 0;
}

Test(report, deterministic_order)
{
	/* severity; then static+dynamic, dynamic, static; then file, line, kind, id */
	static const char *const expected[] = { "f2", "r3", "f5", "f7", "f6", "f0", "f1", "f3", "f4" };
	json_t *doc, *f;
	size_t i;

	fill_mixed();
	doc = render_json(REPORT_JSON);
	json_array_foreach(json_object_get(doc, "findings"), i, f) {
		if (expected[i][0] == 'r') {
			/* a race seen only at run time: its id is made from
			 * relative paths (is_dynamic_id), so check what it is */
			cr_assert(is_dynamic_id(f), "position %zu", i);
			cr_assert_str_eq(json_string_value(json_object_get(f, "variable")), "counter");
			continue;
		}
		cr_assert_str_eq(json_string_value(json_object_get(f, "id")), expected[i], "position %zu", i);
	}
	json_decref(doc);
}

Test(report, static_finding_content)
{
	json_t *doc, *f = NULL, *g, *l, *fix;
	size_t i;

	fill_mixed();
	doc = render_json(REPORT_JSON);
	json_array_foreach(json_object_get(doc, "findings"), i, g)
		if (!strcmp(json_string_value(json_object_get(g, "id")), "f1"))
			f = g;
	cr_assert_not_null(f);
	cr_assert_str_eq(json_string_value(json_object_get(f, "kind")), "missing-release");
	cr_assert_str_eq(json_string_value(json_object_get(f, "severity")), "error");
	cr_assert_eq(json_array_size(json_object_get(f, "evidence")), 1);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(f, "evidence"), 0)), "static");
	cr_assert_null(json_object_get(f, "dynamic"));
	/* locations by seq */
	static const char *const roles[] = { "plain-access", "publish", "consume", "racing-access" };
	json_array_foreach(json_object_get(f, "locations"), i, l)
		cr_assert_str_eq(json_string_value(json_object_get(l, "role")), roles[i]);
	l = json_array_get(json_object_get(f, "locations"), 1);
	cr_assert_str_eq(json_string_value(json_object_get(l, "file")), "src/mp.c");
	cr_assert_eq(json_integer_value(json_object_get(l, "line")), 13);
	cr_assert_eq(json_integer_value(json_object_get(l, "column")), 5);
	cr_assert_str_eq(json_string_value(json_object_get(l, "function")), "writer");
	cr_assert_str_eq(json_string_value(json_object_get(l, "access")), "write");
	cr_assert(json_is_true(json_object_get(l, "marked")));
	fix = json_object_get(f, "fix");
	cr_assert_str_eq(json_string_value(json_object_get(fix, "file")), "src/mp.c");
	cr_assert_eq(json_integer_value(json_object_get(fix, "line")), 13);
	cr_assert_str_eq(json_string_value(json_object_get(fix, "suggestion")), "smp_store_release(&flag, 1);");
	json_decref(doc);
}

Test(report, static_finding_confirmed_by_races)
{
	json_t *doc, *f, *d, *stacks, *fr;

	fill_mixed();
	doc = render_json(REPORT_JSON);
	f = json_array_get(json_object_get(doc, "findings"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(f, "id")), "f2");
	cr_assert_eq(json_array_size(json_object_get(f, "evidence")), 2);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(f, "evidence"), 0)), "static");
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(f, "evidence"), 1)), "dynamic");
	d = json_object_get(f, "dynamic");
	cr_assert_eq(json_integer_value(json_object_get(d, "observations")), 5);   /* 3 + 2 */
	cr_assert(json_is_true(json_object_get(d, "reordered")));                   /* r2 was */
	cr_assert_str_eq(json_string_value(json_object_get(d, "first_seen")), "2026-12-02T08:30:00Z");
	cr_assert_str_eq(json_string_value(json_object_get(d, "matched")), "recorded");
	/* stacks of the first race seen (r2), paths relative to the root */
	stacks = json_object_get(d, "stacks");
	fr = json_array_get(json_array_get(stacks, 0), 0);
	cr_assert_str_eq(json_string_value(json_object_get(fr, "function")), "reader2");
	cr_assert_str_eq(json_string_value(json_object_get(fr, "file")), "src/mp.c");
	cr_assert_eq(json_integer_value(json_object_get(fr, "line")), 23);
	cr_assert_eq(json_array_size(json_array_get(stacks, 1)), 2);
	fr = json_array_get(json_array_get(stacks, 1), 0);
	cr_assert_str_eq(json_string_value(json_object_get(fr, "function")), "get");
	cr_assert_str_eq(json_string_value(json_object_get(fr, "file")), "src/cnt.c");
	fr = json_array_get(json_array_get(stacks, 1), 1);
	cr_assert_str_eq(json_string_value(json_object_get(fr, "function")), "main");
	cr_assert_eq(json_integer_value(json_object_get(fr, "line")), 4);
	json_decref(doc);
}

Test(report, dynamic_only_race)
{
	json_t *doc, *f, *a, *b, *d;

	fill_mixed();
	doc = render_json(REPORT_JSON);
	f = json_array_get(json_object_get(doc, "findings"), 1);
	cr_assert(is_dynamic_id(f));
	cr_assert_str_eq(json_string_value(json_object_get(f, "kind")), "data-race");
	cr_assert_str_eq(json_string_value(json_object_get(f, "severity")), "error");
	cr_assert_eq(json_array_size(json_object_get(f, "evidence")), 1);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(f, "evidence"), 0)), "dynamic");
	cr_assert_str_eq(json_string_value(json_object_get(f, "variable")), "counter");
	cr_assert(json_is_null(json_object_get(f, "flag")));
	cr_assert(strncmp(json_string_value(json_object_get(f, "message")), "data race on 'counter'", 22) == 0,
		  "%s", json_string_value(json_object_get(f, "message")));
	cr_assert_null(json_object_get(f, "fix"));
	cr_assert_eq(json_array_size(json_object_get(f, "locations")), 2);
	a = json_array_get(json_object_get(f, "locations"), 0);
	b = json_array_get(json_object_get(f, "locations"), 1);
	cr_assert_str_eq(json_string_value(json_object_get(a, "role")), "plain-access");
	cr_assert_str_eq(json_string_value(json_object_get(a, "file")), "src/cnt.c");
	cr_assert_eq(json_integer_value(json_object_get(a, "line")), 17);
	cr_assert_str_eq(json_string_value(json_object_get(a, "function")), "inc");
	cr_assert_str_eq(json_string_value(json_object_get(a, "access")), "write");
	cr_assert(json_is_false(json_object_get(a, "marked")));
	cr_assert_str_eq(json_string_value(json_object_get(b, "role")), "racing-access");
	cr_assert_eq(json_integer_value(json_object_get(b, "line")), 30);
	cr_assert_str_eq(json_string_value(json_object_get(b, "function")), "get");
	d = json_object_get(f, "dynamic");
	cr_assert_eq(json_integer_value(json_object_get(d, "observations")), 7);
	cr_assert(json_is_false(json_object_get(d, "reordered")));
	/* side a's one frame (race_frames), the access itself */
	cr_assert_eq(json_array_size(json_array_get(json_object_get(d, "stacks"), 0)), 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_array_get(
		json_object_get(d, "stacks"), 0), 0), "function")), "inc");
	json_decref(doc);
}

Test(report, races_only_database)
{
	/* The runtime may fill a database that was never scanned. */
	char *text;

	exec("DELETE FROM scans");
	add_race("r9", "missing-release", "data", 1, "/abs/p.c", 8, "/abs/p.c", 20, 1,
		 "2026-12-03T10:00:00Z", NULL, NULL, 0);
	text = render(REPORT_TEXT);
	cr_assert_str_eq(text,
		"/abs/p.c:8: error: data race on 'data' observed at run time: plain write in inc() (reordered)"
		" races with plain read in get() [kcsan-scan:missing-release]\n"
		"/abs/p.c:20: note: racing read of 'data' here\n"
		"note: observed 1 time at run time (reordered)\n"
		"note: confidence high: observed at run time\n"
		"1 finding: 1 error, 0 warnings, 0 notes\n");
	free(text);
}

Test(report, text_format)
{
	long long f, r;
	char *text;

	f = add_finding("f1", "missing-release", "error", "src/mp.c", 12, "smp_store_release(&flag, 1);");
	add_finding("f3", "unpaired-barrier", "warning", "src/a.c", 5, NULL);
	r = add_race("r1", "missing-release", "x", 1, ROOT "/src/mp.c", 12, ROOT "/src/mp.c", 22, 3,
		     "2026-12-03T10:00:00Z", NULL, NULL, 0);
	link_race(f, r);
	text = render(REPORT_TEXT);
	cr_assert_str_eq(text,
		"src/mp.c:12:5: error: missing-release finding f1 [kcsan-scan:missing-release]\n"
		"src/mp.c:13:5: note: publishing write to 'flag' here\n"
		"src/mp.c:21:9: note: read of 'flag' here\n"
		"src/mp.c:22:13: note: racing read of 'x' here\n"
		"src/mp.c:13: note: fix: smp_store_release(&flag, 1);\n"
		"note: observed 3 times at run time (reordered)\n"
		"note: confidence high: observed at run time\n"
		"src/a.c:5:5: warning: unpaired-barrier finding f3 [kcsan-scan:unpaired-barrier]\n"
		"src/a.c:6:5: note: publishing write to 'flag' here\n"
		"src/a.c:14:9: note: read of 'flag' here\n"
		"src/a.c:15:13: note: racing read of 'x' here\n"
		"2 findings: 1 error, 1 warning, 0 notes\n");
	free(text);
}

Test(report, empty_database)
{
	char *text = render(REPORT_TEXT);
	json_t *doc;

	cr_assert_str_eq(text, "no findings\n");
	free(text);
	doc = render_json(REPORT_JSON);
	cr_assert_eq(json_array_size(json_object_get(doc, "findings")), 0);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(doc, "summary"), "findings")), 0);
	json_decref(doc);
}

Test(report, location_notes)
{
	struct report_finding f = { .variable = "ring->head", .flag = "ready" };
	struct report_location pub = { .role = "publish", .access = "rmw", .marked = 1 };
	struct report_location race = { .role = "racing-access", .access = "write" };
	struct report_location bar = { .role = "barrier", .access = "none" };
	struct report_location odd = { .role = "future-role" };
	struct report_finding anon = { 0 };
	struct report_location plain = { .role = "plain-access", .access = "read" };
	char *s;

	s = report_location_note(&f, &pub);
	cr_assert_str_eq(s, "publishing atomic update of 'ready' here");
	free(s);
	s = report_location_note(&f, &race);
	cr_assert_str_eq(s, "racing write to 'ring->head' here");
	free(s);
	s = report_location_note(&f, &bar);
	cr_assert_str_eq(s, "barrier here");
	free(s);
	s = report_location_note(&f, &odd);
	cr_assert_str_eq(s, "future-role here");
	free(s);
	s = report_location_note(&anon, &plain);
	cr_assert_str_eq(s, "plain read here");
	free(s);
}

static struct report load(void)
{
	struct report r;
	char err[512];

	cr_assert_eq(report_load(db, &r, err, sizeof err), 0, "%s", err);
	return r;
}

Test(report, fail_on_levels)
{
	struct report r;

	r = load();
	cr_assert_not(report_fails(&r, REPORT_NOTE));
	report_free(&r);

	add_finding("n", "data-race", "note", "a.c", 1, NULL);
	r = load();
	cr_assert_not(report_fails(&r, REPORT_ERROR));
	cr_assert_not(report_fails(&r, REPORT_WARNING));
	cr_assert(report_fails(&r, REPORT_NOTE));
	report_free(&r);

	add_finding("w", "unpaired-barrier", "warning", "a.c", 9, NULL);
	r = load();
	cr_assert_not(report_fails(&r, REPORT_ERROR));
	cr_assert(report_fails(&r, REPORT_WARNING));
	cr_assert(report_fails(&r, REPORT_NOTE));
	report_free(&r);

	add_race("r", "data-race", "c", 0, "a.c", 3, "a.c", 4, 1, "2026-12-03T10:00:00Z", NULL, NULL, 0);
	r = load();
	cr_assert(report_fails(&r, REPORT_ERROR));
	cr_assert_eq(r.errors, 1);
	cr_assert_eq(r.warnings, 1);
	cr_assert_eq(r.notes, 1);
	report_free(&r);
}

Test(report, names)
{
	enum report_format f;
	enum report_severity s;

	cr_assert_eq(report_parse_format("sarif", &f), 0);
	cr_assert_eq(f, REPORT_SARIF);
	cr_assert_eq(report_parse_format("xml", &f), -1);
	cr_assert_eq(report_parse_severity("warning", &s), 0);
	cr_assert_eq(s, REPORT_WARNING);
	cr_assert_eq(report_parse_severity("fatal", &s), -1);
	cr_assert_str_eq(report_severity_name(REPORT_NOTE), "note");
	cr_assert_eq(report_evidence_rank(REPORT_EV_STATIC | REPORT_EV_DYNAMIC), 0);
	cr_assert_eq(report_evidence_rank(REPORT_EV_DYNAMIC), 1);
	cr_assert_eq(report_evidence_rank(REPORT_EV_STATIC), 2);
}

Test(report, sarif_content)
{
	json_t *doc, *run, *rules, *results, *res, *rule;
	size_t i;

	fill_mixed();
	doc = render_json(REPORT_SARIF);
	cr_assert_str_eq(json_string_value(json_object_get(doc, "version")), "2.1.0");
	cr_assert_str_eq(json_string_value(json_object_get(doc, "$schema")),
			 "https://json.schemastore.org/sarif-2.1.0.json");
	cr_assert_eq(json_array_size(json_object_get(doc, "runs")), 1);
	run = json_array_get(json_object_get(doc, "runs"), 0);
	json_t *base = json_object_get(json_object_get(run, "originalUriBaseIds"), "%SRCROOT%");
	cr_assert_str_eq(json_string_value(json_object_get(base, "uri")), "file://" ROOT "/");
	rules = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
	/* one rule per kind present, in a fixed order */
	static const char *const kinds[] = { "missing-release", "missing-acquire", "data-race", "unpaired-barrier" };
	cr_assert_eq(json_array_size(rules), 4);
	json_array_foreach(rules, i, rule) {
		cr_assert_str_eq(json_string_value(json_object_get(rule, "id")), kinds[i]);
		cr_assert(json_is_string(json_object_get(json_object_get(rule, "shortDescription"), "text")));
		cr_assert(json_is_string(json_object_get(json_object_get(rule, "fullDescription"), "text")));
		cr_assert(json_is_string(json_object_get(json_object_get(rule, "help"), "text")));
		cr_assert(json_is_string(json_object_get(json_object_get(rule, "defaultConfiguration"), "level")));
	}
	results = json_object_get(run, "results");
	cr_assert_eq(json_array_size(results), 9);
	json_array_foreach(results, i, res) {
		size_t idx = (size_t)json_integer_value(json_object_get(res, "ruleIndex"));

		cr_assert_str_eq(json_string_value(json_object_get(json_array_get(rules, idx), "id")),
				 json_string_value(json_object_get(res, "ruleId")));
		cr_assert(json_is_string(json_object_get(json_object_get(res, "partialFingerprints"), "kcsanScan/v1")));
	}
	res = json_array_get(results, 0);      /* f2 */
	cr_assert_str_eq(json_string_value(json_object_get(res, "level")), "error");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(res, "partialFingerprints"),
							   "kcsanScan/v1")), "f2");
	json_t *loc = json_array_get(json_object_get(res, "locations"), 0);
	json_t *phys = json_object_get(loc, "physicalLocation");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(phys, "artifactLocation"), "uri")), "src/mp.c");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(phys, "artifactLocation"), "uriBaseId")),
			 "%SRCROOT%");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(phys, "region"), "startLine")), 22);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(phys, "region"), "startColumn")), 5);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(loc, "logicalLocations"), 0),
							   "name")), "writer");
	cr_assert_eq(json_array_size(json_object_get(res, "relatedLocations")), 3);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(
		json_object_get(res, "relatedLocations"), 0), "message"), "text")), "publish");
	json_t *props = json_object_get(res, "properties");
	cr_assert_eq(json_array_size(json_object_get(props, "evidence")), 2);
	cr_assert_str_eq(json_string_value(json_object_get(props, "variable")), "x");
	cr_assert_str_eq(json_string_value(json_object_get(props, "flag")), "flag");
	/* a note stays a note */
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(results, 8), "level")), "note");
	json_decref(doc);
}

/* A race without race_evidence rows confirms the static finding whose
 * access pair it hit: one side at the plain access, the other at the
 * racing access (same file, absolute with "./" against the scan's
 * relative path, same line, same kind of access).  A race at the plain
 * access's line with the other kind of access does not, and neither does
 * one between the plain access and some other access (a write-write race
 * on the line of a missing acquire confirmed it before). */
Test(report, race_joined_by_access_pair)
{
	json_t *doc, *f;

	add_finding("g1", "missing-release", "error", "src/mp.c", 12, NULL);   /* write 12, racing read 22 */
	add_race("q1", "missing-release", "x", 1, ROOT "/src/./mp.c", 12, ROOT "/src/mp.c", 22, 4,
		 "2026-12-03T10:00:00Z", NULL, NULL, 0);
	add_race("q2", "data-race", "x", 0, ROOT "/src/mp.c", 40, ROOT "/src/mp.c", 12, 1,
		 "2026-12-03T10:00:00Z", NULL, NULL, 0);   /* side b at line 12 is a read */
	add_race("q3", "data-race", "y", 0, ROOT "/src/mp.c", 12, ROOT "/src/mp.c", 50, 2,
		 "2026-12-03T10:00:00Z", NULL, NULL, 0);   /* the plain access and another read */
	doc = render_json(REPORT_JSON);
	cr_assert_eq(json_array_size(json_object_get(doc, "findings")), 3);
	f = json_array_get(json_object_get(doc, "findings"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(f, "id")), "g1");
	cr_assert_eq(json_array_size(json_object_get(f, "evidence")), 2);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(f, "dynamic"), "observations")), 4,
		     "q1 alone: q3 shares only the plain access");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(f, "dynamic"), "matched")),
			 "access pair");
	for (int i = 1; i < 3; i++) {
		f = json_array_get(json_object_get(doc, "findings"), i);
		cr_assert(is_dynamic_id(f));
		cr_assert_str_eq(json_string_value(json_object_get(f, "kind")), "data-race");
		cr_assert(json_is_null(json_object_get(json_object_get(f, "dynamic"), "matched")));
	}
	json_decref(doc);
}

/* Review bots compare ids across runners: a race seen only at run time has
 * the same id when the tree (and so every recorded path) lives elsewhere. */
Test(report, dynamic_id_independent_of_checkout)
{
	json_t *doc;
	char *first;

	add_race("r1", "data-race", "counter", 0, ROOT "/src/a.c", 10, ROOT "/src/b.c", 20, 1,
		 "2026-12-03T10:00:00Z", NULL, NULL, 0);
	doc = render_json(REPORT_JSON);
	first = strdup(json_string_value(json_object_get(json_array_get(json_object_get(doc, "findings"), 0), "id")));
	json_decref(doc);
	cr_assert_eq(sqlite3_exec(db,
		"UPDATE scans SET root = '/ci/runner-7/work/checkout';"
		"UPDATE races SET fingerprint = 'other', a_file = replace(a_file, '" ROOT "', '/ci/runner-7/work/checkout'),"
		" b_file = replace(b_file, '" ROOT "', '/ci/runner-7/work/checkout')", NULL, NULL, NULL), SQLITE_OK);
	doc = render_json(REPORT_JSON);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(doc, "findings"), 0), "id")),
			 first);
	json_decref(doc);
	free(first);
}
