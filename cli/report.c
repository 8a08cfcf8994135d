/* cli/report.c — `kcsan-scan report`: options, the output file (written
 * atomically: a temporary file beside it, renamed into place only when
 * complete), and the exit status (--fail-on).  Loading is report_load.c;
 * the formats are report_text.c, report_json.c and report_sarif.c. */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "db.h"
#include "options.h"

static const char usage[] =
	"[--db FILE] [--format text|json|sarif] [-o FILE] [--fail-on error|warning|note]";

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

/* A temporary file in the directory of PATH, with the permissions a newly
 * created file would get.  Returns the stream and sets *TMP (malloc'd). */
static FILE *open_temp(const char *path, char **tmp)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
	const char *base = slash ? slash + 1 : path;
	mode_t mask;
	FILE *f;
	int fd;

	*tmp = malloc(dirlen + strlen(base) + sizeof ".tmp.XXXXXX" + 1);
	if (!*tmp)
		return NULL;
	memcpy(*tmp, path, dirlen);
	sprintf(*tmp + dirlen, ".%s.tmp.XXXXXX", base);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		errno = e;
		return NULL;
	}
	return f;
}

int cmd_report(int argc, char **argv)
{
	const char *db_path = "kcsan.db", *format = "text", *output = NULL, *fail_on = NULL;
	const struct kopt opts[] = {
		{ "db", 0, KOPT_STRING, &db_path, "FILE", "database to read (default ./kcsan.db)" },
		{ "format", 0, KOPT_STRING, &format, "FORMAT", "text (default), json or sarif" },
		{ "output", 'o', KOPT_STRING, &output, "FILE", "write the report to FILE, replacing it whole (default, or -: standard output)" },
		{ "fail-on", 0, KOPT_STRING, &fail_on, "LEVEL",
		  "exit 1 if a finding of LEVEL (error, warning, note) or more severe exists" },
		{ 0 },
	};
	char err[512], **operands, *tmp = NULL;
	int noperands, failed = 0;
	enum report_format fmt;
	enum report_severity level = REPORT_ERROR;
	struct report r;
	sqlite3 *db;
	FILE *out = stdout;

	kopt_parse("report", usage, opts, argc, argv, &operands, &noperands, NULL, NULL);
	if (noperands > 0)
		kdie(2, "report", "unexpected argument '%s' (see 'kcsan-scan report --help')", operands[0]);
	free(operands);
	if (report_parse_format(format, &fmt) < 0)
		kdie(2, "report", "unknown format '%s' (use text, json or sarif)", format);
	if (fail_on && report_parse_severity(fail_on, &level) < 0)
		kdie(2, "report", "unknown level '%s' for --fail-on (use error, warning or note)", fail_on);
	if (output && !*output)
		kdie(2, "report", "option '--output' needs a file name");

	db = kdb_open(db_path, KDB_READ_ONLY, err, sizeof err);
	if (!db)
		kdie(2, "report", "%s", err);
	if (report_load(db, &r, err, sizeof err) < 0) {
		sqlite3_close(db);
		kdie(2, "report", "%s", err);
	}
	sqlite3_close(db);

	if (output && strcmp(output, "-") != 0) {
		out = open_temp(output, &tmp);
		if (!out) {
			report_free(&r);
			kdie(2, "report", "cannot write '%s': %s", output, strerror(errno));
		}
	}
	errno = 0;
	if (write_format(&r, fmt, out) < 0 || fflush(out) != 0 || ferror(out))
		failed = errno ? errno : EIO;
	if (tmp) {
		if (!failed && fsync(fileno(out)) != 0)
			failed = errno;
		if (fclose(out) != 0 && !failed)
			failed = errno ? errno : EIO;
		if (!failed && rename(tmp, output) != 0)
			failed = errno;
		if (failed)
			unlink(tmp);
		free(tmp);
	}
	if (failed) {
		report_free(&r);
		kdie(2, "report", "cannot write '%s': %s", output && strcmp(output, "-") ? output : "standard output",
		     strerror(failed));
	}
	if (fail_on && report_fails(&r, level))
		failed = 1;
	report_free(&r);
	return failed ? 1 : 0;
}
