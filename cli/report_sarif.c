/* cli/report_sarif.c — the SARIF 2.1.0 report for code-scanning services:
 * one run, one rule per kind present, one result per finding with its
 * first location as the location, the others as related locations, the
 * fingerprint as partialFingerprints["kcsanScan/v1"], a codeFlow with one
 * threadFlow per side, baselineState under --baseline (the baseline's
 * findings that are gone become "absent" results), suppressions for the
 * findings an inline comment suppresses (SARIF carries every result: a
 * code-scanning service shows or hides them itself), and the paths
 * relative to %SRCROOT% (the root of the latest scan).  Validated against
 * the OASIS schema by tests/e2e/report-sarif.sh. */
#include "report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SRCROOT "%SRCROOT%"

struct rule_text {
	const char *kind, *name, *level, *short_text, *full_text, *help;
};

static const struct rule_text known_rules[] = {
	{ "missing-release", "MissingRelease", "error",
	  "Plain access not ordered before the marked write that publishes it",
	  "A plain access to shared data is followed by a marked write (WRITE_ONCE, a relaxed "
	  "atomic) of a flag that another thread reads to find the data, with no release "
	  "ordering in between. The CPU or the compiler may make the flag visible before the "
	  "data, so the reader can see the flag set and still read stale data.",
	  "Publish with a release: write the flag with smp_store_release() (or a _release "
	  "atomic, or a C11 store with memory_order_release), or put smp_wmb() between the "
	  "data write and the flag write. The reader side needs the matching acquire." },
	{ "missing-acquire", "MissingAcquire", "error",
	  "Plain read not ordered after the marked read that guards it",
	  "A marked read (READ_ONCE, a relaxed atomic) of a flag is followed by a plain read "
	  "of the data that the flag publishes, with no acquire ordering in between. The CPU "
	  "or the compiler may perform the data read first and return a value older than the "
	  "flag.",
	  "Consume with an acquire: read the flag with smp_load_acquire() (or an _acquire "
	  "atomic, or a C11 load with memory_order_acquire), or put smp_rmb() between the "
	  "flag read and the data read. The writer side needs the matching release." },
	{ "data-race", "DataRace", "error",
	  "Data race on a plain access",
	  "Two threads access the same memory at the same time, at least one of them writes, "
	  "and at least one access is plain (not marked). The race is not explained by a "
	  "missing barrier between a data access and a flag access.",
	  "Protect the accesses with a lock, mark both of them (READ_ONCE/WRITE_ONCE or "
	  "atomics), or wrap an intentional race in data_race()." },
	{ "missing-full-barrier", "MissingFullBarrier", "error",
	  "Store not ordered before a later load of another variable (store buffering)",
	  "One thread stores X and then loads Y, another stores Y and then loads X, and each "
	  "decides on what it loaded. Without a full barrier between the store and the load, "
	  "both loads can return the old values (the store waits in a store buffer, or the "
	  "compiler swaps them), and both threads go on as if alone. Release and acquire do "
	  "not order a store before a later load.",
	  "Put smp_mb() (or atomic_thread_fence(memory_order_seq_cst)) between the store and "
	  "the load, on both sides, or make the store a fully ordered read-modify-write "
	  "(xchg(), smp_store_mb())." },
	{ "unpaired-barrier", "UnpairedBarrier", "warning",
	  "Barrier without its pairing counterpart",
	  "A write barrier or release on one side of a message-passing pattern has no read "
	  "barrier or acquire on the other side to pair with, so it does not order anything "
	  "that the other thread can rely on.",
	  "Add the pairing barrier on the other side (smp_rmb() or smp_load_acquire() on the "
	  "reader for a smp_wmb() or release on the writer, and the reverse)." },
	{ "unused-suppression", "UnusedSuppression", "note",
	  "Suppression comment that suppresses nothing",
	  "A 'kcsan-scan: ignore' comment covers findings with a location on its own line or on "
	  "the line below it (of the kinds it names, if it names any). This one covers no "
	  "finding of the latest scan: the code it excused has changed or moved.",
	  "Remove the comment, or move it next to the finding it is meant for." },
};
#define NKNOWN (sizeof known_rules / sizeof known_rules[0])

static const char *level_name(enum report_severity s)
{
	return report_severity_name(s);   /* the SARIF levels have the same names */
}

/* Percent-encodes a path for a URI, keeping '/' and RFC 3986 unreserved
 * characters.  Returns a malloc'd string. */
static char *uri_escape(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = malloc(3 * strlen(path) + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p)) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

static json_t *artifact_location(const char *file)
{
	char *esc = uri_escape(file ? file : "");
	json_t *a;

	if (!esc)
		return NULL;
	if (file && file[0] == '/') {
		/* Outside the scanned root: an absolute file URI. */
		char *uri = malloc(strlen(esc) + sizeof "file://");

		if (!uri) {
			free(esc);
			return NULL;
		}
		strcpy(uri, "file://");
		strcat(uri, esc);
		a = json_pack("{s:s}", "uri", uri);
		free(uri);
	} else {
		a = json_pack("{s:s, s:s}", "uri", esc, "uriBaseId", SRCROOT);
	}
	free(esc);
	return a;
}

static json_t *physical_location(const char *file, int line, int column)
{
	json_t *p = json_object();

	json_object_set_new(p, "artifactLocation", artifact_location(file));
	if (line > 0) {
		json_t *region = json_pack("{s:i}", "startLine", line);

		if (column > 0)
			json_object_set_new(region, "startColumn", json_integer(column));
		json_object_set_new(p, "region", region);
	}
	return p;
}

/* A location object; ID >= 0 makes it a related location with an id. */
static json_t *location(const struct report_location *l, int id)
{
	json_t *o = json_object();

	if (id >= 0)
		json_object_set_new(o, "id", json_integer(id));
	json_object_set_new(o, "physicalLocation", physical_location(l->file, l->line, l->column));
	if (l->function)
		json_object_set_new(o, "logicalLocations", json_pack("[{s:o, s:s}]",
			"name", report_json_string(l->function), "kind", "function"));
	return o;
}

/* The rules: the known kinds present, in the order of known_rules, then
 * other kinds in order of first appearance. */
struct rules {
	const char **kinds;
	size_t n;
};

static size_t rule_index(const struct rules *rs, const char *kind)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->kinds[i], kind) == 0)
			return i;
	return (size_t)-1;
}

/* The kind of result I: the findings, then the absent ones. */
static const char *kind_at(const struct report *r, size_t i)
{
	const struct report_finding *f = i < r->nfindings ? &r->findings[i] : &r->absent[i - r->nfindings];

	return f->kind ? f->kind : "unknown";
}

static int collect_rules(const struct report *r, struct rules *rs)
{
	size_t n = r->nfindings + r->nabsent;

	rs->kinds = calloc(n + NKNOWN + 1, sizeof *rs->kinds);
	rs->n = 0;
	if (!rs->kinds)
		return -1;
	for (size_t k = 0; k < NKNOWN; k++)
		for (size_t i = 0; i < n; i++)
			if (strcmp(kind_at(r, i), known_rules[k].kind) == 0) {
				rs->kinds[rs->n++] = known_rules[k].kind;
				break;
			}
	for (size_t i = 0; i < n; i++)
		if (rule_index(rs, kind_at(r, i)) == (size_t)-1)
			rs->kinds[rs->n++] = kind_at(r, i);
	return 0;
}

static json_t *rule(const char *kind)
{
	for (size_t k = 0; k < NKNOWN; k++) {
		const struct rule_text *t = &known_rules[k];

		if (strcmp(kind, t->kind) == 0)
			return json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:[s, s]}}",
				"id", t->kind, "name", t->name,
				"shortDescription", "text", t->short_text,
				"fullDescription", "text", t->full_text,
				"help", "text", t->help,
				"defaultConfiguration", "level", t->level,
				"properties", "tags", "concurrency", "memory-ordering");
	}
	/* A kind newer than this table: still a valid rule. */
	return json_pack("{s:o, s:{s:s}, s:{s:s}}",
		"id", report_json_string(kind),
		"shortDescription", "text", "kcsan-scan finding",
		"defaultConfiguration", "level", "warning");
}

/*
 * Thread flows: which thread each location runs in, and in which order.
 * Thread 0 is the writer (publication side), thread 1 the reader; for a
 * data race without a flag, thread 0 makes the plain access and thread 1
 * the racing one.  Within a thread: the plain write or the barrier before
 * the publication, the flag read before the plain read.  Returns the
 * thread and sets *ORDER, or -1 for a location in no thread (a comment).
 */
static int thread_of(const struct report_finding *f, const struct report_location *l, int *order)
{
	const char *role = l->role ? l->role : "";
	int reader_plain = f->kind && strcmp(f->kind, "missing-acquire") == 0;
	int flagged = 0;

	for (int i = 0; i < report_primary(f); i++)
		flagged |= f->locs[i].role && (!strcmp(f->locs[i].role, "publish") || !strcmp(f->locs[i].role, "consume"));
	*order = 1;
	if (!strcmp(role, "publish")) {
		*order = 2;
		return 0;
	}
	if (!strcmp(role, "consume") || !strcmp(role, "barrier"))
		return !strcmp(role, "consume");
	/* (store buffering: each thread stores, then loads) */
	if (!strcmp(role, "store") || !strcmp(role, "other-store")) {
		*order = 1;
		return *role == 'o';
	}
	if (!strcmp(role, "load") || !strcmp(role, "other-load")) {
		*order = 2;
		return *role == 'o';
	}
	if (!strcmp(role, "plain-access")) {
		*order = reader_plain ? 2 : 1;
		return reader_plain;
	}
	if (!strcmp(role, "racing-access")) {
		if (!flagged)
			return 1;
		*order = reader_plain ? 1 : 2;
		return !reader_plain;
	}
	return -1;
}

/* A frame of an observed stack as a SARIF stackFrame. */
static json_t *stack(const struct report_frame *fr, int n)
{
	json_t *frames = json_array();

	for (int i = 0; i < n; i++) {
		json_t *loc = json_object();

		if (fr[i].file)
			json_object_set_new(loc, "physicalLocation", physical_location(fr[i].file, fr[i].line, 0));
		if (fr[i].function)
			json_object_set_new(loc, "logicalLocations", json_pack("[{s:o, s:s}]",
				"name", report_json_string(fr[i].function), "kind", "function"));
		json_array_append_new(frames, json_pack("{s:o}", "location", loc));
	}
	return json_pack("{s:o}", "frames", frames);
}

/* One codeFlow with a threadFlow per side; NULL when no location has a
 * thread.  A race seen only at run time carries its observed stacks. */
static json_t *code_flows(const struct report_finding *f)
{
	static const char *const names[2][2] = {
		{ "writer: the data access, then the publication", "reader: the flag read, then the data access" },
		{ "thread of the plain access", "thread of the racing access" },
	};
	int flagged = 0, dynamic_only = !(f->evidence & REPORT_EV_STATIC) && f->has_dynamic;
	json_t *threads = json_array();

	for (int i = 0; i < report_primary(f); i++)
		flagged |= f->locs[i].role && (!strcmp(f->locs[i].role, "publish") || !strcmp(f->locs[i].role, "consume"));
	for (int t = 0; t < 2; t++) {
		json_t *locs = json_array();

		for (int order = 1; order <= 2; order++)
			for (int i = 0; i < report_primary(f); i++) {
				const struct report_location *l = &f->locs[i];
				char *note;
				json_t *loc, *tfl;
				int o;

				if (thread_of(f, l, &o) != t || o != order)
					continue;
				loc = location(l, -1);
				note = report_location_note(f, l);
				json_object_set_new(loc, "message", json_pack("{s:o}", "text", report_json_string(note)));
				free(note);
				tfl = json_pack("{s:o}", "location", loc);
				if (dynamic_only && f->dyn.nframes[t] > 0)
					json_object_set_new(tfl, "stack", stack(f->dyn.stack[t], f->dyn.nframes[t]));
				json_array_append_new(locs, tfl);
			}
		if (json_array_size(locs) == 0) {
			json_decref(locs);
			continue;
		}
		json_array_append_new(threads, json_pack("{s:{s:s}, s:o}",
			"message", "text", names[!flagged][t], "locations", locs));
	}
	if (json_array_size(threads) == 0) {
		json_decref(threads);
		return NULL;
	}
	return json_pack("[{s:o}]", "threadFlows", threads);
}

static const char *baseline_state_name(enum report_baseline_state b)
{
	switch (b) {
	case REPORT_BASELINE_NEW: return "new";
	case REPORT_BASELINE_UNCHANGED: return "unchanged";
	case REPORT_BASELINE_ABSENT: return "absent";
	case REPORT_BASELINE_NONE: break;
	}
	return NULL;
}

/* SARIF's record of an inline suppression. */
static json_t *suppression(const struct report_suppression *s)
{
	json_t *loc = json_pack("{s:o}", "physicalLocation", physical_location(s->file, s->line, s->column));

	return json_pack("{s:s, s:s, s:o, s:s}", "kind", "inSource", "status", "accepted", "location", loc,
			 "justification", s->nkinds ? "kcsan-scan: ignore comment naming this kind"
						    : "kcsan-scan: ignore comment");
}

static json_t *result(const struct report *r, const struct report_finding *f, const struct rules *rs)
{
	const char *kind = f->kind ? f->kind : "unknown";
	json_t *o = json_object(), *props, *related, *flows;

	json_object_set_new(o, "ruleId", report_json_string(kind));
	json_object_set_new(o, "ruleIndex", json_integer((json_int_t)rule_index(rs, kind)));
	json_object_set_new(o, "level", json_string(level_name(f->severity)));
	json_object_set_new(o, "message", json_pack("{s:o}", "text",
		report_json_string(f->message && *f->message ? f->message : kind)));
	if (f->nlocs > 0)
		json_object_set_new(o, "locations", json_pack("[o]", location(&f->locs[0], -1)));
	if (f->nlocs > 1) {
		related = json_array();
		for (int i = 1; i < f->nlocs; i++) {
			json_t *l = location(&f->locs[i], i);

			json_object_set_new(l, "message", json_pack("{s:o}", "text",
				report_json_string(f->locs[i].role && *f->locs[i].role ? f->locs[i].role : "location")));
			json_array_append_new(related, l);
		}
		json_object_set_new(o, "relatedLocations", related);
	}
	json_object_set_new(o, "partialFingerprints", json_pack("{s:o}", "kcsanScan/v1",
		report_json_string(f->id ? f->id : "")));
	if ((flows = code_flows(f)))
		json_object_set_new(o, "codeFlows", flows);
	if (baseline_state_name(f->baseline))
		json_object_set_new(o, "baselineState", json_string(baseline_state_name(f->baseline)));
	if (f->suppressed_by >= 0)
		json_object_set_new(o, "suppressions",
				    json_pack("[o]", suppression(&r->suppressions[f->suppressed_by])));

	/* SARIF's rank (0 to 100): how sure the finding is. */
	json_object_set_new(o, "rank", json_real(f->confidence == REPORT_HIGH ? 90.0 :
						 f->confidence == REPORT_MEDIUM ? 50.0 : 10.0));
	props = json_object();
	json_object_set_new(props, "confidence", json_string(report_confidence_name(f->confidence)));
	json_object_set_new(props, "confidence_evidence", report_json_facts(f));
	json_object_set_new(props, "evidence", report_json_evidence(f->evidence));
	json_object_set_new(props, "variable", report_json_string(f->variable));
	json_object_set_new(props, "flag", report_json_string(f->flag));
	if (f->fix_suggestion)
		json_object_set_new(props, "fix", json_pack("{s:o, s:i, s:o}",
			"file", report_json_string(f->fix_file), "line", f->fix_line,
			"suggestion", report_json_string(f->fix_suggestion)));
	if (f->has_dynamic)
		json_object_set_new(props, "dynamic", report_json_dynamic(&f->dyn));
	json_object_set_new(o, "properties", props);
	return o;
}

/* "file:///root/" for run.originalUriBaseIds. */
static json_t *root_uri(const char *root)
{
	char *esc = uri_escape(root), *uri;
	size_t n;
	json_t *j;

	if (!esc)
		return NULL;
	n = strlen(esc);
	uri = malloc(n + sizeof "file:///" + 1);
	if (!uri) {
		free(esc);
		return NULL;
	}
	sprintf(uri, "file://%s%s%s", esc[0] == '/' ? "" : "/", esc,
		n && esc[n - 1] == '/' ? "" : "/");
	j = json_pack("{s:{s:s}}", SRCROOT, "uri", uri);
	free(uri);
	free(esc);
	return j;
}

int report_write_sarif(const struct report *r, FILE *out)
{
	struct rules rs;
	json_t *rules, *results, *run, *doc;

	if (collect_rules(r, &rs) < 0)
		return -1;
	rules = json_array();
	for (size_t i = 0; i < rs.n; i++)
		json_array_append_new(rules, rule(rs.kinds[i]));
	results = json_array();
	/* Every finding (suppressed and unchanged ones too: SARIF marks them),
	 * but none less sure than --min-confidence asks. */
	for (size_t i = 0; i < r->nfindings; i++)
		if (r->findings[i].confidence >= r->min_confidence)
			json_array_append_new(results, result(r, &r->findings[i], &rs));
	for (size_t i = 0; i < r->nabsent; i++)
		if (r->absent[i].confidence >= r->min_confidence)
			json_array_append_new(results, result(r, &r->absent[i], &rs));
	free(rs.kinds);

	run = json_pack("{s:{s:{s:s, s:s, s:s, s:o}}}",
		"tool", "driver", "name", "kcsan-scan", "version", KCSAN_VERSION,
		"semanticVersion", KCSAN_VERSION, "rules", rules);
	if (run && r->root)
		json_object_set_new(run, "originalUriBaseIds", root_uri(r->root));
	if (run)
		json_object_set_new(run, "results", results);
	else
		json_decref(results);
	doc = json_pack("{s:s, s:s, s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0",
			"runs", run);
	return report_json_dump(doc, out);
}
