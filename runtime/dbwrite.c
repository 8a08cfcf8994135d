/*
 * dbwrite.c — recording races into the kcsan-scan database ($KCSAN_DB, set
 * by `kcsan-scan run`), so that `kcsan-scan report` can join them with the
 * static findings.
 *
 * Durability and concurrency (docs/design.md §6):
 *   - Each report is one SQLite transaction (an upsert on the races row of
 *     its fingerprint and, for a new row, its stack frames in race_frames:
 *     db/races.c, which owns those tables) committed before
 *     kcsan_report_race() returns, with
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
 * This file finds where the two accesses are (symbolize.c, srcline.c), the
 * race's kind and fingerprint, and owns the connection and the retries;
 * db/races.c turns the race into rows.
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

#include "../db/races.h"
#include "../db/schema_version.h"

#include "dynlib.h"
#include "kcsan_rt.h"

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

/* The access's frames: the access (TOP), then its callers, into SITES and
 * FRAMES (KCSAN_REPORT_FRAMES each); returns how many. */
static int stack_frames(const struct kcsan_access_info *a, const struct site *top,
			struct site *sites, struct kdb_frame *frames)
{
	int n = 0;

	sites[n++] = *top;
	for (int i = 0; i < a->nframes && n < KCSAN_REPORT_FRAMES; i++) {
		if (!a->frames[i])
			break;
		locate(a->frames[i] - 1, &sites[n]);
		/* Outside the program's own code (libc's thread start): the
		 * rest says nothing about the race. */
		if (!sites[n].file[0])
			break;
		n++;
	}
	for (int i = 0; i < n; i++) {
		frames[i].function = sites[i].func[0] ? sites[i].func : "?";
		frames[i].file = sites[i].file[0] ? sites[i].file : NULL;
		frames[i].line = sites[i].line;
		frames[i].module_offset = sites[i].module_off;
	}
	return n;
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

/* Side S (for the races row) of access A at site ST, with its stack. */
static void make_side(struct kdb_race_side *s, const struct kcsan_access_info *a,
		      const struct site *st, struct site *sites, struct kdb_frame *frames)
{
	s->access = access_name(a->type);
	s->marked = (a->type & KCSAN_ACCESS_ATOMIC) != 0;
	s->tid = a->tid;
	s->frames = frames;
	s->nframes = stack_frames(a, st, sites, frames);
	/* The side's location: the access's own when it has a line, else the
	 * innermost caller that has one (code the compiler gives line 0, or
	 * a function without debug information, called from the program's
	 * own code), so that a race is not shown at a line 0 or at none when
	 * its stack says where it is; NULL file and line when no frame has a
	 * line (the report then says the line is unknown). */
	s->function = st->func[0] ? st->func : "?";
	s->file = NULL;
	s->line = 0;
	for (int i = 0; i < s->nframes; i++)
		if (frames[i].file && frames[i].line > 0) {
			s->function = frames[i].function;
			s->file = frames[i].file;
			s->line = frames[i].line;
			break;
		}
}

/* Writes one record through W (the races row, bound from the two sides,
 * and its frames): an SQLite result code, SQLITE_OK when done.  No
 * transaction of its own. */
static int upsert(struct kdb_races *w, const struct kcsan_access_info *a,
		  const struct kcsan_access_info *b)
{
	/* Under db_lock: off the stack, which may be a small one (a thread's
	 * of a few pages); and never malloc here. */
	static struct site sa, sb, sto, sites[2][KCSAN_REPORT_FRAMES];
	static struct kdb_frame frames[2][KCSAN_REPORT_FRAMES];
	static struct kdb_race_side side_a, side_b;
	char ka[1024], kb[1024], fp[20], obj[256], now[32];
	const struct kcsan_access_info *reord = a->reordered ? a : (b && b->reordered ? b : NULL);
	const char *run = getenv(KCSAN_ENV_RUN_ID);
	uint64_t h = 0xcbf29ce484222325ULL;
	struct kdb_race r = { .kind = "data-race" };
	time_t t = time(NULL);
	struct tm tm;

	locate(a->ip ? a->ip - 1 : 0, &sa);
	site_key(ka, sizeof(ka), &sa, a->type);
	make_side(&side_a, a, &sa, sites[0], frames[0]);
	r.a = &side_a;
	if (b) {
		locate(b->ip ? b->ip - 1 : 0, &sb);
		site_key(kb, sizeof(kb), &sb, b->type);
		make_side(&side_b, b, &sb, sites[1], frames[1]);
		r.b = &side_b;
	} else {
		snprintf(kb, sizeof(kb), "unknown origin");
	}
	/* Order-independent: the two keys hashed in sorted order. */
	h = strcmp(ka, kb) < 0 ? fnv(fnv(h, ka), kb) : fnv(fnv(h, kb), ka);
	snprintf(fp, sizeof(fp), "r%016llx", (unsigned long long)h);
	r.fingerprint = fp;
	r.run_id = run ? atoll(run) : -1;
	/* A delayed write that a marked write (a publication) overtook is a
	 * missing release; one that overtook none races as it would without
	 * the delay (two threads bumping one counter): a plain data race. */
	if (reord && (reord->type & KCSAN_ACCESS_WRITE))
		r.kind = reord->published ? "missing-release" : "data-race";
	else if (reord)
		r.kind = "missing-acquire";
	object_name(a->ptr, obj, sizeof(obj));
	r.object = obj[0] ? obj : NULL;
	r.reordered = reord != NULL;
	if (reord && reord->to_ip) {
		locate(reord->to_ip - 1, &sto);
		if (sto.file[0]) {
			r.reordered_to_file = sto.file;
			r.reordered_to_line = sto.line;
		}
	}
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r.now = now;
	return kdb_races_write(w, &r);
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
static int write_record(sqlite3 *db, struct kdb_races *w, struct backoff *bo,
			const struct kcsan_access_info *a, const struct kcsan_access_info *b)
{
	int rc = kcsan_sq.exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = upsert(w, a, b);
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

/* Opens the database for one record and prepares the statements of W on
 * it, once for all the tries made on this connection: SQLITE_OK and *db,
 * or an error with *db to close (possibly NULL) and W unprepared. */
static int open_db(const char *path, sqlite3 **db, struct kdb_races *w)
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
	rc = kcsan_sq.exec(*db, "PRAGMA foreign_keys=ON; PRAGMA synchronous=FULL", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return rc;
	return kdb_races_prepare(w, &kcsan_sq, *db);
}

/* Finalises W's statements (SQLite closes no connection that has some),
 * then closes DB. */
static void close_db(sqlite3 *db, struct kdb_races *w)
{
	kdb_races_finalize(w);
	kcsan_sq.close(db);
}

/*
 * Records one report; NULL, or why it could not (in a static buffer).
 * The connection lives for this one record (see the top of the file: no
 * connection may be open across a fork(), nor while the program closes
 * descriptors), so its statements are prepared once per record here, not
 * once per try.
 */
static const char *record(const char *path, const struct kcsan_access_info *a,
			  const struct kcsan_access_info *b)
{
	static char msg[256];
	struct kdb_races w = { .sq = &kcsan_sq };
	struct backoff bo;
	sqlite3 *db = NULL;
	int rc, hard = 0;

	backoff_init(&bo);
	for (;;) {
		if (!db) {
			rc = open_db(path, &db, &w);
			if (rc != SQLITE_OK) {
				/* (Opened again from the start next time: the
				 * pragmas must be set on the connection.) */
				snprintf(msg, sizeof(msg), "%s", db ? kcsan_sq.errmsg(db) : "out of memory");
				if (db)
					close_db(db, &w);
				db = NULL;
				goto failed;
			}
		}
		rc = write_record(db, &w, &bo, a, b);
		if (rc == SQLITE_OK)
			break;
		snprintf(msg, sizeof(msg), "%s", kcsan_sq.errmsg(db));
failed:
		if (rc == SQLITE_MISMATCH) {
			snprintf(msg, sizeof(msg), "not a kcsan-scan database of schema version %d",
				 KDB_SCHEMA_VERSION);
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
			close_db(db, &w);
		db = NULL;
		if (++hard >= 3 || !backoff_wait(&bo))
			break;
	}
	if (db)
		close_db(db, &w);
	return rc == SQLITE_OK ? NULL : msg;
}

void kcsan_db_record(const struct kcsan_access_info *watcher,
		     const struct kcsan_access_info *other)
{
	const char *path = getenv(KCSAN_ENV_DB);
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
