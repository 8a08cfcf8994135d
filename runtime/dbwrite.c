/*
 * dbwrite.c — recording races into the kcsan-scan database ($KCSAN_DB, set
 * by `kcsan-scan run`), so that `kcsan-scan report` can join them with the
 * static findings.
 *
 * Durability and concurrency (SPEC §6):
 *   - Each report is one SQLite statement (an upsert on the races row of its
 *     fingerprint) committed before kcsan_report_race() returns, with
 *     synchronous=FULL in WAL mode: a program that crashes right after a
 *     report keeps it.
 *   - Many processes (and threads) write at once: SQLite's file locking
 *     serialises them; the busy timeout bounds the wait, and a write that
 *     still fails only prints one line.  Threads of one process take a lock
 *     around the whole record.
 *   - The connection is opened for each record and closed after it: no
 *     connection is ever open across a fork() (SQLite forbids using one in
 *     the child), and a child process simply opens its own.  Reports are
 *     rare; the cost does not matter.
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

/* The lock may have been held by another thread at fork(): the child
 * starts with a fresh one. */
static void child_after_fork(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

	memcpy(&db_lock, &fresh, sizeof(fresh));
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
	static int atfork_set, warned_load;
	char why[200];

	if (kcsan_load_sqlite(why, sizeof why) < 0) {
		if (!warned_load++)
			say("kcsan: cannot record races into KCSAN_DB: %s\n", why);
		return 0;
	}
	if (!atfork_set++)
		pthread_atfork(NULL, NULL, child_after_fork);
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

/* Writes one record; returns NULL or the reason it failed. */
static const char *record(sqlite3 *db, const struct kcsan_access_info *a,
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

	if (kcsan_sq.prepare_v2(db, upsert_sql, -1, &st, NULL) != SQLITE_OK)
		return kcsan_sq.errmsg(db);
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
	return rc == SQLITE_DONE ? NULL : kcsan_sq.errmsg(db);
}

static const char *record_once(const char *path, const struct kcsan_access_info *a,
			       const struct kcsan_access_info *b);

static int schema_ok(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int v = -1;

	if (kcsan_sq.prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    kcsan_sq.step(st) == SQLITE_ROW)
		v = kcsan_sq.column_int(st, 0);
	kcsan_sq.finalize(st);
	return v == KDB_SCHEMA_VERSION;
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
	if (!load_sqlite())
		goto out;
	for (int attempt = 0; attempt < 3; attempt++) {
		if (attempt) {
			/* A busy database past the timeout, again from the
			 * start: bounded, so the program is never held up long. */
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
		why = record_once(path, a, b);
		if (!why)
			break;
	}
	if (why && !warned_write) {
		warned_write = 1;
		say("kcsan: cannot record a race into '%s': %s\n", path, why);
	}
out:
	pthread_mutex_unlock(&db_lock);
}

/* Opens the database, writes one record, closes it; NULL or the reason. */
static const char *record_once(const char *path, const struct kcsan_access_info *a,
			       const struct kcsan_access_info *b)
{
	static char msg[256];
	const char *why = NULL;
	sqlite3 *db = NULL;

	/* No CREATE: `kcsan-scan run` (or scan) made the database; a wrong
	 * path must not leave a stray empty file behind. */
	if (kcsan_sq.open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
		why = db ? kcsan_sq.errmsg(db) : "out of memory";
		goto fail;
	}
	kcsan_sq.busy_timeout(db, 10000);
	if (!schema_ok(db)) {
		why = "not a kcsan-scan database of schema version 1";
		goto fail;
	}
	if (kcsan_sq.exec(db, "PRAGMA foreign_keys=ON; PRAGMA synchronous=FULL", NULL, NULL, NULL) != SQLITE_OK) {
		why = kcsan_sq.errmsg(db);
		goto fail;
	}
	why = record(db, a, b);
fail:
	if (why) {
		snprintf(msg, sizeof(msg), "%s", why);
		why = msg;
	}
	if (db)
		kcsan_sq.close(db);
	return why;
}
