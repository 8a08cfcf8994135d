/* cli/report.h — the in-memory model of `kcsan-scan report` and the
 * functions that fill it from a database and write it out.
 *
 * report_load() reads the static findings (findings, finding_locations),
 * joins the races the runtime observed (race_evidence, races) and turns
 * races that no static finding explains into dynamic-only findings; it
 * sorts everything into the order of SPEC §7.  The writers (report_text.c,
 * report_json.c, report_sarif.c) only read the model.
 */
#ifndef KCSAN_CLI_REPORT_H
#define KCSAN_CLI_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include <sqlite3.h>

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_SARIF };

/* In decreasing order: a lower value is more severe. */
enum report_severity { REPORT_ERROR, REPORT_WARNING, REPORT_NOTE };

/* Bits of report_finding.evidence. */
#define REPORT_EV_STATIC  1u
#define REPORT_EV_DYNAMIC 2u

struct report_location {
	char *role;             /* plain-access | publish | consume | racing-access | barrier */
	char *file;             /* relative to the scanned root where possible */
	int line, column;       /* 0 when unknown */
	char *function;         /* may be NULL */
	char *access;           /* read | write | rmw | none; may be NULL */
	int marked;
};

struct report_frame {
	char *function;         /* may be NULL */
	char *file;             /* may be NULL */
	int line;               /* 0 when unknown */
};

struct report_dynamic {
	long long observations; /* sum over the joined races */
	int reordered;          /* any joined race was found through reordering */
	char *first_seen;       /* earliest, ISO-8601 UTC */
	struct report_frame *stack[2];  /* the two accesses of the first race */
	int nframes[2];
};

struct report_finding {
	char *id;               /* stable fingerprint */
	char *kind;
	enum report_severity severity;
	unsigned evidence;      /* REPORT_EV_* bits, never 0 */
	char *message;
	char *variable, *flag;  /* may be NULL */
	struct report_location *locs;
	int nlocs;
	char *fix_file;         /* fix_suggestion != NULL means a fix is known */
	int fix_line;
	char *fix_suggestion;
	int has_dynamic;
	struct report_dynamic dyn;
};

struct report {
	char *root;             /* root of the latest scan; NULL when there is none */
	struct report_finding *findings;
	size_t nfindings;
	size_t errors, warnings, notes;
};

/* Fills R from DB (opened with kdb_open) and sorts it.  Returns 0, or -1
 * with a one-line reason in ERR; R is then empty and needs no freeing. */
int report_load(sqlite3 *db, struct report *r, char *err, size_t errlen);

/* Frees what report_load() allocated. */
void report_free(struct report *r);

/* The writers.  Each returns 0, or -1 when writing to OUT failed. */
int report_write_text(const struct report *r, FILE *out);
int report_write_json(const struct report *r, FILE *out);
int report_write_sarif(const struct report *r, FILE *out);

/* report_load() + the writer of FMT + report_free().  Returns 0, or -1
 * with a one-line reason in ERR. */
int report_render(sqlite3 *db, enum report_format fmt, FILE *out, char *err, size_t errlen);

/* Is there a finding at LEVEL or more severe? */
int report_fails(const struct report *r, enum report_severity level);

/* Names <-> values: "error" | "warning" | "note", "text" | "json" | "sarif".
 * The parsers return 0, or -1 for an unknown name. */
const char *report_severity_name(enum report_severity s);
int report_parse_severity(const char *name, enum report_severity *s);
int report_parse_format(const char *name, enum report_format *f);

/* Rank of an evidence set for ordering: static+dynamic 0, dynamic 1, static 2. */
int report_evidence_rank(unsigned evidence);

/* Helpers shared by the writers (report_common.c). */

/* Describes location L of finding F for a note or a related location:
 * "publishing write to 'flag' here".  Returns a malloc'd string. */
char *report_location_note(const struct report_finding *f, const struct report_location *l);

/* "read of", "write to", "read-modify-write of", "access to" */
const char *report_access_phrase(const char *access);

/* JSON pieces shared by the JSON and SARIF writers (report_json.c).  A
 * string that is not valid UTF-8 has its other bytes replaced by '?'. */
struct json_t;
struct json_t *report_json_string(const char *s);       /* JSON null for NULL */
struct json_t *report_json_finding(const struct report_finding *f);   /* SPEC §7 finding */
struct json_t *report_json_dynamic(const struct report_dynamic *d);
struct json_t *report_json_evidence(unsigned evidence);
/* Writes DOC (consumed) indented, with a final newline; 0 or -1. */
int report_json_dump(struct json_t *doc, FILE *out);

#endif
