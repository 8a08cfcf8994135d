/* cli/report_json.c — the JSON report, schema "kcsan-scan-report/1"
 * (docs/design.md §7), with the keys in the order shown there, and the JSON
 * pieces (finding, evidence, dynamic) that the SARIF writer reuses. */
#include "report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

#define REPORT_SCHEMA "kcsan-scan-report/1"

json_t *report_json_string(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	/* Not UTF-8 (a path in another encoding): keep the ASCII, mark the rest. */
	copy = strdup(s);
	if (!copy)
		return json_string("?");
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

json_t *report_json_evidence(unsigned evidence)
{
	json_t *a = json_array();

	if (evidence & REPORT_EV_STATIC)
		json_array_append_new(a, json_string("static"));
	if (evidence & REPORT_EV_DYNAMIC)
		json_array_append_new(a, json_string("dynamic"));
	return a;
}

/* A line number, or null when it is not known (0: code without line
 * information, a side recorded without a file): never a line 0 that a
 * reader would take for a place in the file. */
static json_t *line_or_null(int line)
{
	return line > 0 ? json_integer(line) : json_null();
}

static json_t *frames(const struct report_frame *fr, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:o, s:o, s:o}",
			"function", report_json_string(fr[i].function),
			"file", report_json_string(fr[i].file),
			"line", line_or_null(fr[i].line)));
	return a;
}

json_t *report_json_dynamic(const struct report_dynamic *d)
{
	return json_pack("{s:I, s:b, s:o, s:o, s:[o, o]}",
		"observations", (json_int_t)d->observations,
		"reordered", d->reordered,
		"first_seen", report_json_string(d->first_seen),
		"matched", report_json_string(d->matched),
		"stacks", frames(d->stack[0], d->nframes[0]), frames(d->stack[1], d->nframes[1]));
}

static json_t *location(const struct report_location *l)
{
	return json_pack("{s:o, s:o, s:o, s:i, s:o, s:o, s:b}",
		"role", report_json_string(l->role),
		"file", report_json_string(l->file),
		"line", line_or_null(l->line),
		"column", l->column,
		"function", report_json_string(l->function),
		"access", report_json_string(l->access),
		"marked", l->marked);
}

json_t *report_json_facts(const struct report_finding *f)
{
	json_t *a = json_array();

	for (int i = 0; i < f->nfacts; i++)
		json_array_append_new(a, report_json_string(f->facts[i]));
	return a;
}

json_t *report_json_finding(const struct report_finding *f)
{
	json_t *o = json_object(), *locs = json_array(), *parts = json_array();

	json_object_set_new(o, "id", report_json_string(f->id));
	json_object_set_new(o, "kind", report_json_string(f->kind));
	json_object_set_new(o, "severity", json_string(report_severity_name(f->severity)));
	json_object_set_new(o, "evidence", report_json_evidence(f->evidence));
	json_object_set_new(o, "message", report_json_string(f->message ? f->message : ""));
	json_object_set_new(o, "variable", report_json_string(f->variable));
	json_object_set_new(o, "flag", report_json_string(f->flag));
	json_object_set_new(o, "confidence", json_string(report_confidence_name(f->confidence)));
	json_object_set_new(o, "confidence_evidence", report_json_facts(f));
	for (int i = 0; i < report_primary(f); i++)
		json_array_append_new(locs, location(&f->locs[i]));
	json_object_set_new(o, "locations", locs);
	/* The site's other pairings: other flags or counterparts of the same
	 * plain access (one finding per site). */
	for (int k = 0; k < f->nparts; k++) {
		const struct report_part *p = &f->parts[k];
		json_t *plocs = json_array();

		for (int i = p->first_loc; i < p->first_loc + p->nlocs; i++)
			json_array_append_new(plocs, location(&f->locs[i]));
		json_array_append_new(parts, json_pack("{s:o, s:o, s:o, s:o}",
			"kind", report_json_string(p->kind), "flag", report_json_string(p->flag),
			"message", report_json_string(p->message), "locations", plocs));
	}
	json_object_set_new(o, "counterparts", parts);
	if (f->fix_suggestion)
		json_object_set_new(o, "fix", json_pack("{s:o, s:i, s:o}",
			"file", report_json_string(f->fix_file),
			"line", f->fix_line,
			"suggestion", report_json_string(f->fix_suggestion)));
	if (f->has_dynamic)
		json_object_set_new(o, "dynamic", report_json_dynamic(&f->dyn));
	return o;
}

int report_json_dump(struct json_t *doc, FILE *out)
{
	int rc;

	if (!doc)
		return -1;
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (rc == 0)
		fputc('\n', out);
	return rc < 0 || ferror(out) ? -1 : 0;
}

json_t *report_json_suppression(const struct report_suppression *s)
{
	json_t *kinds = json_array();

	for (int k = 0; k < s->nkinds; k++)
		json_array_append_new(kinds, report_json_string(s->kinds[k]));
	return json_pack("{s:o, s:i, s:i, s:o}",
		"file", report_json_string(s->file), "line", s->line, "column", s->column,
		"kinds", kinds);
}

/* "findings", "errors", "warnings", "notes" count what is listed;
 * "suppressed" the suppressed findings; with a baseline, "new",
 * "unchanged" and "absent" compare with it (suppressed ones not counted). */
static json_t *summary(const struct report *r)
{
	json_t *s = json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"findings", (json_int_t)r->listed, "errors", (json_int_t)r->errors,
		"warnings", (json_int_t)r->warnings, "notes", (json_int_t)r->notes,
		"suppressed", (json_int_t)r->suppressed);

	if (s && r->has_baseline) {
		json_object_set_new(s, "new", json_integer((json_int_t)r->new_findings));
		json_object_set_new(s, "unchanged", json_integer((json_int_t)r->unchanged));
		json_object_set_new(s, "absent", json_integer((json_int_t)r->nabsent));
	}
	return s;
}

int report_write_json(const struct report *r, FILE *out)
{
	json_t *findings = json_array(), *doc;

	for (size_t i = 0; i < r->nfindings; i++) {
		const struct report_finding *f = &r->findings[i];
		json_t *o;

		if (!report_listed(r, f))
			continue;
		o = report_json_finding(f);
		if (f->suppressed_by >= 0)
			json_object_set_new(o, "suppressed_by",
					    report_json_suppression(&r->suppressions[f->suppressed_by]));
		json_array_append_new(findings, o);
	}
	doc = json_pack("{s:s, s:{s:s, s:s}, s:o, s:o}",
		"schema", REPORT_SCHEMA,
		"tool", "name", "kcsan-scan", "version", KCSAN_VERSION,
		"summary", summary(r),
		"findings", findings);
	return report_json_dump(doc, out);
}
