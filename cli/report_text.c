/* cli/report_text.c — the compiler-style text report, for people and for
 * editors that jump to "file:line:col:" positions:
 *
 *   src/mp.c:12:5: error: plain write to 'x' ... [kcsan-scan:missing-release]
 *   src/mp.c:13:5: note: publishing write to 'flag' here
 *   src/mp.c:13: note: fix: smp_store_release(&flag, 1);
 *   note: observed 3 times at run time (reordered)
 *   1 finding: 1 error, 0 warnings, 0 notes
 */
#include "report.h"

#include <stdlib.h>

/* "file:line:col: ", leaving out what is unknown. */
static void position(FILE *out, const char *file, int line, int column)
{
	if (!file) {
		fputs("kcsan-scan: ", out);
		return;
	}
	fputs(file, out);
	if (line > 0) {
		fprintf(out, ":%d", line);
		if (column > 0)
			fprintf(out, ":%d", column);
	}
	fputs(": ", out);
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void write_finding(const struct report_finding *f, FILE *out)
{
	const struct report_location *first = f->nlocs ? &f->locs[0] : NULL;
	const char *kind = f->kind ? f->kind : "unknown";

	if (first)
		position(out, first->file, first->line, first->column);
	else
		position(out, NULL, 0, 0);
	fprintf(out, "%s: %s [kcsan-scan:%s]\n", report_severity_name(f->severity),
		f->message && *f->message ? f->message : kind, kind);

	for (int i = 1; i < f->nlocs; i++) {
		const struct report_location *l = &f->locs[i];
		char *note = report_location_note(f, l);

		position(out, l->file, l->line, l->column);
		fprintf(out, "note: %s\n", note);
		free(note);
	}
	if (f->fix_suggestion) {
		if (f->fix_file)
			position(out, f->fix_file, f->fix_line, 0);
		fprintf(out, "note: fix: %s\n", f->fix_suggestion);
	}
	if (f->has_dynamic)
		fprintf(out, "note: observed %lld %s at run time%s\n", f->dyn.observations,
			f->dyn.observations == 1 ? "time" : "times",
			f->dyn.reordered ? " (reordered)" : "");
}

int report_write_text(const struct report *r, FILE *out)
{
	for (size_t i = 0; i < r->nfindings; i++)
		write_finding(&r->findings[i], out);
	if (r->nfindings == 0)
		fputs("no findings\n", out);
	else
		fprintf(out, "%zu %s: %zu %s, %zu %s, %zu %s\n",
			r->nfindings, plural(r->nfindings, "finding", "findings"),
			r->errors, plural(r->errors, "error", "errors"),
			r->warnings, plural(r->warnings, "warning", "warnings"),
			r->notes, plural(r->notes, "note", "notes"));
	return ferror(out) ? -1 : 0;
}
