/* cli/report.h — the in-memory model of `kcsan-scan report` and the
 * functions that fill it from a database and write it out.
 *
 * report_load() reads the static findings (findings, finding_locations),
 * joins the races the runtime observed (race_evidence, races) and turns
 * races that no static finding explains into dynamic-only findings; it
 * sorts everything into the order of docs/design.md §7.  The writers (report_text.c,
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

/* How sure a finding is (analyzer/findings/evidence.h); a higher value is
 * surer, and 0 (low) lists everything as report.min_confidence. */
enum report_confidence { REPORT_LOW, REPORT_MEDIUM, REPORT_HIGH };

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
	/* How the races were joined to the static finding: "recorded" (the
	 * runtime named the finding, race_evidence), "access pair" (one side
	 * at the plain access, the other at the racing access), "plain
	 * access" (one side at the plain access; the finding names no racing
	 * access).  NULL for a race no static finding explains. */
	const char *matched;
};

/* Where a finding stands against a baseline report (--baseline). */
enum report_baseline_state {
	REPORT_BASELINE_NONE,   /* no baseline given */
	REPORT_BASELINE_NEW,    /* its id is not in the baseline */
	REPORT_BASELINE_UNCHANGED,
	REPORT_BASELINE_ABSENT, /* in the baseline only (report.absent) */
};

/* An inline `kcsan-scan: ignore[(KIND,...)]` comment (analyzer/findings/suppress.h). */
struct report_suppression {
	char *file;             /* like report_location.file */
	int line, column;       /* of the marker */
	char **kinds;           /* NULL (nkinds 0): every kind */
	int nkinds;
	int used;               /* suppresses at least one finding */
};

/* Another pairing of a finding's site (finding_parts): its locations are
 * the finding's locs[first_loc .. first_loc + nlocs - 1]. */
struct report_part {
	char *kind, *flag;      /* flag may be NULL */
	char *message;
	int first_loc, nlocs;
};

struct report_finding {
	char *id;               /* stable fingerprint */
	char *kind;
	enum report_severity severity;
	enum report_confidence confidence;
	int strength;           /* order inside a confidence level (more first) */
	char **facts;           /* the evidence behind the confidence */
	int nfacts;
	unsigned evidence;      /* REPORT_EV_* bits, never 0 */
	char *message;
	char *variable, *flag;  /* may be NULL */
	struct report_location *locs;
	int nlocs;
	int nprimary;           /* locs[0 .. nprimary - 1] are the finding's own
				   pairing; the parts' follow */
	struct report_part *parts;
	int nparts;
	char *fix_file;         /* fix_suggestion != NULL means a fix is known */
	int fix_line;
	char *fix_suggestion;
	int has_dynamic;
	struct report_dynamic dyn;
	int suppressed_by;      /* index into report.suppressions, -1 if none */
	enum report_baseline_state baseline;
};

struct report {
	char *root;             /* root of the latest scan; NULL when there is none */
	char *unfinished_scan;  /* start time of the latest scan when it did not
				   finish (interrupted, or still running) */
	int any_scan_finished;
	struct report_finding *findings;        /* every finding, suppressed too */
	size_t nfindings;
	struct report_suppression *suppressions;
	size_t nsuppressions;
	/* Presentation, set by the caller before writing. */
	int show_suppressed;    /* text and JSON list suppressed findings too */
	enum report_confidence min_confidence;   /* list only findings this sure */
	/* Filled by report_apply_baseline(): the baseline's findings that are
	 * gone, and the counts. */
	int has_baseline;
	struct report_finding *absent;
	size_t nabsent;
	size_t new_findings, unchanged;
	/* Counts of the findings the text and JSON list (report_listed()),
	 * and of the suppressed ones; set by report_count(). */
	size_t listed, errors, warnings, notes, suppressed;
};

/* Fills R from DB (opened with kdb_open) and sorts it.  Returns 0, or -1
 * with a one-line reason in ERR; R is then empty and needs no freeing. */
int report_load(sqlite3 *db, struct report *r, char *err, size_t errlen);

/* Frees what report_load() allocated. */
void report_free(struct report *r);

/* Frees an array of N findings and what they hold. */
void report_free_findings(struct report_finding *f, size_t n);

/* Reads FILE, an earlier `report --format json` output, into BASE (only
 * the findings are kept).  Returns 0, or -1 with a one-line reason. */
int report_load_baseline(const char *file, struct report *base, char *err, size_t errlen);

/* Marks every finding of R new or unchanged against BASE (by id) and
 * moves BASE's findings that R lacks into R->absent; BASE is left empty.
 * Counts again (report_count). */
void report_apply_baseline(struct report *r, struct report *base);

/* How many of F's locations are its own pairing's (the parts' follow). */
static inline int report_primary(const struct report_finding *f)
{
	return f->nparts ? f->nprimary : f->nlocs;
}

/* Does the text or JSON output list F?  Not a suppressed finding (unless
 * show_suppressed), nor one less sure than min_confidence, and with a
 * baseline only a new one. */
int report_listed(const struct report *r, const struct report_finding *f);

/* Fills R's counts: listed findings, their severities (suppressed ones
 * shown on request not among them), and the suppressed ones. */
void report_count(struct report *r);

/* The writers.  Each returns 0, or -1 when writing to OUT failed. */
int report_write_text(const struct report *r, FILE *out);
int report_write_json(const struct report *r, FILE *out);
int report_write_sarif(const struct report *r, FILE *out);

/* report_load() + the writer of FMT + report_free().  Returns 0, or -1
 * with a one-line reason in ERR. */
int report_render(sqlite3 *db, enum report_format fmt, FILE *out, char *err, size_t errlen);

/* Is there a listed finding at LEVEL or more severe?  (Suppressed ones
 * never count, even when shown; with a baseline only new ones count.) */
int report_fails(const struct report *r, enum report_severity level);

/* Names <-> values: "error" | "warning" | "note", "text" | "json" | "sarif".
 * The parsers return 0, or -1 for an unknown name. */
const char *report_severity_name(enum report_severity s);
int report_parse_severity(const char *name, enum report_severity *s);
/* "high", "medium", "low", and back (-1: not a level). */
const char *report_confidence_name(enum report_confidence c);
int report_parse_confidence(const char *name, enum report_confidence *c);
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
struct json_t *report_json_finding(const struct report_finding *f);   /* docs/design.md §7 finding */
struct json_t *report_json_dynamic(const struct report_dynamic *d);
struct json_t *report_json_evidence(unsigned evidence);
struct json_t *report_json_facts(const struct report_finding *f);    /* confidence_evidence */
struct json_t *report_json_suppression(const struct report_suppression *s);
/* Writes DOC (consumed) indented, with a final newline; 0 or -1. */
int report_json_dump(struct json_t *doc, FILE *out);

#endif
