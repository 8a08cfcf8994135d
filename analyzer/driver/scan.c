/* analyzer/driver/scan.c — the scan driver (see scan.h).
 *
 * Input errors (missing paths, a bad compile database, a bad profile, an
 * unwritable database) are found before the database is opened, so they
 * never touch it.  Worker processes parse translation units and store
 * them, one transaction per TU (scan_workers.c: a file that crashes the
 * parser fails alone).  Incremental: a TU that parsed and whose flags,
 * profiles and every file it read are unchanged keeps its stored facts; a
 * TU that failed is parsed again (and fails again, counted) every scan.
 * Header functions are walked and stored once per tree (extract.h, struct
 * header_copies): the TUs go to the workers in path order, and a second
 * round parses again, storing everything, the TUs whose skipped functions
 * lost the copy they relied on (reparse_orphans). */
#include "scan.h"
#include "compdb.h"
#include "analyzer/analysis/caps.h"
#include "analyzer/analysis/dataflow.h"
#include "db.h"
#include "analyzer/frontend/extract.h"
#include "hashcache.h"
#include "analyzer/findings/pairing.h"
#include "scan_workers.h"
#include "db/facts.h"
#include "analyzer/model/hashmap.h"
#include "analyzer/findings/suppress.h"
#include "analyzer/model/vocab.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KCSAN_INCLUDE_DIR
#define KCSAN_INCLUDE_DIR "/usr/local/share/kcsan-scan/include"
#endif
#ifndef KCSAN_TOOL_VERSION
#define KCSAN_TOOL_VERSION "0.1.0"
#endif

static const char *const default_profiles[] = { "lkmm", "c11", "gnu", "pthread", "libc" };

const char *kcsan_include_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX - 64], probe[PATH_MAX];
	ssize_t n;
	const char *env = getenv("KCSAN_INCLUDE");

	if (env && *env)
		return env;
	if (dir[0])
		return dir;
	/* An installed binary finds the header beside it: BIN/../share/... */
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(probe, sizeof probe, "%s/../share/kcsan-scan/include/kcsan/lkmm.h", exe);
			if (access(probe, R_OK) == 0) {
				snprintf(dir, sizeof dir, "%.*s/../share/kcsan-scan/include", PATH_MAX - 64, exe);
				return dir;
			}
		}
	}
	snprintf(dir, sizeof dir, "%s", KCSAN_INCLUDE_DIR);
	return dir;
}

/* The arguments libclang gets: the TU's flags plus our header directory,
 * as a system directory so that its own inline code is not analysed. */
static void build_args(struct scan_job *j, const char *profile_hash)
{
	json_t *arr = json_array();
	char *dumped;

	j->nargs = j->spec->nargs + 2;
	j->args = xcalloc(j->nargs + 1, sizeof *j->args);
	j->args[0] = xstrdup("-isystem");
	j->args[1] = xstrdup(kcsan_include_dir());
	for (int i = 0; i < j->spec->nargs; i++)
		j->args[i + 2] = xstrdup(j->spec->args[i]);
	for (int i = 0; i < j->nargs; i++)
		json_array_append_new(arr, json_string(j->args[i]));
	j->args_json = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	dumped = xasprintf("%s|%d|%s|%s|%s", KCSAN_TOOL_VERSION, FACTS_FORMAT, profile_hash, j->spec->directory,
			   j->args_json);
	hash_text(dumped, strlen(dumped), j->flags_hash);
	free(dumped);
}

static int writable_target(const char *path, char *err, size_t errlen)
{
	char *dir, *slash;
	int rc = 0;

	if (access(path, F_OK) == 0) {
		if (access(path, W_OK) != 0) {
			snprintf(err, errlen, "cannot write database '%s': %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (!slash) {
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir) {
		dir[1] = '\0';
	} else {
		*slash = '\0';
	}
	if (access(dir, W_OK) != 0) {
		snprintf(err, errlen, "cannot create database '%s': directory '%s' is not writable", path, dir);
		rc = -1;
	}
	free(dir);
	return rc;
}

/* Forgets TUs whose source file no longer exists; returns how many, or
 * -1 when the database failed (then the caller fails the scan: the facts
 * of a vanished file would stay in the analysis). */
static int drop_vanished(sqlite3 *db)
{
	int dropped = 0, rc;

	sqlite3_stmt *st = kdb_prepare(db, "SELECT t.id, f.path FROM translation_units t JOIN files f ON f.id = t.file_id");
	sqlite3_stmt *del = kdb_prepare(db, "DELETE FROM translation_units WHERE id = ?");

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (access((const char *)sqlite3_column_text(st, 1), F_OK) != 0) {
			sqlite3_bind_int64(del, 1, sqlite3_column_int64(st, 0));
			if (sqlite3_step(del) != SQLITE_DONE)
				dropped = -1;
			sqlite3_reset(del);
			if (dropped < 0)
				break;
			dropped++;
		}
	sqlite3_finalize(st);
	sqlite3_finalize(del);
	return rc != SQLITE_DONE && rc != SQLITE_ROW ? -1 : dropped;
}

/* The stored findings by severity (when nothing changed and the analysis
 * is not run again). */
static void count_findings(sqlite3 *db, struct finding_counts *c)
{
	sqlite3_stmt *st = kdb_prepare(db, "SELECT severity, count(*) FROM findings GROUP BY severity");

	memset(c, 0, sizeof *c);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *sev = (const char *)sqlite3_column_text(st, 0);
		int n = sqlite3_column_int(st, 1);

		if (strcmp(sev, "error") == 0)
			c->errors = n;
		else if (strcmp(sev, "warning") == 0)
			c->warnings = n;
		else
			c->notes = n;
	}
	sqlite3_finalize(st);
}

/* Did the scan before SCAN_ID finish its analysis? */
static int previous_scan_done(sqlite3 *db, long long scan_id)
{
	sqlite3_stmt *st = kdb_prepare(db, "SELECT status FROM scans WHERE id < ? ORDER BY id DESC LIMIT 1");
	int done = 0;

	sqlite3_bind_int64(st, 1, scan_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		done = strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
	sqlite3_finalize(st);
	return done;
}

/* Jobs in the order of their paths (bytewise, as the loader orders TUs):
 * a worker that stores a header function first then skips it in all its
 * later TUs (header_copies.h). */
static int job_path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct scan_job *)a)->spec->path, ((const struct scan_job *)b)->spec->path);
}

/* Makes J, with SPEC (filled here), the job of parsing stored TU T again,
 * storing every function.  Returns 0, or -1 when its stored arguments are
 * not a JSON array of strings. */
static int job_of_stored(const struct stored_tu *t, struct tu_spec *spec, struct scan_job *j)
{
	json_t *arr = json_loads(t->arguments, 0, NULL);
	size_t n = json_is_array(arr) ? json_array_size(arr) : 0;

	memset(j, 0, sizeof *j);
	memset(spec, 0, sizeof *spec);
	if (!json_is_array(arr)) {
		json_decref(arr);
		return -1;
	}
	j->args = xcalloc(n + 1, sizeof *j->args);
	for (size_t i = 0; i < n; i++) {
		const char *a = json_string_value(json_array_get(arr, i));

		j->args[j->nargs++] = xstrdup(a ? a : "");
	}
	json_decref(arr);
	spec->path = t->path;
	spec->directory = t->directory;
	j->spec = spec;
	j->args_json = xstrdup(t->arguments);
	snprintf(j->flags_hash, sizeof j->flags_hash, "%s", t->flags_hash);
	j->store_all = 1;
	return 0;
}

static void free_jobs(struct scan_job *jobs, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < jobs[i].nargs; k++)
			free(jobs[i].args[k]);
		free(jobs[i].args);
		free(jobs[i].args_json);
	}
	free(jobs);
}

static int has_job(const struct scan_job *jobs, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (strcmp(jobs[i].spec->path, path) == 0)
			return 1;
	return 0;
}

static int in_tus(const struct tu_list *tus, const char *path)
{
	for (int i = 0; i < tus->n; i++)
		if (strcmp(tus->tus[i].path, path) == 0)
			return 1;
	return 0;
}

/* The second round: the TUs that left a header function to a copy that no
 * longer stands (db/facts.h, store_orphaned_tus: the TU that stored it
 * vanished, was parsed again without it, or the header is a harness) are
 * parsed again, storing every function.  *DB is closed for the workers and
 * opened again.  Counts a TU of the scan's list that was unchanged as
 * parsed now.  Returns how many TUs it parsed, or -1 (message printed). */
static int reparse_orphans(sqlite3 **db, const struct scan_options *o, const struct vocab *vocab,
			   long long scan_id, const struct tu_list *tus, const struct scan_job *round1,
			   int n1, struct scan_counts *done, int *reused)
{
	struct stored_tu *orphans;
	struct tu_spec *specs;
	struct scan_job *jobs;
	struct scan_counts again = { 0 };
	char err[PATH_MAX + 1024];
	int n, njobs = 0;

	if (store_orphaned_tus(*db, &orphans, &n) < 0) {
		fprintf(stderr, "kcsan-scan scan: cannot read the skipped header functions: %s\n",
			sqlite3_errmsg(*db));
		return -1;
	}
	if (n == 0)
		return 0;
	specs = xcalloc(n, sizeof *specs);
	jobs = xcalloc(n, sizeof *jobs);
	for (int i = 0; i < n; i++) {
		/* (a TU of the list counted as unchanged is parsed now) */
		int unchanged = !has_job(round1, n1, orphans[i].path) && in_tus(tus, orphans[i].path);

		*reused -= unchanged;
		if (job_of_stored(&orphans[i], &specs[njobs], &jobs[njobs]) < 0) {
			fprintf(stderr, "kcsan-scan: %s: stored arguments are not a JSON array; skipped\n",
				orphans[i].path);
			done->failed += unchanged;
			continue;
		}
		done->parsed += unchanged;
		njobs++;
	}
	kdb_close(*db);
	scan_workers_run(jobs, njobs, o->jobs, o->db_path, vocab, scan_id, &again);
	done->failed += again.failed;
	done->store_errors += again.store_errors;
	free_jobs(jobs, njobs);
	free(specs);
	stored_tus_free(orphans, n);
	*db = kdb_open(o->db_path, KDB_CREATE, err, sizeof err);
	if (!*db) {
		fprintf(stderr, "kcsan-scan scan: %s\n", err);
		return -1;
	}
	return njobs;
}

/* Wall-clock seconds from a fixed point, for --times. */
static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int scan_run(const struct scan_options *o)
{
	struct vocab vocab = { 0 };
	struct tu_list tus = { 0 };
	struct scan_job *jobs;
	struct scan_counts done = { 0 };
	char err[PATH_MAX + 1024], now[32], profile_hash[17];
	char *all_profiles = xstrdup(""), *cwd;
	sqlite3 *db;
	sqlite3_stmt *st;
	struct function *fns = NULL;
	int nfns = 0, njobs = 0, reused = 0, status = 0, vanished, reparsed;
	long long scan_id;
	struct analysis *an;
	struct finding_counts counts;
	double t_parse, t_load, t_analyse = 0, t_pair = 0, t_end;

	/* 1. Everything that can be wrong with the input, before the database. */
	for (size_t i = 0; i < sizeof default_profiles / sizeof *default_profiles; i++)
		vocab_load(&vocab, default_profiles[i], NULL, err, sizeof err);
	/* Profile files can change: their names and the hashes of the text
	 * read (once: a profile may be a pipe) go into every TU's flags. */
	for (int i = 0; i < o->nprofiles; i++) {
		char h[17] = "builtin", *text, *joined;

		if (vocab_load(&vocab, o->profiles[i], &text, err, sizeof err) < 0)
			goto input_error;
		if (text)
			hash_text(text, strlen(text), h);
		free(text);
		joined = xasprintf("%s|%s|%s", all_profiles, o->profiles[i], h);
		free(all_profiles);
		all_profiles = joined;
	}
	vocab_finish(&vocab, stderr);
	hash_text(all_profiles, strlen(all_profiles), profile_hash);
	if (o->build_dir && compdb_load(&tus, o->build_dir, err, sizeof err) < 0)
		goto input_error;
	for (int i = 0; i < o->npaths; i++)
		if (compdb_add_path(&tus, o->paths[i], o->cflags, o->ncflags, err, sizeof err) < 0)
			goto input_error;
	if (!o->build_dir && o->npaths == 0) {
		snprintf(err, sizeof err, "nothing to scan: give source files or directories, or -p BUILD_DIR");
		goto input_error;
	}
	if (writable_target(o->db_path, err, sizeof err) < 0)
		goto input_error;
	db = kdb_open(o->db_path, KDB_CREATE, err, sizeof err);
	if (!db)
		goto input_error;

	/* 2. The scan row. */
	cwd = current_dir();
	if (!cwd)
		cwd = xstrdup(".");
	kdb_now(now, sizeof now);
	st = kdb_prepare(db, "INSERT INTO scans(tool_version, started_at, root, arguments) VALUES (?,?,?,?)");
	sqlite3_bind_text(st, 1, KCSAN_TOOL_VERSION, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, cwd, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, o->command_json ? o->command_json : "[]", -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		fprintf(stderr, "kcsan-scan scan: cannot write database '%s': %s\n", o->db_path, sqlite3_errmsg(db));
		sqlite3_finalize(st);
		kdb_close(db);
		return 2;
	}
	sqlite3_finalize(st);
	scan_id = sqlite3_last_insert_rowid(db);

	/* 3. Which TUs need parsing. */
	jobs = xcalloc(tus.n + 1, sizeof *jobs);
	for (int i = 0; i < tus.n; i++) {
		struct scan_job *j = &jobs[njobs];

		j->spec = &tus.tus[i];
		build_args(j, profile_hash);
		if (store_tu_is_current(db, j->spec->path, j->flags_hash)) {
			reused++;
			for (int k = 0; k < j->nargs; k++)
				free(j->args[k]);
			free(j->args);
			free(j->args_json);
			continue;
		}
		njobs++;
	}
	if ((vanished = drop_vanished(db)) < 0) {
		fprintf(stderr, "kcsan-scan scan: cannot forget the files that vanished: %s\n", sqlite3_errmsg(db));
		kdb_close(db);
		return 2;
	}

	/* 4. Parse in parallel, in worker processes; no connection may be
	 * open across their fork(). */
	t_parse = seconds_now();
	kdb_close(db);
	qsort(jobs, njobs, sizeof *jobs, job_path_cmp);
	scan_workers_run(jobs, njobs, o->jobs, o->db_path, &vocab, scan_id, &done);
	db = kdb_open(o->db_path, KDB_CREATE, err, sizeof err);
	if (!db) {
		fprintf(stderr, "kcsan-scan scan: %s\n", err);
		return 2;
	}
	if ((reparsed = reparse_orphans(&db, o, &vocab, scan_id, &tus, jobs, njobs, &done, &reused)) < 0)
		return 2;

	t_load = seconds_now();

	/* 5. The whole tree, unless nothing changed since the last scan: then
	 * its findings stand (the analysis depends only on the stored facts,
	 * the profiles being part of every TU's flags hash). */
	if (njobs == 0 && vanished == 0 && reparsed == 0 && previous_scan_done(db, scan_id)) {
		count_findings(db, &counts);
	} else if (store_load_functions(db, o->jobs, &fns, &nfns) < 0) {
		fprintf(stderr, "kcsan-scan scan: cannot read the facts back: %s\n", sqlite3_errmsg(db));
		status = 2;
	} else {
		t_analyse = seconds_now();
		an = analyse_threads(fns, nfns, o->jobs);
		t_pair = seconds_now();
		if (pairing_store(db, an, &vocab, cwd, scan_id, &counts, err, sizeof err) < 0) {
			fprintf(stderr, "kcsan-scan scan: %s\n", err);
			status = 2;
		}
		if (!o->exiting) {
			analysis_free(an);
			for (int i = 0; i < nfns; i++)
				function_free(&fns[i]);
			free(fns);
		}
	}
	/* The comments may have changed even where nothing needed a parse. */
	if (status == 0 && suppress_refresh(db, err, sizeof err) < 0) {
		fprintf(stderr, "kcsan-scan scan: %s\n", err);
		status = 2;
	}

	kdb_now(now, sizeof now);
	st = kdb_prepare(db, "UPDATE scans SET finished_at = ?, parsed_tus = ?, reused_tus = ?, failed_tus = ?,"
			 " status = ? WHERE id = ?");
	sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, done.parsed);
	sqlite3_bind_int(st, 3, reused);
	sqlite3_bind_int(st, 4, done.failed);
	sqlite3_bind_text(st, 5, status ? "error" : "ok", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, scan_id);
	if (sqlite3_step(st) != SQLITE_DONE) {
		/* the scan stays "running": report says it did not finish */
		fprintf(stderr, "kcsan-scan scan: cannot record the end of the scan: %s\n", sqlite3_errmsg(db));
		status = 2;
	}
	sqlite3_finalize(st);
	kdb_close(db);

	t_end = seconds_now();
	if (o->times && t_analyse == 0)
		fprintf(stderr, "kcsan-scan: times (s): parse and store %.2f; nothing changed, no analysis\n",
			t_load - t_parse);
	else if (o->times)
		fprintf(stderr, "kcsan-scan: times (s): parse and store %.2f, load %.2f, analysis %.2f,"
			" findings %.2f\n", t_load - t_parse, t_analyse - t_load, t_pair - t_analyse,
			t_end - t_pair);
	/* A cap that stopped a fixpoint may have left a result incomplete:
	 * always said (with --times even when none was hit). */
	if (t_analyse != 0 && (o->times || analysis_caps_hit())) {
		fputs("kcsan-scan: ", stderr);
		analysis_caps_print(stderr);
	}
	if (!o->quiet)
		fprintf(stderr, "kcsan-scan: %d files: %d parsed, %d unchanged, %d failed; "
			"%d findings (%d errors, %d warnings, %d notes) in %s\n",
			tus.n, done.parsed, reused, done.failed,
			counts.errors + counts.warnings + counts.notes, counts.errors, counts.warnings,
			counts.notes, o->db_path);
	free_jobs(jobs, njobs);
	free(cwd);
	compdb_free(&tus);
	vocab_free(&vocab);
	free(all_profiles);
	if (status)
		return status;
	return done.failed || done.store_errors ? 1 : 0;

input_error:
	/* Nothing was written: the database is not open yet. */
	fprintf(stderr, "kcsan-scan scan: %s\n", err);
	compdb_free(&tus);
	vocab_free(&vocab);
	free(all_profiles);
	return 2;
}
