/*
 * dbwrite.c — recording races into the kcsan-scan database ($KCSAN_DB, set
 * by `kcsan-scan run`), so that `kcsan-scan report` can join them with the
 * static findings.
 *
 * Durability and concurrency (docs/design.md §6):
 *   - Each report is one SQLite statement (an upsert on the races row of its
 *     fingerprint) committed before kcsan_report_race() returns, with
 *     synchronous=FULL in WAL mode: a program that crashes right after a
 *     report keeps it.
 *   - Many processes (and threads) write at once: SQLite's file locking
 *     serialises them.  No report may be lost to a busy database: each
 *     record is one BEGIN IMMEDIATE ... COMMIT transaction, tried again
 *     (with a randomised, doubling backoff) for as long as the database is
 *     busy or locked -- at BEGIN, at the upsert, at COMMIT, a stale WAL
 *     snapshot too -- up to db_wait seconds (default 600; 0: for ever: a
 *     lock held for ever by something else must not hang the program for
 *     ever by default).  Other errors (cannot open, I/O) are tried three
 *     times from a fresh connection.  Only then one line is printed.
 *     Threads of one process take a lock around the whole record.
 *   - The connection is opened for each record and closed after it, and a
 *     fork() waits for a record being made (pthread_atfork): no connection
 *     is ever open across a fork() (SQLite forbids using one in the child),
 *     and a child process simply opens its own.  No connection stays open
 *     either, where a program that closes every descriptor (a daemon)
 *     would have SQLite write into whatever file reuses its number.
 *     Reports are rare; the cost does not matter.
 *   - Never from a nested context (a signal handler): SQLite and malloc are
 *     not async-signal-safe.  Such a report is printed, not recorded.
 * libsqlite3 (and libdw, srcline.c) are loaded with dlopen (dynlib.c) on the first
 * record: programs run without KCSAN_DB need neither.  The calls run with
 * ctx->in_rt set, so the pthread wrappers SQLite goes through only forward.
 *
 * One races row per pair of access sites (function, file, line, access
 * kind; module+offset when the line is unknown), whatever the order of the
 * two sides: the fingerprint is order-independent.  `observations` counts
 * the reports (the runtime reports a pair once per process with dedup=1),
 * first_seen/last_seen bracket them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../db/schema_version.h"

#include "dynlib.h"
#include "kcsan_rt.h"
#include "strbuf.h"

static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;
static int warned_write;	/* one "cannot record" line per process */

/*
 * fork().  SQLite must not be used in a child that was forked while a
 * connection was open in the parent: the child inherits SQLite's record of
 * the locks its parent's process holds (which the child does not hold) and
 * its mutexes in whatever state.  So the forking thread takes db_lock
 * before the fork (the prepare handler): a record of another thread is
 * finished first -- its connection closed -- and none starts until the
 * fork is done.  That only waits for a record that is being made, never
 * for anything the forking thread holds.  The exception is a fork from a
 * signal handler that interrupted this very thread's record (holding_db):
 * taking the lock would deadlock, so the fork goes ahead, and the child,
 * whose SQLite state cannot be trusted, records nothing (forked_inside).
 */
static __thread int holding_db __attribute__((tls_model("initial-exec")));
static __thread int fork_locked __attribute__((tls_model("initial-exec")));
static int forked_inside;

static void prepare_fork(void)
{
	fork_locked = !holding_db;
	if (fork_locked)
		pthread_mutex_lock(&db_lock);
}

static void parent_after_fork(void)
{
	if (fork_locked)
		pthread_mutex_unlock(&db_lock);
	fork_locked = 0;
}

/* Held by the forking thread (or by the interrupted record): the child
 * starts with a fresh one, unlocked. */
static void child_after_fork(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

	if (!fork_locked)
		forked_inside = 1;
	fork_locked = 0;
	holding_db = 0;
	memcpy(&db_lock, &fresh, sizeof(fresh));
}

/* From the start, not at the first record: a fork during the first one
 * (loading SQLite) must wait for it too. */
__attribute__((constructor)) static void dbwrite_register_fork(void)
{
	pthread_atfork(prepare_fork, parent_after_fork, child_after_fork);
}

__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(kcsan_opts.log_fd, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1) < 0) {
		/* nowhere else to say it */
	}
}

/* Loads libsqlite3 (dynlib.c); says once why it cannot.  Called with
 * db_lock held. */
static int load_sqlite(void)
{
	static int warned_load;
	char why[200];

	if (kcsan_load_sqlite(why, sizeof why) < 0) {
		if (!warned_load++)
			say("kcsan: cannot record races into KCSAN_DB: %s\n", why);
		return 0;
	}
	return 1;
}

/* s as a JSON string literal (control characters and quotes escaped). */
static void sb_json_str(struct rt_buf *b, const char *s)
{
	rt_bprintf(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			rt_bprintf(b, "\\%c", c);
		else if (c < 0x20)
			rt_bprintf(b, "\\u%04x", c);
		else
			rt_bprintf(b, "%c", c);
	}
	rt_bprintf(b, "\"");
}

/* Where one code address is: function, file, line, and module+offset. */
struct site {
	char func[256];
	char file[512];
	int line;
	char module_off[320];
};

static void locate(uintptr_t pc, struct site *st)
{
	uintptr_t foff = 0, moff = 0;
	const char *mod = NULL;

	if (!kcsan_symbolize(pc, st->func, sizeof(st->func), &foff, &mod, &moff))
		st->func[0] = '\0';
	snprintf(st->module_off, sizeof(st->module_off), "%s+0x%lx", mod ? mod : "?",
		 (unsigned long)(mod ? moff : pc));
	kcsan_srcline(pc, st->file, sizeof(st->file), &st->line);
}

/* The access's frames as a JSON array: the access, then its callers. */
static void stack_json(struct rt_buf *b, const struct kcsan_access_info *a, const struct site *top)
{
	struct site s;
	int i;

	rt_bprintf(b, "[");
	for (i = -1; i < a->nframes; i++) {
		const struct site *f = top;

		if (i >= 0) {
			if (!a->frames[i])
				break;
			locate(a->frames[i] - 1, &s);
			/* Outside the program's own code (libc's thread
			 * start): the rest says nothing about the race. */
			if (!s.file[0])
				break;
			f = &s;
		}
		rt_bprintf(b, "%s{\"function\":", i >= 0 ? "," : "");
		sb_json_str(b, f->func[0] ? f->func : "?");
		if (f->file[0]) {
			rt_bprintf(b, ",\"file\":");
			sb_json_str(b, f->file);
			rt_bprintf(b, ",\"line\":%d", f->line);
		}
		rt_bprintf(b, ",\"address\":");
		sb_json_str(b, f->module_off);
		rt_bprintf(b, "}");
	}
	rt_bprintf(b, "]");
}

static const char *access_name(int type)
{
	if (type & KCSAN_ACCESS_COMPOUND)
		return "rmw";
	return (type & KCSAN_ACCESS_WRITE) ? "write" : "read";
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;
}

/* The identity of one side: its site, not its thread or address. */
static void site_key(char *k, size_t n, const struct site *s, int type)
{
	if (s->file[0])
		snprintf(k, n, "%s|%s:%d|%s", s->func, s->file, s->line, access_name(type));
	else
		snprintf(k, n, "%s|%s|%s", s->func, s->module_off, access_name(type));
}

/* The global variable at ptr, from the dynamic symbol table (-rdynamic). */
static void object_name(const volatile void *ptr, char *out, size_t n)
{
	const ElfW(Sym) *sym = NULL;
	Dl_info di;

	out[0] = '\0';
	if (dladdr1((const void *)ptr, &di, (void **)&sym, RTLD_DL_SYMENT) && di.dli_sname && sym &&
	    ELF64_ST_TYPE(sym->st_info) == STT_OBJECT &&
	    (uintptr_t)ptr < (uintptr_t)di.dli_saddr + sym->st_size)
		snprintf(out, n, "%s", di.dli_sname);
}

static void bind_side(sqlite3_stmt *st, int col, const struct kcsan_access_info *a,
		      const struct site *s, const char *stack)
{
	/* function, file, line, access, marked, tid */
	kcsan_sq.bind_text(st, col, s->func[0] ? s->func : "?", -1, SQLITE_TRANSIENT);
	if (s->file[0]) {
		kcsan_sq.bind_text(st, col + 1, s->file, -1, SQLITE_TRANSIENT);
		kcsan_sq.bind_int64(st, col + 2, s->line);
	} else {
		kcsan_sq.bind_null(st, col + 1);
		kcsan_sq.bind_null(st, col + 2);
	}
	kcsan_sq.bind_text(st, col + 3, access_name(a->type), -1, SQLITE_STATIC);
	kcsan_sq.bind_int64(st, col + 4, (a->type & KCSAN_ACCESS_ATOMIC) != 0);
	kcsan_sq.bind_int64(st, col + 5, a->tid);
	kcsan_sq.bind_text(st, col + 6, stack, -1, SQLITE_TRANSIENT);
}

static const char upsert_sql[] =
	"INSERT INTO races(fingerprint, run_id, kind, object, reordered,"
	" reordered_to_file, reordered_to_line,"
	" a_function, a_file, a_line, a_access, a_marked, a_tid, a_stack,"
	" b_function, b_file, b_line, b_access, b_marked, b_tid, b_stack,"
	" observations, first_seen, last_seen)"
	" VALUES (?1, (SELECT id FROM runs WHERE id = ?2), ?3, ?4, ?5, ?6, ?7,"
	" ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, 1, ?22, ?22)"
	" ON CONFLICT(fingerprint) DO UPDATE SET observations = observations + 1,"
	" last_seen = excluded.last_seen, reordered = max(reordered, excluded.reordered),"
	" reordered_to_file = coalesce(reordered_to_file, excluded.reordered_to_file),"
	" reordered_to_line = coalesce(reordered_to_line, excluded.reordered_to_line)";

/* Writes one record (the upsert, bound from the two sides): an SQLite
 * result code, SQLITE_OK when done.  No transaction of its own. */
static int upsert(sqlite3 *db, const struct kcsan_access_info *a,
		  const struct kcsan_access_info *b)
{
	static struct site sa, sb, sto;	/* under db_lock: off the stack */
	static struct rt_buf stack_a, stack_b;
	char ka[1024], kb[1024], fp[20], obj[256], now[32];
	const struct kcsan_access_info *reord = a->reordered ? a : (b && b->reordered ? b : NULL);
	const char *run = getenv("KCSAN_RUN_ID"), *kind = "data-race";
	uint64_t h = 0xcbf29ce484222325ULL;
	sqlite3_stmt *st = NULL;
	time_t t = time(NULL);
	struct tm tm;
	int rc;

	locate(a->ip ? a->ip - 1 : 0, &sa);
	stack_a.n = 0;
	stack_json(&stack_a, a, &sa);
	site_key(ka, sizeof(ka), &sa, a->type);
	if (b) {
		locate(b->ip ? b->ip - 1 : 0, &sb);
		stack_b.n = 0;
		stack_json(&stack_b, b, &sb);
		site_key(kb, sizeof(kb), &sb, b->type);
	} else {
		snprintf(kb, sizeof(kb), "unknown origin");
	}
	/* Order-independent: the two keys hashed in sorted order. */
	h = strcmp(ka, kb) < 0 ? fnv(fnv(h, ka), kb) : fnv(fnv(h, kb), ka);
	snprintf(fp, sizeof(fp), "r%016llx", (unsigned long long)h);
	/* A delayed write that a marked write (a publication) overtook is a
	 * missing release; one that overtook none races as it would without
	 * the delay (two threads bumping one counter): a plain data race. */
	if (reord && (reord->type & KCSAN_ACCESS_WRITE))
		kind = reord->published ? "missing-release" : "data-race";
	else if (reord)
		kind = "missing-acquire";
	object_name(a->ptr, obj, sizeof(obj));
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);

	if ((rc = kcsan_sq.prepare_v2(db, upsert_sql, -1, &st, NULL)) != SQLITE_OK)
		return rc;
	kcsan_sq.bind_text(st, 1, fp, -1, SQLITE_TRANSIENT);
	kcsan_sq.bind_int64(st, 2, run ? atoll(run) : -1);
	kcsan_sq.bind_text(st, 3, kind, -1, SQLITE_STATIC);
	if (obj[0])
		kcsan_sq.bind_text(st, 4, obj, -1, SQLITE_TRANSIENT);
	else
		kcsan_sq.bind_null(st, 4);
	kcsan_sq.bind_int64(st, 5, reord != NULL);
	if (reord && reord->to_ip)
		locate(reord->to_ip - 1, &sto);
	if (reord && reord->to_ip && sto.file[0]) {
		kcsan_sq.bind_text(st, 6, sto.file, -1, SQLITE_TRANSIENT);
		kcsan_sq.bind_int64(st, 7, sto.line);
	} else {
		kcsan_sq.bind_null(st, 6);
		kcsan_sq.bind_null(st, 7);
	}
	bind_side(st, 8, a, &sa, stack_a.s);
	if (b) {
		bind_side(st, 15, b, &sb, stack_b.s);
	} else {
		for (int i = 15; i <= 21; i++)
			kcsan_sq.bind_null(st, i);
	}
	kcsan_sq.bind_text(st, 22, now, -1, SQLITE_TRANSIENT);
	rc = kcsan_sq.step(st);
	kcsan_sq.finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Schema version KDB_SCHEMA_VERSION (db/schema.sql): SQLITE_OK, SQLITE_MISMATCH for
 * another version, or the error reading it (SQLITE_BUSY...). */
static int schema_ok(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int rc, v = -1;

	rc = kcsan_sq.prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = kcsan_sq.step(st);
		if (rc == SQLITE_ROW) {
			v = kcsan_sq.column_int(st, 0);
			rc = SQLITE_OK;
		}
	}
	kcsan_sq.finalize(st);
	if (rc != SQLITE_OK)
		return rc;
	return v == KDB_SCHEMA_VERSION ? SQLITE_OK : SQLITE_MISMATCH;
}

/*
 * Another connection has the database (a writer of another process or
 * thread: SQLITE_BUSY; SQLITE_BUSY_SNAPSHOT when a WAL snapshot went stale;
 * SQLITE_BUSY_RECOVERY while one rebuilds the WAL index; SQLITE_LOCKED;
 * SQLITE_PROTOCOL, a WAL lock race SQLite gives up on): all pass.  Waiting
 * and trying again is all there is to do.
 */
static int transient(int rc)
{
	rc &= 0xff;
	return rc == SQLITE_BUSY || rc == SQLITE_LOCKED || rc == SQLITE_PROTOCOL;
}

/* The wait before the next try: doubling from 1 ms to 64 ms, each time a
 * random part of it, so that the processes that collided do not collide
 * again in step. */
struct backoff {
	uint64_t deadline_ns;	/* 0: none (db_wait=0) */
	long ms;
	uint64_t rng;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void backoff_init(struct backoff *bo)
{
	uint64_t now = mono_ns();

	bo->deadline_ns = kcsan_opts.db_wait ? now + (uint64_t)kcsan_opts.db_wait * 1000000000u : 0;
	bo->ms = 1;
	bo->rng = (now ^ ((uint64_t)getpid() << 32)) | 1;
}

/* Sleeps; 0 once the deadline has passed (then it does not sleep). */
static int backoff_wait(struct backoff *bo)
{
	struct timespec ts;
	uint64_t ns;

	if (bo->deadline_ns && mono_ns() >= bo->deadline_ns)
		return 0;
	bo->rng ^= bo->rng << 13;
	bo->rng ^= bo->rng >> 7;
	bo->rng ^= bo->rng << 17;
	ns = (uint64_t)bo->ms * 1000000u / 2 + bo->rng % ((uint64_t)bo->ms * 1000000u / 2 + 1);
	ts.tv_sec = (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	nanosleep(&ts, NULL);
	if (bo->ms < 64)
		bo->ms *= 2;
	return 1;
}

static void rollback(sqlite3 *db)
{
	if (!kcsan_sq.get_autocommit(db))
		kcsan_sq.exec(db, "ROLLBACK", NULL, NULL, NULL);
}

/*
 * One record in its own write transaction.  BEGIN IMMEDIATE takes the write
 * lock first (waiting in SQLite's busy handler): the upsert then never finds
 * its read snapshot stale.  A COMMIT that is busy leaves the transaction
 * open and is tried again (SQLite's rule); any other failure is rolled
 * back, so that trying the whole record again counts it once.
 */
static int write_record(sqlite3 *db, struct backoff *bo, const struct kcsan_access_info *a,
			const struct kcsan_access_info *b)
{
	int rc = kcsan_sq.exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = upsert(db, a, b);
	if (rc != SQLITE_OK) {
		rollback(db);
		return rc;
	}
	for (;;) {
		rc = kcsan_sq.exec(db, "COMMIT", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return rc;
		if (!transient(rc) || kcsan_sq.get_autocommit(db) || !backoff_wait(bo))
			break;
	}
	rollback(db);
	return rc;
}

/* Opens the database for one record: SQLITE_OK and *db, or an error with
 * *db to close (possibly NULL). */
static int open_db(const char *path, sqlite3 **db)
{
	int rc;

	/* No CREATE: `kcsan-scan run` (or scan) made the database; a wrong
	 * path must not leave a stray empty file behind. */
	rc = kcsan_sq.open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL);
	if (rc != SQLITE_OK)
		return rc;
	/* SQLite's own waiting for a lock, within one try; the loop of
	 * kcsan_db_record tries again after it. */
	kcsan_sq.busy_timeout(*db, 1000);
	rc = schema_ok(*db);
	if (rc != SQLITE_OK)
		return rc;
	return kcsan_sq.exec(*db, "PRAGMA foreign_keys=ON; PRAGMA synchronous=FULL", NULL, NULL, NULL);
}

/* Records one report; NULL, or why it could not (in a static buffer). */
static const char *record(const char *path, const struct kcsan_access_info *a,
			  const struct kcsan_access_info *b)
{
	static char msg[256];
	struct backoff bo;
	sqlite3 *db = NULL;
	int rc, hard = 0;

	backoff_init(&bo);
	for (;;) {
		if (!db) {
			rc = open_db(path, &db);
			if (rc != SQLITE_OK) {
				/* (Opened again from the start next time: the
				 * pragmas must be set on the connection.) */
				snprintf(msg, sizeof(msg), "%s", db ? kcsan_sq.errmsg(db) : "out of memory");
				if (db)
					kcsan_sq.close(db);
				db = NULL;
				goto failed;
			}
		}
		rc = write_record(db, &bo, a, b);
		if (rc == SQLITE_OK)
			break;
		snprintf(msg, sizeof(msg), "%s", kcsan_sq.errmsg(db));
failed:
		if (rc == SQLITE_MISMATCH) {
			snprintf(msg, sizeof(msg), "not a kcsan-scan database of schema version 1");
			break;
		}
		if (transient(rc)) {
			/* Busy for longer than the busy timeout: again, until
			 * db_wait has passed. */
			if (!backoff_wait(&bo))
				break;
			continue;
		}
		/* Anything else (cannot open, I/O error...): from a fresh
		 * connection, a few times. */
		if (db)
			kcsan_sq.close(db);
		db = NULL;
		if (++hard >= 3 || !backoff_wait(&bo))
			break;
	}
	if (db)
		kcsan_sq.close(db);
	return rc == SQLITE_OK ? NULL : msg;
}

void kcsan_db_record(const struct kcsan_access_info *watcher,
		     const struct kcsan_access_info *other)
{
	const char *path = getenv("KCSAN_DB");
	/* Side a is the delayed access when there is one (the report's
	 * "plain-access"), else the watcher, which is always plain. */
	const struct kcsan_access_info *a = watcher, *b = other;
	const char *why = NULL;

	if (!path || !*path || kcsan_get_ctx()->nested)
		return;
	if (other && other->reordered && !watcher->reordered) {
		a = other;
		b = watcher;
	}
	pthread_mutex_lock(&db_lock);
	holding_db = 1;
	if (forked_inside) {
		why = "the process was forked while its parent was recording";
	} else if (load_sqlite()) {
		why = record(path, a, b);
	}
	if (why && !warned_write) {
		warned_write = 1;
		say("kcsan: cannot record a race into '%s': %s\n", path, why);
	}
	holding_db = 0;
	pthread_mutex_unlock(&db_lock);
}
