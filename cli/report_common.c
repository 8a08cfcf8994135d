/* cli/report_common.c — small pieces of the report that every output format
 * shares: names of severities and formats, the evidence rank used for
 * ordering, which findings are listed and counted (suppressions, the
 * baseline, --min-confidence), the --fail-on test, and the wording of location notes. */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/model/facts.h"   /* xmalloc */

static const char *const severity_names[] = { "error", "warning", "note" };

const char *report_severity_name(enum report_severity s)
{
	return (unsigned)s < 3 ? severity_names[s] : "warning";
}

int report_parse_severity(const char *name, enum report_severity *s)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(name, severity_names[i]) == 0) {
			*s = (enum report_severity)i;
			return 0;
		}
	return -1;
}

static const char *const confidence_names[] = { "low", "medium", "high" };

const char *report_confidence_name(enum report_confidence c)
{
	return (unsigned)c < 3 ? confidence_names[c] : "low";
}

int report_parse_confidence(const char *name, enum report_confidence *c)
{
	for (int i = 0; i < 3; i++)
		if (name && strcmp(name, confidence_names[i]) == 0) {
			*c = (enum report_confidence)i;
			return 0;
		}
	return -1;
}

int report_parse_format(const char *name, enum report_format *f)
{
	if (strcmp(name, "text") == 0)
		*f = REPORT_TEXT;
	else if (strcmp(name, "json") == 0)
		*f = REPORT_JSON;
	else if (strcmp(name, "sarif") == 0)
		*f = REPORT_SARIF;
	else
		return -1;
	return 0;
}

int report_evidence_rank(unsigned evidence)
{
	if ((evidence & REPORT_EV_STATIC) && (evidence & REPORT_EV_DYNAMIC))
		return 0;
	return evidence & REPORT_EV_DYNAMIC ? 1 : 2;
}

int report_listed(const struct report *r, const struct report_finding *f)
{
	if (f->suppressed_by >= 0 && !r->show_suppressed)
		return 0;
	if (f->confidence < r->min_confidence)
		return 0;
	return f->baseline != REPORT_BASELINE_UNCHANGED && f->baseline != REPORT_BASELINE_ABSENT;
}

void report_count(struct report *r)
{
	r->listed = r->errors = r->warnings = r->notes = r->suppressed = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct report_finding *f = &r->findings[i];

		r->suppressed += f->suppressed_by >= 0;
		if (!report_listed(r, f))
			continue;
		r->listed++;
		/* A suppressed finding shown on request is no error of the tree. */
		if (f->suppressed_by >= 0)
			continue;
		switch (f->severity) {
		case REPORT_ERROR: r->errors++; break;
		case REPORT_WARNING: r->warnings++; break;
		case REPORT_NOTE: r->notes++; break;
		}
	}
}

int report_fails(const struct report *r, enum report_severity level)
{
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct report_finding *f = &r->findings[i];

		if (f->severity <= level && f->suppressed_by < 0 && report_listed(r, f))
			return 1;
	}
	return 0;
}

const char *report_access_phrase(const char *access)
{
	if (!access)
		return "access to";
	if (strcmp(access, "write") == 0)
		return "write to";
	if (strcmp(access, "read") == 0)
		return "read of";
	if (strcmp(access, "rmw") == 0)
		return "read-modify-write of";
	return "access to";
}

/* The flag that location L of F names: that of the pairing L belongs to
 * (the finding's own, or one of its parts'). */
static const char *flag_of(const struct report_finding *f, const struct report_location *l)
{
	long at = l - f->locs;

	if (at >= 0 && at < f->nlocs)
		for (int k = 0; k < f->nparts; k++)
			if (at >= f->parts[k].first_loc && at < f->parts[k].first_loc + f->parts[k].nlocs)
				return f->parts[k].flag;
	return f->flag;
}

char *report_location_note(const struct report_finding *f, const struct report_location *l)
{
	const char *role = l->role ? l->role : "";
	const char *name = NULL, *adj = "";
	const char *phrase = report_access_phrase(l->access);
	size_t len;
	char *s;

	if (strcmp(role, "publish") == 0) {
		adj = "publishing ";
		name = flag_of(f, l);
		if (l->access && strcmp(l->access, "rmw") == 0)
			phrase = "atomic update of";
	} else if (strcmp(role, "consume") == 0) {
		name = flag_of(f, l);
	} else if (strcmp(role, "racing-access") == 0) {
		adj = "racing ";
		name = f->variable;
	} else if (strcmp(role, "plain-access") == 0) {
		adj = l->marked ? "marked " : "plain ";
		name = f->variable;
	} else if (strcmp(role, "store") == 0 || strcmp(role, "other-load") == 0) {
		/* (store buffering: this side's store, and the crosswise load
		 * of the same object) */
		adj = *role == 'o' ? "crosswise " : "";
		name = f->variable;
	} else if (strcmp(role, "load") == 0 || strcmp(role, "other-store") == 0) {
		adj = *role == 'o' ? "crosswise " : "";
		name = flag_of(f, l);
	} else if (strcmp(role, "barrier") == 0) {
		return strcpy(xmalloc(sizeof "barrier here"), "barrier here");
	} else {
		/* A role this version does not know: say what it is called. */
		len = strlen(role) + sizeof " here";
		s = xmalloc(len + sizeof "location");
		snprintf(s, len + sizeof "location", "%s here", *role ? role : "location");
		return s;
	}
	len = strlen(adj) + strlen(phrase) + (name ? strlen(name) : 0) + 16;
	s = xmalloc(len);
	if (name)
		snprintf(s, len, "%s%s '%s' here", adj, phrase, name);
	else
		snprintf(s, len, "%s%s here", adj, phrase);
	/* "racing access to here" reads badly: drop the dangling preposition. */
	if (!name) {
		char *p = strstr(s, " to here");

		if (!p)
			p = strstr(s, " of here");
		if (p)
			memmove(p, p + 3, strlen(p + 3) + 1);
	}
	return s;
}
