/* cli/report_baseline.c — `report --baseline FILE`: reads an earlier JSON
 * report into findings and sorts the current findings into new and
 * unchanged, and the earlier ones that are gone into absent.  This is what
 * a review bot runs on a pull request: scan the base, keep its report,
 * scan the head, report against it.  Findings are matched by id alone:
 * ids survive line shifts and do not depend on where the tree lives. */
#include "report.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/model/facts.h"   /* xcalloc and friends */

/* The string at KEY of O, copied; NULL when absent or not a string. */
static char *get_string(json_t *o, const char *key)
{
	return xstrdup(json_string_value(json_object_get(o, key)));
}

static int get_int(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 && json_integer_value(v) < 0x7fffffff
	       ? (int)json_integer_value(v) : 0;
}

static void parse_finding(json_t *o, struct report_finding *f)
{
	json_t *locs = json_object_get(o, "locations"), *ev = json_object_get(o, "evidence");
	json_t *fix = json_object_get(o, "fix"), *v;
	char *severity = get_string(o, "severity");
	size_t i;

	memset(f, 0, sizeof *f);
	f->suppressed_by = -1;
	f->baseline = REPORT_BASELINE_ABSENT;
	f->id = get_string(o, "id");
	f->kind = get_string(o, "kind");
	if (!severity || report_parse_severity(severity, &f->severity) < 0)
		f->severity = REPORT_WARNING;
	free(severity);
	json_array_foreach(ev, i, v) {
		const char *e = json_string_value(v);

		if (e && strcmp(e, "static") == 0)
			f->evidence |= REPORT_EV_STATIC;
		else if (e && strcmp(e, "dynamic") == 0)
			f->evidence |= REPORT_EV_DYNAMIC;
	}
	if (!f->evidence)
		f->evidence = REPORT_EV_STATIC;
	f->message = get_string(o, "message");
	f->variable = get_string(o, "variable");
	f->flag = get_string(o, "flag");
	if (json_is_array(locs) && json_array_size(locs)) {
		f->locs = xcalloc(json_array_size(locs), sizeof *f->locs);
		json_array_foreach(locs, i, v) {
			struct report_location *l;

			if (!json_is_object(v))
				continue;
			l = &f->locs[f->nlocs++];
			l->role = get_string(v, "role");
			l->file = get_string(v, "file");
			l->line = get_int(v, "line");
			l->column = get_int(v, "column");
			l->function = get_string(v, "function");
			l->access = get_string(v, "access");
			l->marked = json_is_true(json_object_get(v, "marked"));
		}
	}
	if (json_is_object(fix) && json_is_string(json_object_get(fix, "suggestion"))) {
		f->fix_file = get_string(fix, "file");
		f->fix_line = get_int(fix, "line");
		f->fix_suggestion = get_string(fix, "suggestion");
	}
}

int report_load_baseline(const char *file, struct report *base, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *doc, *findings, *v;
	const char *schema;
	size_t i;

	memset(base, 0, sizeof *base);
	doc = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		if (jerr.line <= 0 && errno)
			snprintf(err, errlen, "cannot read baseline '%s': %s", file, strerror(errno));
		else
			snprintf(err, errlen, "baseline '%s' is not JSON (line %d: %s)", file, jerr.line, jerr.text);
		return -1;
	}
	schema = json_string_value(json_object_get(doc, "schema"));
	findings = json_object_get(doc, "findings");
	if (!schema || strcmp(schema, "kcsan-scan-report/1") != 0 || !json_is_array(findings)) {
		snprintf(err, errlen, "baseline '%s' is not a kcsan-scan JSON report (make it with "
			 "'kcsan-scan report --format json')", file);
		json_decref(doc);
		return -1;
	}
	json_array_foreach(findings, i, v) {
		if (!json_is_object(v) || !json_is_string(json_object_get(v, "id"))) {
			snprintf(err, errlen, "baseline '%s': finding %zu has no id", file, i + 1);
			json_decref(doc);
			return -1;
		}
	}
	base->findings = xcalloc(json_array_size(findings), sizeof *base->findings);
	json_array_foreach(findings, i, v)
		parse_finding(v, &base->findings[base->nfindings++]);
	json_decref(doc);
	return 0;
}

static int compare_ids(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* IDS sorted by compare_ids: is ID among them? */
static int has_id(char **ids, size_t n, const char *id)
{
	return id && n && bsearch(&id, ids, n, sizeof *ids, compare_ids) != NULL;
}

static char **sorted_ids(const struct report_finding *f, size_t n)
{
	char **ids = xcalloc(n, sizeof *ids);

	for (size_t i = 0; i < n; i++)
		ids[i] = f[i].id ? f[i].id : "";
	qsort(ids, n, sizeof *ids, compare_ids);
	return ids;
}

void report_apply_baseline(struct report *r, struct report *base)
{
	char **old = sorted_ids(base->findings, base->nfindings);
	char **now = sorted_ids(r->findings, r->nfindings);

	r->has_baseline = 1;
	r->new_findings = r->unchanged = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		struct report_finding *f = &r->findings[i];

		f->baseline = has_id(old, base->nfindings, f->id) ? REPORT_BASELINE_UNCHANGED
								  : REPORT_BASELINE_NEW;
		if (f->suppressed_by < 0)
			*(f->baseline == REPORT_BASELINE_NEW ? &r->new_findings : &r->unchanged) += 1;
	}
	/* What the baseline had and the tree no longer has; the same id twice
	 * in the baseline is one finding. */
	r->absent = xcalloc(base->nfindings, sizeof *r->absent);
	for (size_t i = 0; i < base->nfindings; i++) {
		struct report_finding *f = &base->findings[i];
		int dup = 0;

		for (size_t j = 0; j < r->nabsent && !dup; j++)
			dup = strcmp(r->absent[j].id, f->id) == 0;
		if (!dup && !has_id(now, r->nfindings, f->id)) {
			r->absent[r->nabsent++] = *f;
			memset(f, 0, sizeof *f);
		}
	}
	free(old);
	free(now);
	report_free_findings(base->findings, base->nfindings);
	memset(base, 0, sizeof *base);
	report_count(r);
}
