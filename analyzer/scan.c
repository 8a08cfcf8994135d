/* analyzer/scan.c — the scan driver (see scan.h).
 *
 * Input errors (missing paths, a bad compile database, a bad profile, an
 * unwritable database) are found before the database is opened, so they
 * never touch it.  Worker threads each parse translation units with their
 * own libclang index; storing is serialised on one connection, one
 * transaction per TU.  Incremental: a TU whose flags, profiles and every
 * file it read are unchanged keeps its stored facts. */
#include "scan.h"
#include "compdb.h"
#include "dataflow.h"
#include "db.h"
#include "extract.h"
#include "hashcache.h"
#include "pairing.h"
#include "store.h"
#include "suppress.h"
#include "vocab.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
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

struct job {
	struct tu_spec *spec;
	char **args;
	int nargs;
	char *args_json;
	char flags_hash[17];
};

struct pool {
	struct job *jobs;
	int njobs;
	int next;
	pthread_mutex_t lock;
	struct hash_cache *hashes;   /* content hashes, one per file */
	sqlite3 *db;
	const struct vocab *vocab;
	long long scan_id;
	int parsed, failed, store_errors;
	int quiet;
};

static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct job *j;
		struct tu_facts facts = { 0 };
		struct tu_record rec;
		char err[512];

		pthread_mutex_lock(&p->lock);
		if (p->next >= p->njobs) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		j = &p->jobs[p->next++];
		pthread_mutex_unlock(&p->lock);

		extract_tu(j->spec->path, j->spec->directory, j->args, j->nargs, p->vocab, &facts);
		/* Hashed here, in parallel, not while holding the lock. */
		facts.hashes = xcalloc((size_t)facts.ndeps + 1, sizeof *facts.hashes);
		for (int i = -1; i < facts.ndeps; i++)
			hash_cache_file(p->hashes, i < 0 ? j->spec->path : facts.deps[i], facts.hashes[i + 1]);

		pthread_mutex_lock(&p->lock);
		if (facts.diagnostics) {
			fprintf(stderr, "kcsan-scan: %s: does not parse; skipped:\n%s", j->spec->path, facts.diagnostics);
			p->failed++;
		} else {
			p->parsed++;
		}
		rec.path = j->spec->path;
		rec.directory = j->spec->directory;
		rec.arguments = j->args_json;
		rec.flags_hash = j->flags_hash;
		rec.scan_id = p->scan_id;
		if (store_tu(p->db, &rec, &facts, err, sizeof err) < 0) {
			fprintf(stderr, "kcsan-scan: %s: %s\n", j->spec->path, err);
			p->store_errors++;
		}
		pthread_mutex_unlock(&p->lock);
		facts_free(&facts);
	}
}

/* The arguments libclang gets: the TU's flags plus our header directory,
 * as a system directory so that its own inline code is not analysed. */
static void build_args(struct job *j, const char *profile_hash)
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
	char dir[PATH_MAX];
	char *slash;

	if (access(path, F_OK) == 0) {
		if (access(path, W_OK) != 0) {
			snprintf(err, errlen, "cannot write database '%s': %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK) != 0) {
		snprintf(err, errlen, "cannot create database '%s': directory '%s' is not writable", path, dir);
		return -1;
	}
	return 0;
}

/* Forgets TUs whose source file no longer exists; returns how many. */
static int drop_vanished(sqlite3 *db)
{
	int dropped = 0;

	sqlite3_stmt *st = kdb_prepare(db, "SELECT t.id, f.path FROM translation_units t JOIN files f ON f.id = t.file_id");
	sqlite3_stmt *del = kdb_prepare(db, "DELETE FROM translation_units WHERE id = ?");

	while (sqlite3_step(st) == SQLITE_ROW)
		if (access((const char *)sqlite3_column_text(st, 1), F_OK) != 0) {
			sqlite3_bind_int64(del, 1, sqlite3_column_int64(st, 0));
			sqlite3_step(del);
			sqlite3_reset(del);
			dropped++;
		}
	sqlite3_finalize(st);
	sqlite3_finalize(del);
	return dropped;
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
	struct pool pool = { 0 };
	char err[PATH_MAX + 1024], cwd[PATH_MAX], now[32], profile_hash[17];
	char *all_profiles = xstrdup("");
	sqlite3 *db;
	sqlite3_stmt *st;
	pthread_t *threads;
	struct function *fns = NULL;
	int nfns = 0, reused = 0, status = 0, nthreads, vanished;
	struct analysis an;
	struct finding_counts counts;
	double t_parse, t_load, t_analyse = 0, t_pair = 0, t_end;

	/* 1. Everything that can be wrong with the input, before the database. */
	for (size_t i = 0; i < sizeof default_profiles / sizeof *default_profiles; i++)
		vocab_load(&vocab, default_profiles[i], err, sizeof err);
	for (int i = 0; i < o->nprofiles; i++) {
		char *joined;

		if (vocab_load(&vocab, o->profiles[i], err, sizeof err) < 0) {
			fprintf(stderr, "kcsan-scan scan: %s\n", err);
			return 2;
		}
		joined = xasprintf("%s|%s", all_profiles, o->profiles[i]);
		free(all_profiles);
		all_profiles = joined;
	}
	vocab_finish(&vocab);
	/* Profile files can change: hash their names and content. */
	{
		char *text = xstrdup(all_profiles);

		for (int i = 0; i < o->nprofiles; i++) {
			char h[17] = "builtin";
			char *t2;

			hash_file(o->profiles[i], h);
			t2 = xasprintf("%s|%s", text, h);
			free(text);
			text = t2;
		}
		hash_text(text, strlen(text), profile_hash);
		free(text);
	}
	if (o->build_dir && compdb_load(&tus, o->build_dir, err, sizeof err) < 0) {
		fprintf(stderr, "kcsan-scan scan: %s\n", err);
		return 2;
	}
	for (int i = 0; i < o->npaths; i++)
		if (compdb_add_path(&tus, o->paths[i], o->cflags, o->ncflags, err, sizeof err) < 0) {
			fprintf(stderr, "kcsan-scan scan: %s\n", err);
			return 2;
		}
	if (!o->build_dir && o->npaths == 0) {
		fprintf(stderr, "kcsan-scan scan: nothing to scan: give source files or directories, or -p BUILD_DIR\n");
		return 2;
	}
	if (writable_target(o->db_path, err, sizeof err) < 0) {
		fprintf(stderr, "kcsan-scan scan: %s\n", err);
		return 2;
	}
	db = kdb_open(o->db_path, KDB_CREATE, err, sizeof err);
	if (!db) {
		fprintf(stderr, "kcsan-scan scan: %s\n", err);
		return 2;
	}

	/* 2. The scan row. */
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, ".");
	kdb_now(now, sizeof now);
	st = kdb_prepare(db, "INSERT INTO scans(tool_version, started_at, root, arguments) VALUES (?,?,?,?)");
	sqlite3_bind_text(st, 1, KCSAN_TOOL_VERSION, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, cwd, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, o->command_json ? o->command_json : "[]", -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		fprintf(stderr, "kcsan-scan scan: cannot write database '%s': %s\n", o->db_path, sqlite3_errmsg(db));
		sqlite3_finalize(st);
		sqlite3_close(db);
		return 2;
	}
	sqlite3_finalize(st);
	pool.scan_id = sqlite3_last_insert_rowid(db);

	/* 3. Which TUs need parsing. */
	pool.jobs = xcalloc(tus.n + 1, sizeof *pool.jobs);
	for (int i = 0; i < tus.n; i++) {
		struct job *j = &pool.jobs[pool.njobs];

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
		pool.njobs++;
	}
	vanished = drop_vanished(db);

	/* 4. Parse in parallel. */
	t_parse = seconds_now();
	pool.db = db;
	pool.vocab = &vocab;
	pool.quiet = o->quiet;
	pthread_mutex_init(&pool.lock, NULL);
	pool.hashes = hash_cache_new();
	nthreads = o->jobs < 1 ? 1 : o->jobs;
	if (nthreads > pool.njobs)
		nthreads = pool.njobs ? pool.njobs : 1;
	threads = xcalloc(nthreads, sizeof *threads);
	for (int i = 0; i < nthreads; i++)
		pthread_create(&threads[i], NULL, worker, &pool);
	for (int i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&pool.lock);
	hash_cache_free(pool.hashes);
	free(threads);

	t_load = seconds_now();

	/* 5. The whole tree, unless nothing changed since the last scan: then
	 * its findings stand (the analysis depends only on the stored facts,
	 * the profiles being part of every TU's flags hash). */
	if (pool.njobs == 0 && vanished == 0 && previous_scan_done(db, pool.scan_id)) {
		count_findings(db, &counts);
	} else {
		store_load_functions(db, &fns, &nfns);
		t_analyse = seconds_now();
		analyse(fns, nfns, &an);
		t_pair = seconds_now();
		if (pairing_store(db, &an, &vocab, cwd, pool.scan_id, &counts, err, sizeof err) < 0) {
			fprintf(stderr, "kcsan-scan scan: %s\n", err);
			status = 2;
		}
		analysis_free(&an);
		for (int i = 0; i < nfns; i++)
			function_free(&fns[i]);
		free(fns);
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
	sqlite3_bind_int(st, 2, pool.parsed);
	sqlite3_bind_int(st, 3, reused);
	sqlite3_bind_int(st, 4, pool.failed);
	sqlite3_bind_text(st, 5, status ? "error" : "ok", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, pool.scan_id);
	sqlite3_step(st);
	sqlite3_finalize(st);
	sqlite3_close(db);

	t_end = seconds_now();
	if (o->times && t_analyse == 0)
		fprintf(stderr, "kcsan-scan: times (s): parse and store %.2f; nothing changed, no analysis\n",
			t_load - t_parse);
	else if (o->times)
		fprintf(stderr, "kcsan-scan: times (s): parse and store %.2f, load %.2f, analysis %.2f,"
			" findings %.2f\n", t_load - t_parse, t_analyse - t_load, t_pair - t_analyse,
			t_end - t_pair);
	if (!o->quiet)
		fprintf(stderr, "kcsan-scan: %d files: %d parsed, %d unchanged, %d failed; "
			"%d findings (%d errors, %d warnings, %d notes) in %s\n",
			tus.n, pool.parsed, reused, pool.failed,
			counts.errors + counts.warnings + counts.notes, counts.errors, counts.warnings,
			counts.notes, o->db_path);
	for (int i = 0; i < pool.njobs; i++) {
		for (int k = 0; k < pool.jobs[i].nargs; k++)
			free(pool.jobs[i].args[k]);
		free(pool.jobs[i].args);
		free(pool.jobs[i].args_json);
	}
	free(pool.jobs);
	compdb_free(&tus);
	vocab_free(&vocab);
	free(all_profiles);
	if (status)
		return status;
	return pool.failed || pool.store_errors ? 1 : 0;
}
