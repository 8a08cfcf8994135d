/* cli/report.c — `kcsan-scan report`: options, the baseline and the
 * suppressions shown or not, the output file (output.c: never damages
 * what is at the path), and the exit status (--fail-on).  Loading is
 * report_load.c and report_baseline.c; the formats are report_text.c,
 * report_json.c and report_sarif.c. */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "db.h"
#include "options.h"
#include "output.h"

static const char usage[] =
	"[--db FILE] [--format text|json|sarif] [-o FILE] [--fail-on error|warning|note]\n"
	"       [--min-confidence high|medium|low] [--baseline FILE] [--show-suppressed]";

static int write_format(const struct report *r, enum report_format fmt, FILE *out)
{
	switch (fmt) {
	case REPORT_JSON:
		return report_write_json(r, out);
	case REPORT_SARIF:
		return report_write_sarif(r, out);
	case REPORT_TEXT:
		break;
	}
	return report_write_text(r, out);
}

int report_render(sqlite3 *db, enum report_format fmt, FILE *out, char *err, size_t errlen)
{
	struct report r;
	int rc;

	if (report_load(db, &r, err, errlen) < 0)
		return -1;
	errno = 0;
	rc = write_format(&r, fmt, out);
	report_free(&r);
	if (rc < 0)
		snprintf(err, errlen, "cannot write the report: %s", errno ? strerror(errno) : "write error");
	return rc;
}

int cmd_report(int argc, char **argv)
{
	const char *db_path = "kcsan.db", *format = "text", *output = NULL, *fail_on = NULL,
		   *baseline = NULL, *min_confidence = NULL;
	int show_suppressed = 0;
	const struct kopt opts[] = {
		{ "db", 0, KOPT_STRING, &db_path, "FILE", "database to read (default ./kcsan.db)" },
		{ "format", 0, KOPT_STRING, &format, "FORMAT", "text (default), json or sarif" },
		{ "output", 'o', KOPT_STRING, &output, "FILE",
		  "write the report to FILE (default, or -: standard output); a regular file is "
		  "replaced atomically, a device or FIFO written through, a database refused" },
		{ "fail-on", 0, KOPT_STRING, &fail_on, "LEVEL",
		  "exit 1 if a listed finding of LEVEL (error, warning, note) or more severe exists" },
		{ "min-confidence", 0, KOPT_STRING, &min_confidence, "LEVEL",
		  "list, count and fail on only the findings at least this sure: high, medium or "
		  "low (default: all)" },
		{ "baseline", 0, KOPT_STRING, &baseline, "FILE",
		  "an earlier --format json report: list and count only new findings; SARIF marks "
		  "every result new, unchanged or absent" },
		{ "show-suppressed", 0, KOPT_FLAG, &show_suppressed, NULL,
		  "list the findings that 'kcsan-scan: ignore' comments suppress too" },
		{ 0 },
	};
	char err[PATH_MAX + 512], **operands;
	int noperands, failed = 0;
	enum report_format fmt;
	enum report_severity level = REPORT_ERROR;
	enum report_confidence least = REPORT_LOW;
	struct report r, base;
	struct output_file of = { 0 };
	FILE *out = stdout;
	sqlite3 *db;

	kopt_parse("report", usage, opts, argc, argv, &operands, &noperands, NULL, NULL);
	if (noperands > 0)
		kdie(2, "report", "unexpected argument '%s' (see 'kcsan-scan report --help')", operands[0]);
	free(operands);
	if (report_parse_format(format, &fmt) < 0)
		kdie(2, "report", "unknown format '%s' (use text, json or sarif)", format);
	if (fail_on && report_parse_severity(fail_on, &level) < 0)
		kdie(2, "report", "unknown level '%s' for --fail-on (use error, warning or note)", fail_on);
	if (min_confidence && report_parse_confidence(min_confidence, &least) < 0)
		kdie(2, "report", "unknown level '%s' for --min-confidence (use high, medium or low)",
		     min_confidence);
	if (output && !*output)
		kdie(2, "report", "option '--output' needs a file name");
	if (!*db_path)
		kdie(2, "report", "option '--db' needs a file name");
	if (baseline && !*baseline)
		kdie(2, "report", "option '--baseline' needs a file name");

	if (baseline && report_load_baseline(baseline, &base, err, sizeof err) < 0)
		kdie(2, "report", "%s", err);
	db = kdb_open(db_path, KDB_READ_ONLY, err, sizeof err);
	if (!db)
		kdie(2, "report", "%s", err);
	if (report_load(db, &r, err, sizeof err) < 0) {
		kdb_close(db);
		kdie(2, "report", "%s", err);
	}
	kdb_close(db);
	/* An interrupted scan leaves facts but no findings: "no findings"
	 * would be a lie.  With an earlier finished scan its findings stand,
	 * said with a warning; CI (--fail-on) must not pass on them. */
	if (r.unfinished_scan && !r.any_scan_finished) {
		report_free(&r);
		kdie(2, "report", "the scan of '%s' did not finish (interrupted, or still running); "
		     "there are no findings to report: run 'kcsan-scan scan' again", db_path);
	}
	if (r.unfinished_scan)
		fprintf(stderr, "kcsan-scan report: warning: the latest scan (started %s) did not finish; "
			"these are the findings of the last scan that did%s\n", r.unfinished_scan,
			fail_on ? " (exit status 2)" : "");
	r.show_suppressed = show_suppressed;
	r.min_confidence = least;
	if (baseline)
		report_apply_baseline(&r, &base);
	else
		report_count(&r);

	if (output && strcmp(output, "-") != 0) {
		if (output_open(&of, output, db_path, err, sizeof err) < 0) {
			report_free(&r);
			kdie(2, "report", "%s", err);
		}
		out = of.stream;
	}
	errno = 0;
	if (write_format(&r, fmt, out) < 0 || fflush(out) != 0 || ferror(out))
		failed = errno ? errno : EIO;
	if (of.stream)
		failed = output_close(&of, failed);
	if (failed) {
		report_free(&r);
		kdie(2, "report", "cannot write '%s': %s", output && strcmp(output, "-") ? output : "standard output",
		     strerror(failed));
	}
	if (fail_on && r.unfinished_scan)
		failed = 2;
	else if (fail_on && report_fails(&r, level))
		failed = 1;
	report_free(&r);
	return failed;
}
