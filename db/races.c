/* db/races.c — one observed race into the races and race_frames tables
 * (races.h).  Linked into the runtime: SQLite only through the function
 * table, no allocation, no static state (the caller serialises). */
#include "races.h"

#include <stddef.h>
#include <string.h>

/* One row per pair of access sites (the fingerprint): a new one counts one
 * observation, a known one one more.  A run id that is not in runs (the
 * program was not started by `kcsan-scan run`) is stored as NULL. */
static const char upsert_sql[] =
	"INSERT INTO races(fingerprint, run_id, kind, object, reordered,"
	" reordered_to_file, reordered_to_line,"
	" a_function, a_file, a_line, a_access, a_marked, a_tid,"
	" b_function, b_file, b_line, b_access, b_marked, b_tid,"
	" observations, first_seen, last_seen)"
	" VALUES (?1, (SELECT id FROM runs WHERE id = ?2), ?3, ?4, ?5, ?6, ?7,"
	" ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, 1, ?20, ?20)"
	" ON CONFLICT(fingerprint) DO UPDATE SET observations = observations + 1,"
	" last_seen = excluded.last_seen, reordered = max(reordered, excluded.reordered),"
	" reordered_to_file = coalesce(reordered_to_file, excluded.reordered_to_file),"
	" reordered_to_line = coalesce(reordered_to_line, excluded.reordered_to_line)";

/* The row the upsert wrote, and whether it made it (the first observation:
 * its frames are still to be written).  Not RETURNING: the runtime loads
 * whatever libsqlite3 the system has, which may predate it (3.35). */
static const char lookup_sql[] = "SELECT id, observations FROM races WHERE fingerprint = ?1";

/* This run saw the race (new or not), once per run: what `kcsan-scan run`
 * counts at its end.  Nothing for a run id that is not in runs. */
static const char sighting_sql[] =
	"INSERT OR IGNORE INTO run_races(run_id, race_id) SELECT id, ?2 FROM runs WHERE id = ?1";

static const char frame_sql[] =
	"INSERT INTO race_frames(race_id, side, depth, function, file, line, module_offset)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

int kdb_races_prepare(struct kdb_races *w, const struct kdb_sqlite_fns *sq, sqlite3 *db)
{
	int rc;

	w->sq = sq;
	w->upsert = w->lookup = w->frame = w->sighting = NULL;
	if ((rc = sq->prepare_v2(db, upsert_sql, -1, &w->upsert, NULL)) != SQLITE_OK ||
	    (rc = sq->prepare_v2(db, lookup_sql, -1, &w->lookup, NULL)) != SQLITE_OK ||
	    (rc = sq->prepare_v2(db, frame_sql, -1, &w->frame, NULL)) != SQLITE_OK ||
	    (rc = sq->prepare_v2(db, sighting_sql, -1, &w->sighting, NULL)) != SQLITE_OK)
		kdb_races_finalize(w);
	return rc;
}

void kdb_races_finalize(struct kdb_races *w)
{
	/* finalize(NULL) is a no-op. */
	w->sq->finalize(w->upsert);
	w->sq->finalize(w->lookup);
	w->sq->finalize(w->frame);
	w->sq->finalize(w->sighting);
	w->upsert = w->lookup = w->frame = w->sighting = NULL;
}

static void bind_text_or_null(const struct kdb_sqlite_fns *sq, sqlite3_stmt *st, int col, const char *s)
{
	if (s)
		sq->bind_text(st, col, s, -1, SQLITE_TRANSIENT);
	else
		sq->bind_null(st, col);
}

/* Columns COL.. of the upsert: function, file, line, access, marked, tid. */
static void bind_side(const struct kdb_sqlite_fns *sq, sqlite3_stmt *st, int col,
		      const struct kdb_race_side *s)
{
	if (!s) {
		for (int i = 0; i < 6; i++)
			sq->bind_null(st, col + i);
		return;
	}
	sq->bind_text(st, col, s->function ? s->function : "?", -1, SQLITE_TRANSIENT);
	bind_text_or_null(sq, st, col + 1, s->file);
	if (s->file)
		sq->bind_int64(st, col + 2, s->line);
	else
		sq->bind_null(st, col + 2);
	sq->bind_text(st, col + 3, s->access, -1, SQLITE_TRANSIENT);
	sq->bind_int64(st, col + 4, s->marked != 0);
	sq->bind_int64(st, col + 5, s->tid);
}

/* Steps ST once, expecting no row, and resets it for the next use. */
static int run(const struct kdb_sqlite_fns *sq, sqlite3_stmt *st)
{
	int rc = sq->step(st);

	sq->reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int write_frames(struct kdb_races *w, long long race_id, const char *side,
			const struct kdb_race_side *s)
{
	const struct kdb_sqlite_fns *sq = w->sq;
	int rc = SQLITE_OK;

	for (int i = 0; s && i < s->nframes && rc == SQLITE_OK; i++) {
		const struct kdb_frame *f = &s->frames[i];

		sq->bind_int64(w->frame, 1, race_id);
		sq->bind_text(w->frame, 2, side, -1, SQLITE_STATIC);
		sq->bind_int64(w->frame, 3, i);
		sq->bind_text(w->frame, 4, f->function ? f->function : "?", -1, SQLITE_TRANSIENT);
		bind_text_or_null(sq, w->frame, 5, f->file);
		if (f->file)
			sq->bind_int64(w->frame, 6, f->line);
		else
			sq->bind_null(w->frame, 6);
		sq->bind_text(w->frame, 7, f->module_offset ? f->module_offset : "?", -1, SQLITE_TRANSIENT);
		rc = run(sq, w->frame);
	}
	return rc;
}

int kdb_races_write(struct kdb_races *w, const struct kdb_race *r)
{
	const struct kdb_sqlite_fns *sq = w->sq;
	sqlite3_stmt *st = w->upsert;
	long long id = -1, seen = 0;
	int rc;

	sq->bind_text(st, 1, r->fingerprint, -1, SQLITE_TRANSIENT);
	sq->bind_int64(st, 2, r->run_id);
	sq->bind_text(st, 3, r->kind, -1, SQLITE_TRANSIENT);
	bind_text_or_null(sq, st, 4, r->object);
	sq->bind_int64(st, 5, r->reordered != 0);
	bind_text_or_null(sq, st, 6, r->reordered_to_file);
	if (r->reordered_to_file)
		sq->bind_int64(st, 7, r->reordered_to_line);
	else
		sq->bind_null(st, 7);
	bind_side(sq, st, 8, r->a);
	bind_side(sq, st, 14, r->b);
	sq->bind_text(st, 20, r->now, -1, SQLITE_TRANSIENT);
	if ((rc = run(sq, st)) != SQLITE_OK)
		return rc;

	sq->bind_text(w->lookup, 1, r->fingerprint, -1, SQLITE_TRANSIENT);
	rc = sq->step(w->lookup);
	if (rc == SQLITE_ROW) {
		id = sq->column_int64(w->lookup, 0);
		seen = sq->column_int64(w->lookup, 1);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		rc = SQLITE_CORRUPT;    /* the row just written is not there */
	}
	sq->reset(w->lookup);
	if (rc != SQLITE_OK)
		return rc;
	sq->bind_int64(w->sighting, 1, r->run_id);
	sq->bind_int64(w->sighting, 2, id);
	if ((rc = run(sq, w->sighting)) != SQLITE_OK || seen != 1)
		return rc;
	rc = write_frames(w, id, "a", r->a);
	if (rc == SQLITE_OK)
		rc = write_frames(w, id, "b", r->b);
	return rc;
}

/* Appends the component IN[0..LEN) at OUT, after a '/' unless OUT starts
 * the path or follows the root: returns the new end.  Never overtakes the
 * input: the '/' written replaces one that was read. */
static char *append(char *path, char *out, const char *in, size_t len)
{
	if (out > path && out[-1] != '/')
		*out++ = '/';
	memmove(out, in, len);
	return out + len;
}

void kdb_path_normalize(char *path)
{
	int absolute = path[0] == '/';
	/* OUT is the end of the result, written over PATH as it is read.  KEEP
	 * is the length of its prefix that no '..' may remove: the root, or
	 * the leading '..'s of a relative path. */
	char *in = path, *out = path + absolute;
	size_t keep = (size_t)absolute;

	while (*in) {
		const char *slash;
		size_t len;

		while (*in == '/')
			in++;
		if (!*in)
			break;
		slash = strchr(in, '/');
		len = slash ? (size_t)(slash - in) : strlen(in);
		if (len == 1 && in[0] == '.') {
			/* './': nothing */
		} else if (len == 2 && in[0] == '.' && in[1] == '.') {
			if ((size_t)(out - path) > keep) {
				/* 'dir/..': drop the last component (and its '/'). */
				char *q = out;

				while (q > path + keep && q[-1] != '/')
					q--;
				out = q > path + keep ? q - 1 : path + keep;
			} else if (!absolute) {
				/* Above the start of a relative path: kept, since
				 * what it names depends on where the path is read. */
				out = append(path, out, in, len);
				keep = (size_t)(out - path);
			}
			/* (Above the root: '/..' is '/'.) */
		} else {
			out = append(path, out, in, len);
		}
		in += len;
	}
	if (out == path)
		*out++ = '.';
	*out = '\0';
}
