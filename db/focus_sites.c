/* db/focus_sites.c — the sites focus watches: the query on a scan's
 * database and the file `kcsan-scan run` hands them over in (focus_sites.h).
 * Linked into the runtime: SQLite only through the function table. */
#include "focus_sites.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * One query for all three kinds; what is the access (read/write/rmw) or
 * the barrier's ordering.
 *
 * Plain and marked sites: only the candidates of findings (held by a pair
 * that has a finding): the others are patterns the static pass saw no
 * other side for -- a loop bound read beside a relaxed atomic, a thread's
 * private field -- and the scan's verdict on them is "no race".  Focusing
 * on them too cost every execution of their code the filter and their
 * watches, in the hot loops they are usually in (bench/runtime: 2-4x the
 * cost of --no-focus), and slowed the very code a finding needs to meet:
 * pointer-publish's reader watched its loop bound instead of meeting the
 * writer's re-check.  They keep the ordinary sampling of all code.
 *
 * Barrier sites (events of kind 'barrier' with an ordering): the runtime
 * applies them by code address, because a barrier written as inline
 * assembly behind a macro is invisible to the instrumentation.  pthread_*
 * and sem_* "barriers" are left out: the runtime's interposed functions
 * already apply them where they really run.
 */
static const char sites_sql[] =
	/* (IN over a list built once: a correlated subquery per candidate
	 * took seconds on a large tree's database, pairs having no index.) */
	/* (The TUs that include kcsan/lkmm.h, listed once: a join per
	 * barrier event took 60 of the 106 ms this query took on Concurrency
	 * Kit's database, 37,000 barrier events.) */
	"WITH lkmm(tu) AS (SELECT d.tu_id FROM tu_dependencies d"
	"    JOIN files df ON df.id = d.file_id WHERE df.path LIKE '%/kcsan/lkmm.h'),"
	" found(id) AS ("
	"    SELECT p.writer_candidate_id FROM pairs p JOIN findings fi ON fi.pair_id = p.id"
	"      WHERE p.writer_candidate_id IS NOT NULL"
	"    UNION SELECT p.reader_candidate_id FROM pairs p JOIN findings fi ON fi.pair_id = p.id"
	"      WHERE p.reader_candidate_id IS NOT NULL)"
	"SELECT 0, f.path, e.line, e.access FROM candidates c"
	"  JOIN events e ON e.id = c.plain_event_id JOIN files f ON f.id = e.file_id"
	"  WHERE c.id IN found"
	" UNION "
	"SELECT 1, f.path, e.line, e.access FROM candidates c"
	"  JOIN events e ON e.id = c.marked_event_id JOIN files f ON f.id = e.file_id"
	"  WHERE c.side = 'writer' AND c.id IN found"
	" UNION "
	"SELECT 2, f.path, e.line, e.ord FROM events e JOIN files f ON f.id = e.file_id"
	"  WHERE e.kind = 'barrier' AND e.ord IN ('full', 'grace', 'wmb', 'rmb', 'release', 'acq_rel')"
	"  AND coalesce(e.name, '') NOT LIKE 'pthread\\_%' ESCAPE '\\'"
	"  AND coalesce(e.name, '') NOT LIKE 'sem\\_%' ESCAPE '\\'"
	/* Fences the instrumentation reports itself (C11 and GNU builtins), and
	 * kcsan/lkmm.h's barriers, which call the runtime's hooks: applying
	 * them by address as well would end a delayed access too early (the
	 * store of smp_store_mb() and the smp_mb() after it share one line). */
	"  AND coalesce(e.name, '') NOT IN ('atomic_thread_fence', '__atomic_thread_fence',"
	"    '__sync_synchronize', 'atomic_signal_fence', '__atomic_signal_fence',"
	"    '__c11_atomic_thread_fence', '__c11_atomic_signal_fence')"
	/* (Tested first: no TU includes lkmm.h, as in a tree that does not
	 * use it, and no barrier's function is looked up -- 3,772 random
	 * reads of the functions table in CK's database.) */
	"  AND (coalesce(e.name, '') = 'asm' OR NOT EXISTS (SELECT 1 FROM lkmm)"
	"    OR NOT EXISTS (SELECT 1 FROM functions fn"
	"    WHERE fn.id = e.function_id AND fn.tu_id IN lkmm))";

int kdb_focus_sites_query(const struct kdb_sqlite_fns *sq, sqlite3 *db, kdb_focus_site_fn fn,
			  void *arg)
{
	sqlite3_stmt *st = NULL;
	int r, stop = 0;

	if (sq->prepare_v2(db, sites_sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (!stop && (r = sq->step(st)) == SQLITE_ROW) {
		const char *path = (const char *)sq->column_text(st, 1);

		if (path)
			stop = fn(arg, sq->column_int(st, 0), path, sq->column_int(st, 2),
				  (const char *)sq->column_text(st, 3));
	}
	sq->finalize(st);
	if (stop)
		return stop;
	return r == SQLITE_DONE ? 0 : -1;
}

struct writer {
	FILE *out;
};

static int write_site(void *arg, int kind, const char *path, int line, const char *what)
{
	struct writer *w = arg;

	/* WHAT is a keyword of the schema; one with a space (none today)
	 * could not be read back, nor an empty path: left out rather than
	 * misread. */
	if (!*path || (what && (!*what || strchr(what, ' '))))
		return 0;
	if (fprintf(w->out, "%d %d %s", kind, line, what ? what : "-") < 0 ||
	    putc('\0', w->out) == EOF || fputs(path, w->out) == EOF || putc('\0', w->out) == EOF)
		return 1;
	return 0;
}

int kdb_focus_sites_write(const struct kdb_sqlite_fns *sq, sqlite3 *db, const char *db_path,
			  FILE *out, int *sqlite_failed)
{
	struct writer w = { out };
	int r;

	*sqlite_failed = 0;
	if (fputs(KDB_FOCUS_SITES_MAGIC, out) == EOF || fputs(db_path, out) == EOF ||
	    putc('\0', out) == EOF)
		return -1;
	r = kdb_focus_sites_query(sq, db, write_site, &w);
	if (r < 0)
		*sqlite_failed = 1;
	if (r)
		return -1;
	return fflush(out) == EOF ? -1 : 0;
}

/* The first string of a record, "KIND LINE WHAT": 0 and the fields
 * (what points into it), or -1. */
static int record(const char *p, int *kind, int *line, const char **what)
{
	char *q;
	long k, l;

	errno = 0;
	k = strtol(p, &q, 10);
	if (q == p || *q != ' ' || errno || k < KDB_FOCUS_PLAIN || k > KDB_FOCUS_BARRIER)
		return -1;
	p = q + 1;
	l = strtol(p, &q, 10);
	if (q == p || *q != ' ' || errno || l < 0 || l > 0x7fffffff)
		return -1;
	if (!q[1] || strchr(q + 1, ' '))
		return -1;
	*kind = (int)k;
	*line = (int)l;
	*what = q + 1;
	return 0;
}

int kdb_focus_sites_parse(const char *buf, size_t len, const char *db_path,
			  kdb_focus_site_fn fn, void *arg)
{
	const size_t ml = sizeof(KDB_FOCUS_SITES_MAGIC) - 1;
	const char *p, *stop = buf + len;
	size_t dl = strlen(db_path);
	int pass;

	if (len < ml + dl + 1 || memcmp(buf, KDB_FOCUS_SITES_MAGIC, ml) ||
	    memcmp(buf + ml, db_path, dl) || buf[ml + dl] != '\0')
		return -1;
	/* Twice: every record checked before the first is handed over, so
	 * that a damaged file gives nothing rather than part of the sites. */
	for (pass = 0; pass < 2; pass++) {
		for (p = buf + ml + dl + 1; p < stop;) {
			const char *head_end = memchr(p, '\0', (size_t)(stop - p)), *path, *path_end, *what;
			int kind, line, r;

			if (!head_end || record(p, &kind, &line, &what))
				return -1;
			path = head_end + 1;
			path_end = path < stop ? memchr(path, '\0', (size_t)(stop - path)) : NULL;
			if (!path_end || path_end == path)
				return -1;
			p = path_end + 1;
			if (pass && (r = fn(arg, kind, path, line, strcmp(what, "-") ? what : NULL)))
				return r;
		}
	}
	return 0;
}
