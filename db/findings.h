/* db/findings.h — the owner of the findings tables (candidates, pairs,
 * findings, finding_locations, finding_parts, finding_evidence): a scan replaces them all in one
 * transaction, and the runtime's evidence stays joined to the findings by
 * fingerprint.  The finding rules (analyzer/findings/pairing.c) say what
 * goes in; this module is how, with every insert checked: one that fails
 * rolls the whole set back, never leaving a finding's locations to the
 * finding before it. */
#ifndef KCSAN_DB_FINDINGS_H
#define KCSAN_DB_FINDINGS_H

#include <sqlite3.h>
#include <stddef.h>

struct findings_tx;

/* Starts replacing the findings of DB: NULL with ERR when the database
 * cannot be written. */
struct findings_tx *findings_begin(sqlite3 *db, char *err, size_t errlen);

/* The id of the object KEY (named DISPLAY), added when missing. */
long long findings_object(struct findings_tx *t, const char *key, const char *display);

/* Each adds one row and returns its id, or -1 when it failed (the
 * transaction then rolls back at findings_commit).  Ids <= 0 given for
 * optional references (a pair's candidates, a finding's pair) are NULL. */
long long findings_candidate(struct findings_tx *t, const char *side, long long function_id,
			     long long plain_event_id, long long marked_event_id,
			     long long data_object_id, long long flag_object_id);
long long findings_pair(struct findings_tx *t, long long data_object_id, long long flag_object_id,
			long long writer_candidate_id, long long reader_candidate_id);

struct finding_row {
	const char *fingerprint, *kind, *severity, *message, *variable, *flag;
	const char *fix_file;      /* NULL: no fix (then fix_line, fix are unused) */
	int fix_line;
	const char *fix;
	long long pair_id;
	long long scan_id;
	const char *confidence;    /* high | medium | low */
	int strength;              /* order inside the level (more first) */
};
long long findings_add(struct findings_tx *t, const struct finding_row *r);

struct location_row {
	long long finding_id;      /* < 0: the finding failed; nothing is added */
	int seq;
	const char *role, *file;
	int line, col;
	const char *function;      /* may be NULL */
	const char *access;
	int marked;
};
void findings_add_location(struct findings_tx *t, const struct location_row *r);

/* Adds sentence FACT as evidence number SEQ of finding FINDING_ID (< 0:
 * nothing is added). */
void findings_add_evidence(struct findings_tx *t, long long finding_id, int seq, const char *fact);

/* Another pairing of finding FINDING_ID's site: part PART (from 1), whose
 * locations are the finding's FIRST_SEQ .. FIRST_SEQ + NLOCS - 1. */
struct part_row {
	long long finding_id;
	int part;
	const char *kind, *flag, *message;
	int first_seq, nlocs;
};
void findings_add_part(struct findings_tx *t, const struct part_row *r);

/* Ends the transaction and frees T: commits and returns 0 when every
 * insert went in, else rolls back and returns -1 with ERR. */
int findings_commit(struct findings_tx *t, char *err, size_t errlen);

#endif
