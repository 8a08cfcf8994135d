/* db/findings.c — replacing the findings tables in one transaction (see
 * findings.h). */
#include "findings.h"
#include "db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct findings_tx {
	sqlite3 *db;
	sqlite3_stmt *ins_finding, *ins_loc, *ins_cand, *ins_pair, *ins_evidence, *ins_part;
	char *error;            /* the first failed write, NULL while all went in */
};

struct findings_tx *findings_begin(sqlite3 *db, char *err, size_t errlen)
{
	struct findings_tx *t;

	/* Findings are recomputed; the runtime's evidence for them is kept by
	 * fingerprint (which survives the rescan) and joined again at the
	 * commit. */
	if (kdb_exec(db, "BEGIN IMMEDIATE;"
		     " CREATE TEMP TABLE IF NOT EXISTS saved_evidence(fingerprint TEXT, race_id INTEGER);"
		     " DELETE FROM saved_evidence;"
		     " INSERT INTO saved_evidence SELECT f.fingerprint, e.race_id FROM race_evidence e"
		     "   JOIN findings f ON f.id = e.finding_id;"
		     " DELETE FROM findings; DELETE FROM pairs; DELETE FROM candidates;",
		     err, errlen) < 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return NULL;
	}
	t = calloc(1, sizeof *t);
	if (!t) {
		snprintf(err, errlen, "out of memory");
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return NULL;
	}
	t->db = db;
	t->ins_finding = kdb_cached(db, "INSERT INTO findings(fingerprint, kind, severity, message, variable,"
				    " flag, fix_file, fix_line, fix_suggestion, pair_id, scan_id, confidence, strength)"
				    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
	t->ins_evidence = kdb_cached(db, "INSERT INTO finding_evidence(finding_id, seq, fact) VALUES (?,?,?)");
	t->ins_part = kdb_cached(db, "INSERT INTO finding_parts(finding_id, part, kind, flag, message,"
				 " first_seq, nlocs) VALUES (?,?,?,?,?,?,?)");
	t->ins_loc = kdb_cached(db, "INSERT INTO finding_locations(finding_id, seq, role, file, line, col,"
				" function, access, marked) VALUES (?,?,?,?,?,?,?,?,?)");
	t->ins_cand = kdb_cached(db, "INSERT INTO candidates(side, function_id, plain_event_id, marked_event_id,"
				 " data_object_id, flag_object_id) VALUES (?,?,?,?,?,?)");
	t->ins_pair = kdb_cached(db, "INSERT INTO pairs(data_object_id, flag_object_id, writer_candidate_id,"
				 " reader_candidate_id) VALUES (?,?,?,?)");
	return t;
}

/* Notes the first failure (the commit rolls back then). */
static long long failed(struct findings_tx *t)
{
	if (!t->error) {
		const char *why = sqlite3_errmsg(t->db);
		size_t n = strlen("cannot store the findings: ") + strlen(why) + 1;

		if ((t->error = malloc(n)) != NULL)
			snprintf(t->error, n, "cannot store the findings: %s", why);
	}
	return -1;
}

/* Runs insert ST and resets it: the new row's id, or -1. */
static long long insert_row(struct findings_tx *t, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? sqlite3_last_insert_rowid(t->db) : failed(t);
}

static void bind_id_or_null(sqlite3_stmt *st, int i, long long id)
{
	if (id > 0)
		sqlite3_bind_int64(st, i, id);
	else
		sqlite3_bind_null(st, i);
}

long long findings_object(struct findings_tx *t, const char *key, const char *display)
{
	long long id = kdb_intern(t->db, "objects", "key", key, "display", display);

	return id >= 0 ? id : failed(t);
}

long long findings_candidate(struct findings_tx *t, const char *side, long long function_id,
			     long long plain_event_id, long long marked_event_id,
			     long long data_object_id, long long flag_object_id)
{
	sqlite3_stmt *st = t->ins_cand;

	sqlite3_bind_text(st, 1, side, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, function_id);
	sqlite3_bind_int64(st, 3, plain_event_id);
	sqlite3_bind_int64(st, 4, marked_event_id);
	sqlite3_bind_int64(st, 5, data_object_id);
	sqlite3_bind_int64(st, 6, flag_object_id);
	return insert_row(t, st);
}

long long findings_pair(struct findings_tx *t, long long data_object_id, long long flag_object_id,
			long long writer_candidate_id, long long reader_candidate_id)
{
	sqlite3_stmt *st = t->ins_pair;

	sqlite3_bind_int64(st, 1, data_object_id);
	sqlite3_bind_int64(st, 2, flag_object_id);
	bind_id_or_null(st, 3, writer_candidate_id);
	bind_id_or_null(st, 4, reader_candidate_id);
	return insert_row(t, st);
}

long long findings_add(struct findings_tx *t, const struct finding_row *r)
{
	sqlite3_stmt *st = t->ins_finding;

	sqlite3_bind_text(st, 1, r->fingerprint, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, r->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->severity, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->message, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, r->variable, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, r->flag, -1, SQLITE_TRANSIENT);
	if (r->fix_file) {
		sqlite3_bind_text(st, 7, r->fix_file, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 8, r->fix_line);
		sqlite3_bind_text(st, 9, r->fix, -1, SQLITE_TRANSIENT);
	}
	bind_id_or_null(st, 10, r->pair_id);
	sqlite3_bind_int64(st, 11, r->scan_id);
	sqlite3_bind_text(st, 12, r->confidence ? r->confidence : "low", -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 13, r->strength);
	return insert_row(t, st);
}

void findings_add_evidence(struct findings_tx *t, long long finding_id, int seq, const char *fact)
{
	sqlite3_stmt *st = t->ins_evidence;

	if (finding_id < 0)
		return;
	sqlite3_bind_int64(st, 1, finding_id);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, fact, -1, SQLITE_TRANSIENT);
	insert_row(t, st);
}

void findings_add_part(struct findings_tx *t, const struct part_row *r)
{
	sqlite3_stmt *st = t->ins_part;

	if (r->finding_id < 0)
		return;
	sqlite3_bind_int64(st, 1, r->finding_id);
	sqlite3_bind_int(st, 2, r->part);
	sqlite3_bind_text(st, 3, r->kind, -1, SQLITE_STATIC);
	if (r->flag)
		sqlite3_bind_text(st, 4, r->flag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, r->message, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 6, r->first_seq);
	sqlite3_bind_int(st, 7, r->nlocs);
	insert_row(t, st);
}

void findings_add_location(struct findings_tx *t, const struct location_row *r)
{
	sqlite3_stmt *st = t->ins_loc;

	if (r->finding_id < 0)      /* a finding that failed to go in has no locations */
		return;
	sqlite3_bind_int64(st, 1, r->finding_id);
	sqlite3_bind_int(st, 2, r->seq);
	sqlite3_bind_text(st, 3, r->role, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->file, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 5, r->line);
	sqlite3_bind_int(st, 6, r->col);
	if (r->function)
		sqlite3_bind_text(st, 7, r->function, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, r->access, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 9, r->marked);
	insert_row(t, st);
}

int findings_commit(struct findings_tx *t, char *err, size_t errlen)
{
	sqlite3 *db = t->db;
	int rc = 0;

	if (t->error) {
		snprintf(err, errlen, "%s", t->error);
		rc = -1;
	} else if (kdb_exec(db, "INSERT OR IGNORE INTO race_evidence(finding_id, race_id)"
			    " SELECT f.id, s.race_id FROM saved_evidence s JOIN findings f USING (fingerprint);"
			    " COMMIT", err, errlen) < 0) {
		rc = -1;
	}
	if (rc < 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	free(t->error);
	free(t);
	return rc;
}
