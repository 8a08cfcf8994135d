/*
 * cli/run.c — `kcsan-scan run [--db FILE] [--timeout SECS] [--no-focus] --
 * COMMAND [ARGS...]`: runs a program built with `kcsan-scan cc` so that the
 * runtime records its races into the database.
 *
 * The database is created if needed (kdb_open) and a `runs` row is written
 * before COMMAND starts.  The runtime of COMMAND, and of every instrumented
 * process it starts (they inherit the environment), finds its way through:
 *   KCSAN_DB       absolute path of the database (the command may chdir)
 *   KCSAN_RUN_ID   the runs row the races belong to
 *   KCSAN_OPTIONS  the user's options, plus focus=0 for --no-focus
 *   KCSAN_FOCUS_SITES  focus's sites, read from the database once here for
 *                  every process (db/focus_sites.h; not with --no-focus)
 * (their names and the runtime's options are runtime/options_table.h's,
 * which --help lists).
 * Each instrumented process writes its races itself (runtime/dbwrite.c), so
 * nothing is lost if COMMAND or this process dies.
 *
 * Exit status: COMMAND's; 128+N when it was killed by signal N; 124 when
 * --timeout expired (the whole process group is killed: TERM, then KILL
 * after a grace period); 127/126 when it cannot be started; 2 on a usage
 * error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "db.h"
#include "focus_sites.h"
#include "options.h"
#include "runtime/options_table.h"

static const char usage[] = "[--db FILE] [--timeout SECS] [--no-focus] -- COMMAND [ARGS...]";

/* The runtime's options and environment, from the one table of them. */
static const struct kcsan_option_doc runtime_options[] = {
	KCSAN_OPTION_TABLE(KCSAN_OPTION_DOC)
};
#define ENV_DOC(name, help) { name, help },
static const struct { const char *name, *help; } runtime_env[] = {
	KCSAN_ENV_TABLE(ENV_DOC)
};

/* --help, after the options: what the runtime of COMMAND reads. */
static void help_runtime(void)
{
	printf("\nruntime options (KCSAN_OPTIONS=NAME=VALUE:NAME=VALUE..., default shown):\n");
	for (size_t i = 0; i < sizeof runtime_options / sizeof *runtime_options; i++) {
		const struct kcsan_option_doc *o = &runtime_options[i];
		char left[64];

		snprintf(left, sizeof left, "%s=%s", o->name, *o->def ? o->def : o->metavar);
		printf("  %-26s %s\n", left, o->help);
	}
	printf("\nenvironment of COMMAND (set by run):\n");
	for (size_t i = 0; i < sizeof runtime_env / sizeof *runtime_env; i++)
		printf("  %-26s %s\n", runtime_env[i].name, runtime_env[i].help);
}

/* Grace period between SIGTERM and SIGKILL on timeout, seconds. */
#define KILL_GRACE 2

static volatile sig_atomic_t alarm_fired;
static volatile sig_atomic_t forward_sig;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

static void on_forward(int sig)
{
	forward_sig = sig;
}

static void install(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: waitpid must return so that the loop can act. */
	sigaction(sig, &sa, NULL);
}

/* Records the end of the run; failures only warn (the command has run). */
static void finish_run(const char *db_path, long long run_id, pid_t pid, int status)
{
	char err[512], now[32];
	sqlite3 *db = kdb_open(db_path, KDB_CREATE, err, sizeof err);
	sqlite3_stmt *st;
	long long found = 0, seen = 0;

	if (!db) {
		fprintf(stderr, "kcsan-scan run: cannot record the end of the run: %s\n", err);
		return;
	}
	kdb_now(now, sizeof now);
	st = kdb_prepare(db, "UPDATE runs SET finished_at = ?1, exit_status = ?2, pid = ?4 WHERE id = ?3");
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, status);
	sqlite3_bind_int64(st, 3, run_id);
	sqlite3_bind_int64(st, 4, (long long)pid);
	if (sqlite3_step(st) != SQLITE_DONE)
		fprintf(stderr, "kcsan-scan run: cannot record the end of the run: %s\n", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	/* Seen: every race this run's processes reported (run_races), also
	 * those an earlier run found; new: those this run found first (their
	 * races row keeps the run that made it). */
	st = kdb_prepare(db, "SELECT count(*), (SELECT count(*) FROM races WHERE run_id = ?1)"
			     " FROM run_races WHERE run_id = ?1");
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		seen = sqlite3_column_int64(st, 0);
		found = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	kdb_close(db);
	/* Always one last line: after a long "run -- make check" a clean
	 * result must say so, not look like a run that recorded nothing. */
	if (seen || found)
		fprintf(stderr, "kcsan-scan run: %lld %s seen (%lld new) recorded in %s (see 'kcsan-scan report')\n",
			seen, seen == 1 ? "race" : "races", found, db_path);
	else
		fprintf(stderr, "kcsan-scan run: no race seen (the run is recorded in %s)\n", db_path);
}

/* The run's list of focus's sites (db/focus_sites.h), removed when run
 * exits: every process of the run reads it instead of querying the
 * database at its start. */
static char *sites_path;

static void remove_sites(void)
{
	if (sites_path)
		unlink(sites_path);
}

/* Writes the list for the database at db_path (absolute) into a temporary
 * file and names it in KCSAN_FOCUS_SITES.  On failure a warning: each
 * process then reads the database itself, as it would without run. */
static void write_focus_sites(const char *db_path)
{
	static const struct kdb_sqlite_fns sq = KDB_SQLITE_FNS_LINKED;
	const char *tmp = getenv("TMPDIR");
	char err[512] = "";
	sqlite3 *db = kdb_open(db_path, KDB_READ_ONLY, err, sizeof err);
	FILE *out = NULL;
	int fd = -1, sqlite_failed = 0, ok = 0;

	if (!db)
		goto out;
	if (asprintf(&sites_path, "%s/kcsan-focus-XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0) {
		sites_path = NULL;
		snprintf(err, sizeof err, "out of memory");
		goto out;
	}
	if ((fd = mkstemp(sites_path)) < 0 || !(out = fdopen(fd, "w"))) {
		snprintf(err, sizeof err, "%s: %s", sites_path, strerror(errno));
		goto out;
	}
	fd = -1;
	atexit(remove_sites);
	if (kdb_focus_sites_write(&sq, db, db_path, out, &sqlite_failed)) {
		snprintf(err, sizeof err, "%s", sqlite_failed ? sqlite3_errmsg(db) : strerror(errno));
		goto out;
	}
	if (fclose(out)) {
		out = NULL;
		snprintf(err, sizeof err, "%s: %s", sites_path, strerror(errno));
		goto out;
	}
	out = NULL;
	ok = setenv(KCSAN_ENV_FOCUS_SITES, sites_path, 1) == 0;
out:
	if (out)
		fclose(out);
	if (fd >= 0)
		close(fd);
	if (db)
		kdb_close(db);
	if (!ok) {
		fprintf(stderr, "kcsan-scan run: warning: no list of focus's sites (%s): "
			"each process reads them from the database\n", *err ? err : "cannot set the environment");
		remove_sites();
		free(sites_path);
		sites_path = NULL;
	}
}

/* Inserts the runs row; returns its id.  Dies (status 2) on failure. */
static long long start_run(const char *db_path, char **cmd, int ncmd, const char *options, int focus)
{
	char err[512], now[32], cwd[PATH_MAX];
	sqlite3 *db = kdb_open(db_path, KDB_CREATE, err, sizeof err);
	json_t *arr = json_array();
	sqlite3_stmt *st;
	char *cmd_json;
	long long id = -1;

	if (!db)
		kdie(2, "run", "%s", err);
	/* The program waits for this row: no checkpoint of the WAL on close
	 * (SQLite checkpoints when the WAL grows; readers read through it). */
	sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	for (int i = 0; i < ncmd; i++)
	{
		json_t *s = json_string(cmd[i]);

		/* Not UTF-8: keep the argument's place rather than drop it. */
		json_array_append_new(arr, s ? s : json_string("?"));
	}
	cmd_json = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, "?");
	kdb_now(now, sizeof now);
	st = kdb_prepare(db, "INSERT INTO runs(command, cwd, pid, started_at, options, focus)"
			     " VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
	sqlite3_bind_text(st, 1, cmd_json ? cmd_json : "[]", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, cwd, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, (long long)getpid());
	sqlite3_bind_text(st, 4, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, options, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 6, focus);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	else
		snprintf(err, sizeof err, "cannot record the run in '%s': %s", db_path, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	kdb_close(db);
	free(cmd_json);
	if (id < 0)
		kdie(2, "run", "%s", err);
	return id;
}

int cmd_run(int argc, char **argv)
{
	const char *db_arg = "kcsan.db";
	int timeout = 0, no_focus = 0;
	const struct kopt opts[] = {
		{ "db", 0, KOPT_STRING, &db_arg, "FILE", "database to record into (default ./kcsan.db)" },
		{ "timeout", 0, KOPT_INT, &timeout, "SECS", "kill COMMAND after SECS seconds and exit 124" },
		{ "no-focus", 0, KOPT_FLAG, &no_focus, NULL, "sample every access alike: no focus on the static candidates (focus=0)" },
		{ 0 },
	};
	char **operands, **cmd, db_path[PATH_MAX], idbuf[32];
	const char *user_opts = getenv(KCSAN_ENV_OPTIONS);
	char *options;
	int noperands, ncmd, status, result, killed = 0;
	long long run_id;
	pid_t pid;

	kopt_help_more(help_runtime);
	kopt_parse("run", usage, opts, argc, argv, &operands, &noperands, &cmd, &ncmd);
	if (noperands > 0)
		kdie(2, "run", "unexpected argument '%s': the command goes after '--' (see 'kcsan-scan run --help')",
		     operands[0]);
	free(operands);
	if (!cmd || ncmd == 0)
		kdie(2, "run", "no command given (usage: kcsan-scan run %s)", usage);
	if (!*db_arg)
		kdie(2, "run", "option '--db' needs a file name");

	/* The user's options first, ours last: a later entry wins. */
	if (asprintf(&options, "%s%s%s", user_opts ? user_opts : "",
		     user_opts && *user_opts && no_focus ? ":" : "", no_focus ? "focus=0" : "") < 0)
		kdie(2, "run", "out of memory");

	run_id = start_run(db_arg, cmd, ncmd, options, !no_focus);
	/* Absolute: COMMAND may change directory before its first report. */
	if (!realpath(db_arg, db_path))
		kdie(2, "run", "cannot resolve '%s': %s", db_arg, strerror(errno));
	snprintf(idbuf, sizeof idbuf, "%lld", run_id);
	if (setenv(KCSAN_ENV_DB, db_path, 1) || setenv(KCSAN_ENV_RUN_ID, idbuf, 1) ||
	    (*options && setenv(KCSAN_ENV_OPTIONS, options, 1)))
		kdie(2, "run", "cannot set the environment: %s", strerror(errno));
	/* One the user's environment had is for another run. */
	unsetenv(KCSAN_ENV_FOCUS_SITES);
	if (!no_focus)
		write_focus_sites(db_path);

	install(SIGALRM, on_alarm);
	install(SIGINT, on_forward);
	install(SIGTERM, on_forward);
	install(SIGHUP, on_forward);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		kdie(2, "run", "fork: %s", strerror(errno));
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* Its own process group, so that a timeout kills everything it
		 * started (as timeout(1) does). */
		if (timeout > 0)
			setpgid(0, 0);
		execvp(cmd[0], cmd);
		fprintf(stderr, "kcsan-scan run: cannot run '%s': %s\n", cmd[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (timeout > 0) {
		setpgid(pid, pid);	/* also here: no race with the child's own call */
		alarm((unsigned)timeout);
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, 0);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			kdie(2, "run", "waitpid: %s", strerror(errno));
		if (forward_sig) {
			kill(timeout > 0 ? -pid : pid, forward_sig);
			forward_sig = 0;
		}
		if (alarm_fired) {
			alarm_fired = 0;
			if (!killed) {
				fprintf(stderr, "kcsan-scan run: timeout after %d s, killing '%s'\n", timeout, cmd[0]);
				kill(-pid, SIGTERM);
				killed = 1;
				alarm(KILL_GRACE);
			} else {
				kill(-pid, SIGKILL);
			}
		}
	}
	alarm(0);
	if (timeout > 0)
		kill(-pid, SIGKILL);	/* whatever it left behind */
	if (killed)
		result = 124;
	else if (WIFEXITED(status))
		result = WEXITSTATUS(status);
	else
		result = 128 + WTERMSIG(status);
	finish_run(db_path, run_id, pid, result);
	free(options);
	return result;
}
