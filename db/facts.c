/* db/facts.c — the owner of the facts tables: a translation unit's facts
 * into the database, and every function back for the whole tree (see
 * facts.h). */
#include "facts.h"
#include "db.h"
#include "analyzer/model/hashmap.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = { "access", "barrier", "call", "lock", "unlock", "local" };
static const char *const acc_names[] = { NULL, "read", "write", "rmw" };

static long long file_id(sqlite3 *db, const char *path)
{
	return kdb_intern(db, "files", "path", path, NULL, NULL);
}

static int step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static int store_function(sqlite3 *db, long long tu_id, struct function *f)
{
	sqlite3_stmt *fn = kdb_cached(db,
		"INSERT INTO functions(tu_id, name, link_key, file_id, line, col, end_line,"
		" entry_block, exit_block, block_count) VALUES (?,?,?,?,?,?,?,?,?,?)");
	sqlite3_stmt *edge = kdb_cached(db, "INSERT INTO cfg_edges(function_id, src, dst) VALUES (?,?,?)");
	sqlite3_stmt *ev = kdb_cached(db,
		"INSERT INTO events(function_id, block, seq, kind, access, marked, ord, object_id,"
		" name, target, defines, uses, args, file_id, line, col, discarded, display)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	const char *last_file = NULL;
	long long last_file_id = -1, file = file_id(db, f->file ? f->file : "?");

	if (file < 0)
		return -1;
	sqlite3_bind_int64(fn, 1, tu_id);
	sqlite3_bind_text(fn, 2, f->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(fn, 3, f->link_key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(fn, 4, file);
	sqlite3_bind_int(fn, 5, f->line);
	sqlite3_bind_int(fn, 6, f->col);
	sqlite3_bind_int(fn, 7, f->end_line);
	sqlite3_bind_int(fn, 8, f->entry);
	sqlite3_bind_int(fn, 9, f->exit);
	sqlite3_bind_int(fn, 10, f->nblocks);
	if (step_done(fn) < 0)
		return -1;
	f->id = sqlite3_last_insert_rowid(db);
	for (int b = 0; b < f->nblocks; b++) {
		struct block *bl = &f->blocks[b];

		for (int s = 0; s < bl->nsucc; s++) {
			sqlite3_bind_int64(edge, 1, f->id);
			sqlite3_bind_int(edge, 2, b);
			sqlite3_bind_int(edge, 3, bl->succ[s]);
			if (step_done(edge) < 0)
				return -1;
		}
		for (int i = 0; i < bl->nevents; i++) {
			struct event *e = &bl->events[i];
			long long obj = -1;

			if (e->object) {
				/* An object without source text (a call through
				 * a pointer field) is named, not shown as a USR. */
				char *shown = e->display ? NULL : readable_object(e->object);

				obj = kdb_intern(db, "objects", "key", e->object, "display",
						 e->display ? e->display : shown);
				free(shown);
				if (obj < 0)
					return -1;
			}
			/* The name as this access spells it: a finding names its
			 * object the way the code at its location does, whichever
			 * TU stored the object first. */
			bind_text_or_null(ev, 18, e->object ? e->display : NULL);
			sqlite3_bind_int64(ev, 1, f->id);
			sqlite3_bind_int(ev, 2, b);
			sqlite3_bind_int(ev, 3, e->index);
			sqlite3_bind_text(ev, 4, kind_names[e->kind], -1, SQLITE_STATIC);
			bind_text_or_null(ev, 5, acc_names[e->access]);
			sqlite3_bind_int(ev, 6, e->marked);
			sqlite3_bind_text(ev, 7, ord_name(e->ord), -1, SQLITE_STATIC);
			if (obj >= 0)
				sqlite3_bind_int64(ev, 8, obj);
			else
				sqlite3_bind_null(ev, 8);
			bind_text_or_null(ev, 9, e->name);
			bind_text_or_null(ev, 10, e->target);
			bind_text_or_null(ev, 11, e->defines);
			bind_text_or_null(ev, 12, e->uses);
			bind_text_or_null(ev, 13, e->args);
			/* Events of a function are nearly always in its own file:
			 * intern a file once per run of equal paths. */
			if (!last_file || !e->file || strcmp(last_file, e->file) != 0) {
				last_file = e->file;
				if ((last_file_id = file_id(db, e->file ? e->file : "?")) < 0)
					return -1;
			}
			sqlite3_bind_int64(ev, 14, last_file_id);
			sqlite3_bind_int(ev, 15, e->line);
			sqlite3_bind_int(ev, 16, e->col);
			sqlite3_bind_int(ev, 17, e->discarded);
			if (step_done(ev) < 0)
				return -1;
			e->id = sqlite3_last_insert_rowid(db);
		}
	}
	return 0;
}

int store_tu(sqlite3 *db, const struct tu_record *rec, const struct tu_facts *facts,
	     char *err, size_t errlen)
{
	long long fid, tu_id;
	sqlite3_stmt *st;
	char hex[17];

	if (kdb_exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	if ((fid = file_id(db, rec->path)) < 0)
		goto fail_db;
	/* Deleting the TU cascades to its functions, edges, events, deps. */
	st = kdb_cached(db, "DELETE FROM translation_units WHERE file_id = ?");
	sqlite3_bind_int64(st, 1, fid);
	if (step_done(st) < 0)
		goto fail_db;
	st = kdb_cached(db, "INSERT INTO translation_units(file_id, directory, arguments, flags_hash,"
			 " scan_id, status, diagnostics) VALUES (?,?,?,?,?,?,?)");
	sqlite3_bind_int64(st, 1, fid);
	sqlite3_bind_text(st, 2, rec->directory, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, rec->arguments, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, rec->flags_hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, rec->scan_id);
	sqlite3_bind_text(st, 6, facts->diagnostics ? "error" : "ok", -1, SQLITE_STATIC);
	bind_text_or_null(st, 7, facts->diagnostics);
	if (step_done(st) < 0)
		goto fail_db;
	tu_id = sqlite3_last_insert_rowid(db);

	st = kdb_cached(db, "INSERT OR REPLACE INTO tu_dependencies(tu_id, file_id, content_hash) VALUES (?,?,?)");
	for (int i = -1; i < facts->ndeps; i++) {
		const char *dep = i < 0 ? rec->path : facts->deps[i];

		if (facts->hashes)
			memcpy(hex, facts->hashes[i + 1], sizeof facts->hashes[i + 1]);
		else if (hash_file(dep, hex) < 0)
			hex[0] = '\0';
		if (!hex[0])
			continue;
		long long dep_id = file_id(db, dep);

		if (dep_id < 0)
			goto fail_db;
		sqlite3_bind_int64(st, 1, tu_id);
		sqlite3_bind_int64(st, 2, dep_id);
		sqlite3_bind_text(st, 3, hex, -1, SQLITE_TRANSIENT);
		if (step_done(st) < 0)
			goto fail_db;
	}
	for (int i = 0; i < facts->nfunctions; i++)
		if (store_function(db, tu_id, &facts->functions[i]) < 0)
			goto fail_db;
	st = kdb_cached(db, "INSERT INTO skipped_functions(tu_id, link_key, file_id) VALUES (?,?,?)");
	for (int i = 0; i < facts->nskipped; i++) {
		long long header = file_id(db, facts->skipped[i].file);

		if (header < 0)
			goto fail_db;
		sqlite3_bind_int64(st, 1, tu_id);
		sqlite3_bind_text(st, 2, facts->skipped[i].link_key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, header);
		if (step_done(st) < 0)
			goto fail_db;
	}
	return kdb_exec(db, "COMMIT", err, errlen);
fail_db:
	snprintf(err, errlen, "database error: %s", sqlite3_errmsg(db));
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_tu_is_current(sqlite3 *db, const char *path, const char *flags_hash)
{
	sqlite3_stmt *st = kdb_prepare(db,
		"SELECT t.flags_hash, f.path, d.content_hash FROM translation_units t"
		" JOIN files m ON m.id = t.file_id"
		" JOIN tu_dependencies d ON d.tu_id = t.id JOIN files f ON f.id = d.file_id"
		/* A TU that failed is never current: it fails again (and is
		 * counted as failed) on every scan until it parses. */
		" WHERE m.path = ? AND t.status = 'ok'");
	int rows = 0, current = 1, rc = SQLITE_DONE;
	char hex[17];

	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	while (current && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		rows++;
		if (strcmp((const char *)sqlite3_column_text(st, 0), flags_hash) != 0 ||
		    hash_file((const char *)sqlite3_column_text(st, 1), hex) < 0 ||
		    strcmp(hex, (const char *)sqlite3_column_text(st, 2)) != 0)
			current = 0;
	}
	sqlite3_finalize(st);
	/* a read that failed half way proves nothing: parse it again */
	return rows > 0 && current && rc == SQLITE_DONE;
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

char *store_first_copy(sqlite3 *db, const char *link_key, const char *file)
{
	sqlite3_stmt *st = kdb_cached(db,
		"SELECT min(tf.path) FROM functions f JOIN files hf ON hf.id = f.file_id"
		" JOIN translation_units t ON t.id = f.tu_id JOIN files tf ON tf.id = t.file_id"
		" WHERE f.link_key = ?1 AND hf.path = ?2");
	char *first = NULL;

	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, link_key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, file, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		first = col_dup(st, 0);
	sqlite3_reset(st);
	return first;
}

/* The harness headers (a header, not a TU's own file, in which some TU
 * defines main(), as test suites' torture.h do): their functions are kept
 * once per TU (store_load_functions). */
#define HARNESS_CTE \
	"harness(file_id) AS (SELECT m.file_id FROM functions m" \
	"   JOIN translation_units mt ON mt.id = m.tu_id" \
	"   WHERE m.name = 'main' AND m.file_id != mt.file_id)"

int store_orphaned_tus(sqlite3 *db, struct stored_tu **out, int *n)
{
	/* A skip stands when a TU whose path sorts before the skipping TU's
	 * still stores the function, and the header is no harness. */
	sqlite3_stmt *st = kdb_prepare(db,
		"WITH " HARNESS_CTE
		"SELECT tf.path, t.directory, t.arguments, t.flags_hash FROM translation_units t"
		" JOIN files tf ON tf.id = t.file_id"
		" WHERE t.id IN (SELECT s.tu_id FROM skipped_functions s"
		"   JOIN translation_units st ON st.id = s.tu_id JOIN files sp ON sp.id = st.file_id"
		"   WHERE s.file_id IN harness OR NOT EXISTS (SELECT 1 FROM functions f"
		"     JOIN translation_units ft ON ft.id = f.tu_id JOIN files fp ON fp.id = ft.file_id"
		"     WHERE f.link_key = s.link_key AND f.file_id = s.file_id AND fp.path < sp.path))"
		" ORDER BY tf.path");
	struct stored_tu *v = NULL;
	int count = 0, cap = 0, rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		grow(&v, &cap, count + 1, sizeof *v);
		v[count].path = col_dup(st, 0);
		v[count].directory = col_dup(st, 1);
		v[count].arguments = col_dup(st, 2);
		v[count].flags_hash = col_dup(st, 3);
		count++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		stored_tus_free(v, count);
		return -1;
	}
	*out = v;
	*n = count;
	return 0;
}

void stored_tus_free(struct stored_tu *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].directory);
		free(v[i].arguments);
		free(v[i].flags_hash);
	}
	free(v);
}

static int index_of(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (names[i] && s && strcmp(names[i], s) == 0)
			return i;
	return 0;
}

/* The statements of one reading thread, on its own connection: a
 * function's events (es) and its control-flow edges (gs). */
struct body_reader {
	sqlite3_stmt *es, *gs;
};

static void body_reader_open(struct body_reader *r, sqlite3 *db)
{
	r->es = kdb_prepare(db,
		"SELECT e.id, e.block, e.seq, e.kind, e.access, e.marked, e.ord, o.key, coalesce(e.display, o.display),"
		" e.name, e.target, e.defines, e.uses, e.args, fl.path, e.line, e.col, e.discarded FROM events e"
		" LEFT JOIN objects o ON o.id = e.object_id JOIN files fl ON fl.id = e.file_id"
		" WHERE e.function_id = ? ORDER BY e.block, e.seq");
	r->gs = kdb_prepare(db, "SELECT src, dst FROM cfg_edges WHERE function_id = ?");
}

static void body_reader_close(struct body_reader *r)
{
	sqlite3_finalize(r->es);
	sqlite3_finalize(r->gs);
}

/* Reads the edges and events of F, whose row (id, blocks) is read already.
 * Returns 0, or -1 when a read fails. */
static int read_body(struct body_reader *r, struct function *f)
{
	sqlite3_stmt *es = r->es, *gs = r->gs;
	int rc;

	sqlite3_bind_int64(gs, 1, f->id);
	while ((rc = sqlite3_step(gs)) == SQLITE_ROW) {
		int src = sqlite3_column_int(gs, 0), dst = sqlite3_column_int(gs, 1);

		if (src < f->nblocks && dst < f->nblocks)
			block_add_edge(f, src, dst);
	}
	sqlite3_reset(gs);
	if (rc != SQLITE_DONE)
		return -1;
	sqlite3_bind_int64(es, 1, f->id);
	while ((rc = sqlite3_step(es)) == SQLITE_ROW) {
		int b = sqlite3_column_int(es, 1);
		struct event *e;

		if (b >= f->nblocks)
			continue;
		e = block_add_event(&f->blocks[b]);
		e->id = sqlite3_column_int64(es, 0);
		e->func = f->name;
		e->index = sqlite3_column_int(es, 2);
		e->kind = index_of(kind_names, 6, (const char *)sqlite3_column_text(es, 3));
		e->access = index_of(acc_names, 4, (const char *)sqlite3_column_text(es, 4));
		e->marked = sqlite3_column_int(es, 5);
		ord_parse((const char *)sqlite3_column_text(es, 6), &e->ord);
		e->object = col_dup(es, 7);
		e->display = col_dup(es, 8);
		e->name = col_dup(es, 9);
		e->target = col_dup(es, 10);
		e->defines = col_dup(es, 11);
		e->uses = col_dup(es, 12);
		e->args = col_dup(es, 13);
		e->file = col_dup(es, 14);
		e->line = sqlite3_column_int(es, 15);
		e->col = sqlite3_column_int(es, 16);
		e->discarded = sqlite3_column_int(es, 17);
		event_parse_items(e);
	}
	sqlite3_reset(es);
	if (rc != SQLITE_DONE)
		return -1;
	function_number_locals(f);
	return 0;
}

/* The functions' bodies, shared out among the reading threads: each
 * claims the next BODY_CHUNK functions until none is left.  Each function is
 * read alone into its own slot, so the result does not depend on which
 * thread read it. */
struct body_share {
	struct function *fns;
	int nfns;
	const char *path;           /* the database, for the helpers' connections */
	pthread_mutex_t lock;
	int next;                   /* the first function no thread has claimed */
	int failed;                 /* a read failed: the others stop */
};

#define BODY_CHUNK 64

/* Reads claimed functions through R until none is left or a read fails. */
static void read_bodies(struct body_share *sh, struct body_reader *r)
{
	for (;;) {
		int from, to, bad = 0;

		pthread_mutex_lock(&sh->lock);
		from = sh->failed ? sh->nfns : sh->next;
		to = from + BODY_CHUNK < sh->nfns ? from + BODY_CHUNK : sh->nfns;
		sh->next = to;
		pthread_mutex_unlock(&sh->lock);
		if (from >= to)
			return;
		for (int i = from; i < to && !bad; i++)
			bad = read_body(r, &sh->fns[i]) < 0;
		if (bad) {
			pthread_mutex_lock(&sh->lock);
			sh->failed = 1;
			pthread_mutex_unlock(&sh->lock);
			return;
		}
	}
}

/* A helper thread: its own read-only connection (a connection is used by
 * one thread at a time here; readers of one database do not block each
 * other).  A helper that cannot open one reads nothing: the others take
 * its share. */
static void *body_helper(void *arg)
{
	struct body_share *sh = arg;
	struct body_reader r;
	char err[256];
	sqlite3 *db = kdb_open(sh->path, KDB_READ_ONLY, err, sizeof err);

	if (!db)
		return NULL;
	body_reader_open(&r, db);
	read_bodies(sh, &r);
	body_reader_close(&r);
	kdb_close(db);
	return NULL;
}

/* The bodies of FNS (N of them) through DB and up to THREADS - 1 helper
 * threads.  Returns 0, or -1 when a read failed. */
static int read_all_bodies(sqlite3 *db, struct function *fns, int n, int threads)
{
	struct body_share sh = { fns, n, sqlite3_db_filename(db, "main"), PTHREAD_MUTEX_INITIALIZER, 0, 0 };
	pthread_t *helpers = NULL;
	int nhelpers = 0;
	struct body_reader r;

	/* (an in-memory database has no file a helper could open) */
	if (threads > 1 && sh.path && *sh.path && n > BODY_CHUNK) {
		helpers = xcalloc((size_t)threads - 1, sizeof *helpers);
		for (int i = 0; i < threads - 1; i++)
			if (pthread_create(&helpers[nhelpers], NULL, body_helper, &sh) == 0)
				nhelpers++;
	}
	body_reader_open(&r, db);
	read_bodies(&sh, &r);
	body_reader_close(&r);
	for (int i = 0; i < nhelpers; i++)
		pthread_join(helpers[i], NULL);
	free(helpers);
	pthread_mutex_destroy(&sh.lock);
	return sh.failed ? -1 : 0;
}

int store_load_functions(sqlite3 *db, int threads, struct function **out, int *n)
{
	sqlite3_stmt *fs = kdb_prepare(db,
		"WITH " HARNESS_CTE
		"SELECT fn.id, fn.name, fn.link_key, fl.path, fn.line, fn.col, fn.end_line,"
		" fn.entry_block, fn.exit_block, fn.block_count, tf.path,"
		" fn.file_id != t.file_id AND fn.file_id IN harness FROM functions fn"
		" JOIN files fl ON fl.id = fn.file_id JOIN translation_units t ON t.id = fn.tu_id"
		" JOIN files tf ON tf.id = t.file_id"
		/* One copy of a function defined in a header that several TUs
		 * include: the one of the TU whose path sorts first, and the
		 * functions in the order of their TUs' paths.  By id (the order
		 * the TUs were parsed in) a scan with -j 2 gave other findings
		 * from one run to the next.  A harness header's functions are
		 * kept once per TU instead: each TU that includes it is its
		 * own program, with its own main() and threads (W24). */
		" WHERE fn.id IN (SELECT id FROM (SELECT f2.id, row_number() OVER"
		"   (PARTITION BY f2.link_key, f2.file_id,"
		"    CASE WHEN f2.file_id != t2.file_id AND f2.file_id IN harness THEN t2.id ELSE 0 END"
		"    ORDER BY p2.path, f2.id) AS rn"
		"   FROM functions f2 JOIN translation_units t2 ON t2.id = f2.tu_id"
		"   JOIN files p2 ON p2.id = t2.file_id) WHERE rn = 1)"
		" ORDER BY tf.path, fn.id");
	struct function *fns = NULL;
	int count = 0, cap = 0, rc;

	/* The rows first (a fraction of the time), then the bodies, which
	 * several threads read: Open vSwitch's 17,000 functions take 2 s of
	 * a -j 2 scan read by one. */
	while ((rc = sqlite3_step(fs)) == SQLITE_ROW) {
		struct function *f;

		grow(&fns, &cap, count + 1, sizeof *fns);
		f = &fns[count++];
		memset(f, 0, sizeof *f);
		f->id = sqlite3_column_int64(fs, 0);
		f->name = col_dup(fs, 1);
		f->link_key = col_dup(fs, 2);
		f->file = col_dup(fs, 3);
		f->line = sqlite3_column_int(fs, 4);
		f->col = sqlite3_column_int(fs, 5);
		f->end_line = sqlite3_column_int(fs, 6);
		f->entry = sqlite3_column_int(fs, 7);
		f->exit = sqlite3_column_int(fs, 8);
		f->tu = col_dup(fs, 10);
		f->per_tu = sqlite3_column_int(fs, 11);
		for (int b = sqlite3_column_int(fs, 9); b > 0; b--)
			function_add_block(f);
	}
	sqlite3_finalize(fs);
	if (rc != SQLITE_DONE || read_all_bodies(db, fns, count, threads) < 0) {
		/* a failed read must not pass for a smaller tree */
		for (int i = 0; i < count; i++)
			function_free(&fns[i]);
		free(fns);
		*out = NULL;
		*n = 0;
		return -1;
	}
	*out = fns;
	*n = count;
	return 0;
}
