/* tests/unit/scan_helper.c — see scan_helper.h. */
#include "scan_helper.h"

#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/driver/scan.h"
#include "analyzer/frontend/extract.h"
#include "analyzer/frontend/libclang.h"
#include "analyzer/model/vocab.h"

struct mark { char file[64]; int line; char kind[24]; int hit; };

static int collect_marks(const char *name, const char *text, struct mark *m, int max, int n)
{
	int line = 1;

	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			line++;
		if (p[0] == '/' && p[1] == '*' && p[3] == '*' && p[4] == '/' && n < max &&
		    (p[2] == 'W' || p[2] == 'R' || p[2] == 'B' || p[2] == 'D' || p[2] == 'F')) {
			snprintf(m[n].file, sizeof m[n].file, "%s", name);
			m[n].line = line;
			snprintf(m[n].kind, sizeof m[n].kind, "%s",
				 p[2] == 'W' ? "missing-release" : p[2] == 'R' ? "missing-acquire" :
				 p[2] == 'D' ? "data-race" : p[2] == 'F' ? "missing-full-barrier" : "unpaired-barrier");
			m[n].hit = 0;
			n++;
		}
	}
	return n;
}

static char findings_text[8192];

const char *last_findings_text(void)
{
	return findings_text;
}

void expect_findings(const struct src *srcs, int n, const char *extra_profile)
{
	char dir[] = "/tmp/kcsan-unit-XXXXXX";
	char db_path[128], prof_path[128], *paths[8];
	struct mark marks[64];
	int nmarks = 0, unexpected = 0;
	struct scan_options o = { 0 };
	const char *profiles[1];
	sqlite3 *db;
	sqlite3_stmt *st;
	char report[4096] = "";
	size_t rl = 0;

	cr_assert_not_null(mkdtemp(dir));
	for (int i = 0; i < n; i++) {
		char p[256];
		FILE *f;

		snprintf(p, sizeof p, "%s/%s", dir, srcs[i].name);
		/* names may have directories: x/s.c */
		for (char *slash = strchr(p + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			mkdir(p, 0700);
			*slash = '/';
		}
		f = fopen(p, "w");
		cr_assert_not_null(f);
		fputs(srcs[i].text, f);
		fclose(f);
		paths[i] = strdup(p);
		nmarks = collect_marks(srcs[i].name, srcs[i].text, marks, 64, nmarks);
	}
	snprintf(db_path, sizeof db_path, "%s/k.db", dir);
	o.db_path = db_path;
	o.jobs = 1;
	o.paths = paths;
	o.npaths = n;
	o.quiet = 1;
	if (extra_profile) {
		FILE *f;

		snprintf(prof_path, sizeof prof_path, "%s/extra.prof", dir);
		f = fopen(prof_path, "w");
		fputs(extra_profile, f);
		fclose(f);
		profiles[0] = prof_path;
		o.profiles = profiles;
		o.nprofiles = 1;
	}
	cr_assert_eq(scan_run(&o), 0, "scan failed");

	cr_assert_eq(sqlite3_open(db_path, &db), SQLITE_OK);
	/* Every pairing the rules found: each finding (one per site) and the
	 * other pairings listed inside it (finding_parts), at the site. */
	sqlite3_prepare_v2(db, "SELECT f.kind, l.file, l.line, f.message, f.variable, f.flag, f.fix_suggestion"
			   " FROM findings f JOIN finding_locations l ON l.finding_id = f.id AND l.seq = 0"
			   " UNION ALL SELECT p.kind, l.file, l.line, p.message, f.variable, p.flag, NULL"
			   " FROM finding_parts p JOIN findings f ON f.id = p.finding_id"
			   " JOIN finding_locations l ON l.finding_id = f.id AND l.seq = 0", -1, &st, NULL);
	findings_text[0] = '\0';
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t fl = strlen(findings_text);

		snprintf(findings_text + fl, sizeof findings_text - fl, "%s|%s|%s|%s\n",
			 sqlite3_column_text(st, 3), sqlite3_column_text(st, 4),
			 sqlite3_column_text(st, 5), sqlite3_column_text(st, 6));
		const char *kind = (const char *)sqlite3_column_text(st, 0);
		const char *file = (const char *)sqlite3_column_text(st, 1);
		/* the file's name relative to the temporary directory */
		const char *base = strncmp(file, dir, strlen(dir)) == 0 && file[strlen(dir)] == '/' ?
				   file + strlen(dir) + 1 : strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		int line = sqlite3_column_int(st, 2), matched = 0;

		for (int i = 0; i < nmarks; i++)
			if (strcmp(marks[i].kind, kind) == 0 && strcmp(marks[i].file, base) == 0 &&
			    marks[i].line == line) {
				marks[i].hit = 1;
				matched = 1;
			}
		if (!matched) {
			unexpected++;
			rl += snprintf(report + rl, sizeof report - rl, "unexpected %s at %s:%d (%s); ",
				       kind, base, line, sqlite3_column_text(st, 3));
		}
		if (rl >= sizeof report)
			rl = sizeof report - 1;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	for (int i = 0; i < nmarks; i++)
		if (!marks[i].hit && rl < sizeof report) {
			rl += snprintf(report + rl, sizeof report - rl, "missing %s at %s:%d; ",
				       marks[i].kind, marks[i].file, marks[i].line);
			unexpected++;
		}
	for (int i = 0; i < n; i++) {
		char p[256];

		snprintf(p, sizeof p, "%s/%s", dir, srcs[i].name);
		unlink(p);
		free(paths[i]);
	}
	if (extra_profile)
		unlink(prof_path);
	snprintf(db_path, sizeof db_path, "%s/k.db-wal", dir);
	unlink(db_path);
	snprintf(db_path, sizeof db_path, "%s/k.db-shm", dir);
	unlink(db_path);
	snprintf(db_path, sizeof db_path, "%s/k.db", dir);
	unlink(db_path);
	rmdir(dir);
	cr_assert_eq(unexpected, 0, "%s", report);
}

void expect_one(const char *text)
{
	struct src s = { "t.c", text };

	expect_findings(&s, 1, NULL);
}

void extract_text(const char *text, struct tu_facts *facts)
{
	static const char *const profiles[] = { "lkmm", "c11", "gnu", "pthread" };
	char path[] = "/tmp/kcsan-extract-XXXXXX.c";
	int fd = mkstemps(path, 2);
	FILE *f;
	struct vocab v = { 0 };
	char err[256];
	char *args[] = { "-isystem", (char *)kcsan_include_dir() };

	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	kcsan_libclang_load();
	for (size_t i = 0; i < sizeof profiles / sizeof *profiles; i++)
		cr_assert_eq(vocab_load(&v, profiles[i], NULL, err, sizeof err), 0, "%s", err);
	vocab_finish(&v, NULL);
	extract_tu(path, "/tmp", args, 2, &v, NULL, facts);
	unlink(path);
	vocab_free(&v);
}
