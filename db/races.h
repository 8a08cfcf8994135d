/* db/races.h — writing the races the runtime observed: the owner of the
 * races and race_frames tables (db/schema.sql) on the writing side.
 *
 * The runtime (runtime/dbwrite.c) finds where the two accesses of a race
 * are, decides its kind and fingerprint, and owns the connection, its
 * transactions and their retries; this module turns one race into rows.
 * It calls SQLite only through a struct kdb_sqlite_fns (sqlite_fns.h), so
 * that the runtime, which loads SQLite with dlopen, can link it, and it
 * never allocates memory itself.  cli/report_load.c reads the rows back.
 */
#ifndef KCSAN_DB_RACES_H
#define KCSAN_DB_RACES_H

#include "sqlite_fns.h"

/* One frame of a side's call stack. */
struct kdb_frame {
	const char *function;           /* "?" when unknown */
	const char *file;               /* NULL when the code has no line information */
	int line;
	const char *module_offset;      /* "module+0xoffset" */
};

/* One side of a race: where the access is, and its stack (frame 0 is the
 * access itself). */
struct kdb_race_side {
	const char *function;           /* "?" when unknown */
	const char *file;               /* NULL: unknown, and then line is not stored */
	int line;
	const char *access;             /* read | write | rmw */
	int marked;
	long long tid;
	const struct kdb_frame *frames;
	int nframes;
};

struct kdb_race {
	const char *fingerprint;        /* the races row's identity */
	long long run_id;               /* runs row; one that does not exist gives NULL */
	const char *kind;               /* data-race | missing-release | missing-acquire */
	const char *object;             /* may be NULL */
	int reordered;
	const char *reordered_to_file;  /* may be NULL */
	int reordered_to_line;
	const struct kdb_race_side *a;
	const struct kdb_race_side *b;  /* NULL: the other side is not known */
	const char *now;                /* ISO-8601 UTC */
};

/* The statements of one connection, prepared once by kdb_races_prepare()
 * and used for every race written on it. */
struct kdb_races {
	const struct kdb_sqlite_fns *sq;
	sqlite3_stmt *upsert, *lookup, *frame, *sighting;
};

/* Prepares W's statements on DB.  Returns SQLITE_OK, or the error (then
 * nothing is left to finalise). */
int kdb_races_prepare(struct kdb_races *w, const struct kdb_sqlite_fns *sq, sqlite3 *db);

/* Records one observation of R: a new races row with its frames, or one
 * more observation of the row with R's fingerprint (its first stack kept),
 * and R's run's sighting of it (run_races) when R's run is in runs.
 * No transaction of its own: the caller makes one around it, so that a row
 * is never left without its frames.  Returns SQLITE_OK or the error. */
int kdb_races_write(struct kdb_races *w, const struct kdb_race *r);

/* Finalises W's statements (before the connection is closed). */
void kdb_races_finalize(struct kdb_races *w);

/* Normalises the source path PATH in place, lexically (no file system
 * access: the path may name a file of another machine): duplicate slashes
 * and '.' components go, 'dir/..' collapses.  A '..' that climbs above the
 * start of a relative path is kept ('../a/../b' -> '../b'); above '/' it is
 * dropped.  An empty result is '.'.  Symbolic links are not followed, so
 * 'link/..' may name another directory than the lexical result: the
 * compiler wrote the path lexically too (an #include through 'dir/../').
 * Used by the runtime (DWARF file names) and the report (rows written by
 * an older runtime); no allocation, so the runtime may call it anywhere. */
void kdb_path_normalize(char *path);

#endif
