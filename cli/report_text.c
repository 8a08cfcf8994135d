/* cli/report_text.c — the compiler-style text report, for people and for
 * editors that jump to "file:line:col:" positions:
 *
 *   src/mp.c:12:5: error: plain write to 'x' ... [kcsan-scan:missing-release]
 *   src/mp.c:13:5: note: publishing write to 'flag' here
 *   src/mp.c:13: note: fix: smp_store_release(&flag, 1);
 *   note: observed 3 times at run time (reordered)
 *   note: confidence high: both sides run in threads that ...; the reader tests 'flag' ...
 *   1 finding: 1 error, 0 warnings, 0 notes
 *
 * Every text that comes from the scanned tree (file names, names, fix
 * suggestions) is written with control characters escaped (\n, \t,
 * \x1b, ...), so a hostile file name can neither forge a diagnostic line
 * nor send escape sequences to the terminal. */
#include "report.h"

#include <stdlib.h>

/* S with bytes below 0x20 and 0x7f written as C escapes. */
static void put_text(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else
			fputc(*p, out);
	}
}

/* "file:line:col: ", leaving out what is unknown. */
static void position(FILE *out, const char *file, int line, int column)
{
	if (!file) {
		fputs("kcsan-scan: ", out);
		return;
	}
	put_text(out, file);
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

static void location_note(const struct report_finding *f, const struct report_location *l, FILE *out)
{
	char *note = report_location_note(f, l);

	position(out, l->file, l->line, l->column);
	fputs("note: ", out);
	put_text(out, note);
	fputc('\n', out);
	free(note);
}

static void write_finding(const struct report *r, const struct report_finding *f, FILE *out)
{
	const struct report_location *first = f->nlocs ? &f->locs[0] : NULL;
	const char *kind = f->kind ? f->kind : "unknown";

	if (first)
		position(out, first->file, first->line, first->column);
	else
		position(out, NULL, 0, 0);
	fprintf(out, "%s: ", report_severity_name(f->severity));
	put_text(out, f->message && *f->message ? f->message : kind);
	fputs(" [kcsan-scan:", out);
	put_text(out, kind);
	fputs("]\n", out);

	for (int i = 1; i < report_primary(f); i++)
		location_note(f, &f->locs[i], out);
	if (f->fix_suggestion) {
		if (f->fix_file)
			position(out, f->fix_file, f->fix_line, 0);
		fputs("note: fix: ", out);
		put_text(out, f->fix_suggestion);
		fputc('\n', out);
	}
	if (f->has_dynamic)
		fprintf(out, "note: observed %lld %s at run time%s\n", f->dyn.observations,
			f->dyn.observations == 1 ? "time" : "times",
			f->dyn.reordered ? " (reordered)" : "");
	if (f->nfacts) {
		fprintf(out, "note: confidence %s: ", report_confidence_name(f->confidence));
		for (int i = 0; i < f->nfacts; i++) {
			if (i)
				fputs("; ", out);
			put_text(out, f->facts[i]);
		}
		fputc('\n', out);
	}
	/* The site's other pairings, each under its own message. */
	for (int k = 0; k < f->nparts; k++) {
		const struct report_part *p = &f->parts[k];

		if (first)
			position(out, first->file, first->line, first->column);
		fputs("note: also: ", out);
		put_text(out, p->message ? p->message : "");
		fputs(" [kcsan-scan:", out);
		put_text(out, p->kind ? p->kind : "unknown");
		fputs("]\n", out);
		for (int i = p->first_loc; i < p->first_loc + p->nlocs; i++)
			location_note(f, &f->locs[i], out);
	}
	if (f->suppressed_by >= 0) {
		const struct report_suppression *s = &r->suppressions[f->suppressed_by];

		position(out, s->file, s->line, s->column);
		fputs("note: suppressed by this comment\n", out);
	}
}

int report_write_text(const struct report *r, FILE *out)
{
	for (size_t i = 0; i < r->nfindings; i++)
		if (report_listed(r, &r->findings[i]))
			write_finding(r, &r->findings[i], out);
	if (r->listed == 0)
		fprintf(out, "no %sfindings", r->has_baseline ? "new " : "");
	else
		fprintf(out, "%zu %s%s: %zu %s, %zu %s, %zu %s",
			r->listed, r->has_baseline ? "new " : "", plural(r->listed, "finding", "findings"),
			r->errors, plural(r->errors, "error", "errors"),
			r->warnings, plural(r->warnings, "warning", "warnings"),
			r->notes, plural(r->notes, "note", "notes"));
	if (r->has_baseline)
		fprintf(out, "; %zu unchanged, %zu absent from the baseline", r->unchanged, r->nabsent);
	if (r->suppressed)
		fprintf(out, "; %zu suppressed%s", r->suppressed, r->show_suppressed ? " (shown)" : "");
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}
