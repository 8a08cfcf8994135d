/* cli/report_load.c — fills the report model (report.h) from a database:
 * static findings with their locations, the races that confirm them (rows
 * of race_evidence, and races with a side at a finding's plain access:
 * same file, same line, joined here so that a read-only database and a
 * scan made after the run both work), the races that no static finding
 * explains, and the deterministic order of
 * docs/design.md §7.  Reads everything inside one read transaction so that a runtime
 * writing at the same time cannot give a half-joined report. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "races.h"                  /* kdb_path_normalize */
#include "analyzer/model/facts.h"   /* xcalloc and friends */
#include "analyzer/model/paths.h"
#include "analyzer/model/hashmap.h"   /* hash_text */

/* Column I of the current row as a new string, NULL for SQL NULL. */
static char *col_text(sqlite3_stmt *st, int i)
{
	return xstrdup((const char *)sqlite3_column_text(st, i));
}

/* PATH relative to ROOT when it lies under it, else PATH; a new string. */
static char *relative(const char *path, const char *root)
{
	const char *in;
	char *norm, *out;

	if (!path)
		return NULL;
	/* Normalised first: a runtime older than kdb_path_normalize recorded
	 * DWARF's names as they were ('src/../include/x.h'), which neither
	 * lie under ROOT as written nor read well. */
	norm = xstrdup(path);
	kdb_path_normalize(norm);
	in = path_in_tree(norm, root);
	out = xstrdup(in ? in : norm);
	free(norm);
	return out;
}

static enum report_severity severity_of(const char *name)
{
	enum report_severity s;

	/* The scanner writes only the three names; anything else is shown as
	 * a warning, SARIF's default level, rather than dropped. */
	if (!name || report_parse_severity(name, &s) < 0)
		return REPORT_WARNING;
	return s;
}

struct loader;
static int step_error(struct loader *ld, const char *what);

/* Where the two sides of one race are (for the join by location). */
struct race_site {
	long long id;
	char *file[2];          /* normalised absolute path, or as recorded */
	int line[2];
	char *access[2];        /* read | write | rmw */
	int linked;             /* has race_evidence rows: those decide alone */
	int joined;             /* explains some static finding */
};

struct loader {
	sqlite3 *db;
	struct report *r;
	size_t cap;
	char *err;
	size_t errlen;
	struct race_site *races;
	size_t nraces;
	long long *seen;        /* races already joined to the current finding */
	size_t nseen;
	sqlite3_stmt *frames;   /* a race's stack frames (load_frames) */
};


/* FILE (as the scan or the runtime wrote it) made absolute against ROOT
 * and normalised; a new string. */
static char *canonical(const char *file, const char *root)
{
	char *s;

	if (!file)
		return NULL;
	s = file[0] == '/' || !root ? xstrdup(file) : xasprintf("%s/%s", root, file);
	kdb_path_normalize(s);
	return s;
}

/* Same source file?  Equal canonical paths; a relative path that the
 * runtime could not anchor matches the end of the other on a '/'. */
static int same_file(const char *a, const char *b)
{
	size_t la, lb;

	if (!a || !b)
		return 0;
	if (strcmp(a, b) == 0)
		return 1;
	la = strlen(a);
	lb = strlen(b);
	if (b[0] != '/' && la > lb && a[la - lb - 1] == '/' && strcmp(a + la - lb, b) == 0)
		return 1;
	if (a[0] != '/' && lb > la && b[lb - la - 1] == '/' && strcmp(b + lb - la, a) == 0)
		return 1;
	return 0;
}

/* Reads where every race happened, for join_races(). */
static int load_race_sites(struct loader *ld)
{
	sqlite3_stmt *st = kdb_prepare(ld->db, "SELECT id, a_file, a_line, b_file, b_line, a_access, b_access,"
		" EXISTS (SELECT 1 FROM race_evidence e WHERE e.race_id = races.id)"
		" FROM races ORDER BY id");
	size_t cap = 0;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct race_site *r;

		if (ld->nraces == cap) {
			cap = cap ? 2 * cap : 16;
			ld->races = xrealloc(ld->races, cap * sizeof *ld->races);
		}
		r = &ld->races[ld->nraces++];
		memset(r, 0, sizeof *r);
		r->id = sqlite3_column_int64(st, 0);
		for (int i = 0; i < 2; i++) {
			r->file[i] = canonical((const char *)sqlite3_column_text(st, 1 + 2 * i), NULL);
			r->line[i] = sqlite3_column_int(st, 2 + 2 * i);
			r->access[i] = col_text(st, 5 + i);
		}
		r->linked = sqlite3_column_int(st, 7);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : step_error(ld, "races");
}

static void free_race_sites(struct loader *ld)
{
	for (size_t i = 0; i < ld->nraces; i++) {
		for (int j = 0; j < 2; j++) {
			free(ld->races[i].file[j]);
			free(ld->races[i].access[j]);
		}
	}
	free(ld->races);
}

static int seen_race(const struct loader *ld, long long id)
{
	for (size_t i = 0; i < ld->nseen; i++)
		if (ld->seen[i] == id)
			return 1;
	return 0;
}

static void see_race(struct loader *ld, long long id)
{
	ld->seen = xrealloc(ld->seen, (ld->nseen + 1) * sizeof *ld->seen);
	ld->seen[ld->nseen++] = id;
}

/* A static access kind and a recorded one agree (rmw: either). */
static int same_access(const char *stat, const char *dyn)
{
	if (!stat || !dyn || !strcmp(stat, "rmw") || !strcmp(dyn, "rmw"))
		return 1;
	return strcmp(stat, dyn) == 0;
}

static int race_joined(const struct loader *ld, long long id)
{
	for (size_t i = 0; i < ld->nraces; i++)
		if (ld->races[i].id == id)
			return ld->races[i].joined;
	return 0;
}

static struct report_finding *new_finding(struct loader *ld)
{
	struct report *r = ld->r;

	if (r->nfindings == ld->cap) {
		ld->cap = ld->cap ? 2 * ld->cap : 16;
		r->findings = xrealloc(r->findings, ld->cap * sizeof *r->findings);
	}
	memset(&r->findings[r->nfindings], 0, sizeof r->findings[0]);
	r->findings[r->nfindings].suppressed_by = -1;
	return &r->findings[r->nfindings++];
}

static struct report_location *new_location(struct report_finding *f)
{
	f->locs = xrealloc(f->locs, (size_t)(f->nlocs + 1) * sizeof *f->locs);
	memset(&f->locs[f->nlocs], 0, sizeof f->locs[0]);
	return &f->locs[f->nlocs++];
}

static int step_error(struct loader *ld, const char *what)
{
	snprintf(ld->err, ld->errlen, "cannot read %s from the database: %s", what,
		 sqlite3_errmsg(ld->db));
	return -1;
}

/* The stack frames of both sides of race RACE_ID (race_frames, written by
 * the runtime through db/races.c) into STACK[side] and NFRAMES[side], each
 * innermost first, paths relative to the root.  A side the runtime did not
 * know has none. */
static int load_frames(struct loader *ld, long long race_id, struct report_frame **stack, int *nframes)
{
	sqlite3_stmt *st = ld->frames;
	int cap[2] = { 0, 0 }, rc;

	stack[0] = stack[1] = NULL;
	nframes[0] = nframes[1] = 0;
	sqlite3_bind_int64(st, 1, race_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *side = (const char *)sqlite3_column_text(st, 0);
		int s = side && strcmp(side, "b") == 0, line = sqlite3_column_int(st, 3);
		struct report_frame *fr;

		if (nframes[s] == cap[s]) {
			cap[s] = cap[s] ? 2 * cap[s] : 8;
			stack[s] = xrealloc(stack[s], (size_t)cap[s] * sizeof *stack[s]);
		}
		fr = &stack[s][nframes[s]++];
		fr->function = col_text(st, 1);
		fr->file = relative((const char *)sqlite3_column_text(st, 2), ld->r->root);
		fr->line = line > 0 ? line : 0;
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : step_error(ld, "race frames");
}

/* Adds one race (columns as selected by RACE_COLUMNS from C) to dynamic
 * data D; the first race added gives the stacks. */
#define RACE_COLUMNS "r.observations, r.reordered, r.first_seen, r.id"
static int add_race(struct loader *ld, struct report_dynamic *d, int first, sqlite3_stmt *st, int c)
{
	const char *seen = (const char *)sqlite3_column_text(st, c + 2);

	d->observations += sqlite3_column_int64(st, c);
	d->reordered |= sqlite3_column_int(st, c + 1) != 0;
	if (seen && (!d->first_seen || strcmp(seen, d->first_seen) < 0)) {
		free(d->first_seen);
		d->first_seen = xstrdup(seen);
	}
	if (first)
		return load_frames(ld, sqlite3_column_int64(st, c + 3), d->stack, d->nframes);
	return 0;
}

/* Is side SIDE of race R at location L (file, line, kind of access)?
 * FILE is L's file made canonical. */
static int side_at(const struct race_site *r, int side, const struct report_location *l, const char *file)
{
	return r->line[side] == l->line && same_access(l->access, r->access[side]) && same_file(file, r->file[side]);
}

/* The location of F with ROLE, or NULL. */
static const struct report_location *location_of(const struct report_finding *f, const char *role)
{
	for (int j = 0; j < f->nlocs; j++)
		if (f->locs[j].role && strcmp(f->locs[j].role, role) == 0 && f->locs[j].file)
			return &f->locs[j];
	return NULL;
}

/*
 * The join by the access pair: a race confirms static finding F when one
 * of its sides is at F's plain access and the other at F's racing access
 * (same file, same line, same kind of access), so that a race between
 * other accesses on that line (a write-write race beside a missing
 * acquire) confirms nothing.  A finding that names no racing access is
 * joined by its plain access alone, and says so (report_dynamic.matched).
 * A race with race_evidence rows is joined by those only.  ONE selects a
 * race's RACE_COLUMNS by id.
 */
static int join_races(struct loader *ld, struct report_finding *f, sqlite3_stmt *one)
{
	const struct report_location *p = location_of(f, "plain-access"), *x = location_of(f, "racing-access");
	char *pfile, *xfile;

	if (!p)
		return 0;
	pfile = canonical(p->file, ld->r->root);
	xfile = x ? canonical(x->file, ld->r->root) : NULL;
	for (size_t i = 0; i < ld->nraces; i++) {
		struct race_site *r = &ld->races[i];
		int rc, hit = 0;

		if (r->linked)
			continue;
		for (int side = 0; side < 2; side++)
			hit |= side_at(r, side, p, pfile) && (!x || side_at(r, 1 - side, x, xfile));
		if (!hit || seen_race(ld, r->id))
			continue;
		sqlite3_bind_int64(one, 1, r->id);
		if ((rc = sqlite3_step(one)) == SQLITE_ROW) {
			if (add_race(ld, &f->dyn, !f->has_dynamic, one, 0) < 0) {
				sqlite3_reset(one);
				free(pfile);
				free(xfile);
				return -1;
			}
			if (!f->dyn.matched)
				f->dyn.matched = x ? "access pair" : "plain access";
			f->has_dynamic = 1;
			f->evidence |= REPORT_EV_DYNAMIC;
		}
		sqlite3_reset(one);
		if (rc != SQLITE_ROW) {
			free(pfile);
			free(xfile);
			return step_error(ld, "races");
		}
		r->joined = 1;
		see_race(ld, r->id);
	}
	free(pfile);
	free(xfile);
	return 0;
}

static void add_fact(struct report_finding *f, char *fact)
{
	f->facts = xrealloc(f->facts, (size_t)(f->nfacts + 1) * sizeof *f->facts);
	f->facts[f->nfacts++] = fact;
}

/* Reads finding FID's evidence (ES) and other pairings (PS) into F, whose
 * locations are loaded.  A part naming locations F lacks is cut to those
 * it has (a database edited by hand must not make the writers read past
 * the array). */
static int load_parts_and_facts(struct loader *ld, struct report_finding *f, long long fid,
				sqlite3_stmt *ps, sqlite3_stmt *es)
{
	int rc;

	f->nprimary = f->nlocs;
	sqlite3_bind_int64(ps, 1, fid);
	while ((rc = sqlite3_step(ps)) == SQLITE_ROW) {
		struct report_part *p;
		int first = sqlite3_column_int(ps, 3), n = sqlite3_column_int(ps, 4);

		if (first < 0 || first > f->nlocs)
			first = f->nlocs;
		if (n < 0 || n > f->nlocs - first)
			n = f->nlocs - first;
		if (f->nparts == 0)
			f->nprimary = first;
		f->parts = xrealloc(f->parts, (size_t)(f->nparts + 1) * sizeof *f->parts);
		p = &f->parts[f->nparts++];
		p->kind = col_text(ps, 0);
		p->flag = col_text(ps, 1);
		p->message = col_text(ps, 2);
		p->first_loc = first;
		p->nlocs = n;
	}
	sqlite3_reset(ps);
	if (rc != SQLITE_DONE)
		return step_error(ld, "finding parts");
	sqlite3_bind_int64(es, 1, fid);
	while ((rc = sqlite3_step(es)) == SQLITE_ROW)
		add_fact(f, col_text(es, 0));
	sqlite3_reset(es);
	return rc == SQLITE_DONE ? 0 : step_error(ld, "finding evidence");
}

/* A race seen at run time is the surest evidence there is. */
static void observed(struct report_finding *f)
{
	f->confidence = REPORT_HIGH;
	f->severity = REPORT_ERROR;
	add_fact(f, xstrdup("observed at run time"));
}

static int load_static(struct loader *ld)
{
	sqlite3_stmt *fs = kdb_prepare(ld->db,
		"SELECT id, fingerprint, kind, severity, message, variable, flag,"
		" fix_file, fix_line, fix_suggestion, confidence, strength FROM findings ORDER BY id");
	sqlite3_stmt *ps = kdb_prepare(ld->db,
		"SELECT kind, flag, message, first_seq, nlocs FROM finding_parts"
		" WHERE finding_id = ?1 ORDER BY part");
	sqlite3_stmt *es = kdb_prepare(ld->db,
		"SELECT fact FROM finding_evidence WHERE finding_id = ?1 ORDER BY seq");
	sqlite3_stmt *ls = kdb_prepare(ld->db,
		"SELECT role, file, line, col, function, access, marked"
		" FROM finding_locations WHERE finding_id = ?1 ORDER BY seq");
	sqlite3_stmt *rs = kdb_prepare(ld->db,
		"SELECT " RACE_COLUMNS " FROM race_evidence e JOIN races r ON r.id = e.race_id"
		" WHERE e.finding_id = ?1 ORDER BY r.first_seen, r.id");
	sqlite3_stmt *one = kdb_prepare(ld->db, "SELECT " RACE_COLUMNS " FROM races r WHERE r.id = ?1");
	int rc, status = 0;

	while ((rc = sqlite3_step(fs)) == SQLITE_ROW) {
		struct report_finding *f = new_finding(ld);
		long long fid = sqlite3_column_int64(fs, 0);

		f->id = col_text(fs, 1);
		f->kind = col_text(fs, 2);
		f->severity = severity_of((const char *)sqlite3_column_text(fs, 3));
		f->evidence = REPORT_EV_STATIC;
		f->message = col_text(fs, 4);
		f->variable = col_text(fs, 5);
		f->flag = col_text(fs, 6);
		if (sqlite3_column_type(fs, 9) != SQLITE_NULL) {
			f->fix_file = col_text(fs, 7);
			f->fix_line = sqlite3_column_int(fs, 8);
			f->fix_suggestion = col_text(fs, 9);
		}
		if (report_parse_confidence((const char *)sqlite3_column_text(fs, 10), &f->confidence) < 0)
			f->confidence = REPORT_LOW;
		f->strength = sqlite3_column_int(fs, 11);

		sqlite3_bind_int64(ls, 1, fid);
		while ((rc = sqlite3_step(ls)) == SQLITE_ROW) {
			struct report_location *l = new_location(f);

			l->role = col_text(ls, 0);
			l->file = col_text(ls, 1);
			l->line = sqlite3_column_int(ls, 2);
			l->column = sqlite3_column_int(ls, 3);
			l->function = col_text(ls, 4);
			l->access = col_text(ls, 5);
			l->marked = sqlite3_column_int(ls, 6) != 0;
		}
		sqlite3_reset(ls);
		if (rc != SQLITE_DONE) {
			status = step_error(ld, "finding locations");
			break;
		}

		ld->nseen = 0;
		sqlite3_bind_int64(rs, 1, fid);
		while ((rc = sqlite3_step(rs)) == SQLITE_ROW) {
			see_race(ld, sqlite3_column_int64(rs, 3));
			if (add_race(ld, &f->dyn, !f->has_dynamic, rs, 0) < 0)
				break;
			f->dyn.matched = "recorded";
			f->has_dynamic = 1;
			f->evidence |= REPORT_EV_DYNAMIC;
		}
		sqlite3_reset(rs);
		if (rc == SQLITE_ROW) {
			status = -1;    /* add_race said why */
			break;
		}
		if (rc != SQLITE_DONE) {
			status = step_error(ld, "races");
			break;
		}
		if (join_races(ld, f, one) < 0) {
			status = -1;
			break;
		}
		if ((status = load_parts_and_facts(ld, f, fid, ps, es)) < 0)
			break;
		if (f->has_dynamic)
			observed(f);
	}
	if (status == 0 && rc != SQLITE_DONE)
		status = step_error(ld, "findings");
	sqlite3_finalize(fs);
	sqlite3_finalize(ls);
	sqlite3_finalize(rs);
	sqlite3_finalize(one);
	sqlite3_finalize(ps);
	sqlite3_finalize(es);
	return status;
}

/* Location of one side (columns FUNCTION, FILE, LINE, ACCESS, MARKED from C). */
static void race_location(struct report_finding *f, sqlite3_stmt *st, int c, const char *role,
			  const char *root)
{
	struct report_location *l;

	if (sqlite3_column_type(st, c + 1) == SQLITE_NULL)
		return;
	l = new_location(f);
	l->role = xstrdup(role);
	l->function = col_text(st, c);
	l->file = relative((const char *)sqlite3_column_text(st, c + 1), root);
	l->line = sqlite3_column_int(st, c + 2);
	l->column = 0;
	l->access = col_text(st, c + 3);
	l->marked = sqlite3_column_int(st, c + 4) != 0;
}

static char *race_message(const struct report_finding *f, int reordered)
{
	const struct report_location *a = f->nlocs > 0 ? &f->locs[0] : NULL;
	const struct report_location *b = f->nlocs > 1 ? &f->locs[1] : NULL;
	char *what = f->variable ? xasprintf("'%s'", f->variable) : xstrdup("an unnamed object");
	char *side_a = NULL, *side_b = NULL, *msg;

	if (a)
		side_a = xasprintf("%s%s%s%s", a->marked ? "marked " : "plain ",
				   a->access && strcmp(a->access, "none") ? a->access : "access",
				   a->function ? " in " : "", a->function ? a->function : "");
	if (b)
		side_b = xasprintf("%s%s%s%s", b->marked ? "marked " : "plain ",
				   b->access && strcmp(b->access, "none") ? b->access : "access",
				   b->function ? " in " : "", b->function ? b->function : "");
	if (side_a && side_b)
		msg = xasprintf("data race on %s observed at run time: %s%s%s races with %s%s",
				what, side_a, a->function ? "()" : "", reordered ? " (reordered)" : "",
				side_b, b->function ? "()" : "");
	else
		msg = xasprintf("data race on %s observed at run time%s", what,
				reordered ? " (reordered)" : "");
	free(what);
	free(side_a);
	free(side_b);
	return msg;
}

/* The id of a race seen only at run time.  The runtime's fingerprint
 * hashes the absolute paths it saw; the id is made again from the paths
 * relative to the scanned root, so that it does not depend on where the
 * tree was checked out: kind, object and the two sides (function, file,
 * line, access, marked) in either order, and a counter for two races that
 * agree on all of that (lines unknown). */
static char *dynamic_id(struct loader *ld, const struct report_finding *f, size_t first_dynamic)
{
	char *side[2] = { NULL, NULL }, *key, hex[17];

	for (int i = 0; i < 2; i++) {
		const struct report_location *l = i < f->nlocs ? &f->locs[i] : NULL;

		side[i] = l ? xasprintf("%s|%s|%d|%s|%d", l->function ? l->function : "", l->file ? l->file : "",
					l->line, l->access ? l->access : "", l->marked)
			    : xstrdup("");
	}
	if (strcmp(side[0], side[1]) > 0) {
		char *t = side[0];

		side[0] = side[1];
		side[1] = t;
	}
	key = xasprintf("dynamic|%s|%s|%s|%s", f->kind ? f->kind : "", f->variable ? f->variable : "",
			side[0], side[1]);
	hash_text(key, strlen(key), hex);
	for (int dup = 1;; dup++) {
		size_t i;

		for (i = first_dynamic; i < ld->r->nfindings; i++)
			if (ld->r->findings[i].id && strcmp(ld->r->findings[i].id, hex) == 0)
				break;
		if (i == ld->r->nfindings)
			break;
		free(key);
		key = xasprintf("dynamic|%s|%s|%s|%s#%d", f->kind ? f->kind : "", f->variable ? f->variable : "",
				side[0], side[1], dup);
		hash_text(key, strlen(key), hex);
	}
	free(key);
	free(side[0]);
	free(side[1]);
	return xstrdup(hex);
}

/* Races that no race_evidence row joins to a static finding. */
static int load_dynamic_only(struct loader *ld)
{
	sqlite3_stmt *st = kdb_prepare(ld->db,
		"SELECT NULL, r.kind, r.object,"
		" r.a_function, r.a_file, r.a_line, r.a_access, r.a_marked,"
		" r.b_function, r.b_file, r.b_line, r.b_access, r.b_marked, " RACE_COLUMNS
		" FROM races r WHERE NOT EXISTS (SELECT 1 FROM race_evidence e WHERE e.race_id = r.id)"
		" ORDER BY r.id");
	size_t first_dynamic = ld->r->nfindings;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_finding *f;

		if (race_joined(ld, sqlite3_column_int64(st, 16)))
			continue;       /* confirms a static finding */
		f = new_finding(ld);
		f->kind = col_text(st, 1);
		f->severity = REPORT_ERROR;
		f->evidence = REPORT_EV_DYNAMIC;
		f->variable = col_text(st, 2);
		race_location(f, st, 3, "plain-access", ld->r->root);
		race_location(f, st, 8, "racing-access", ld->r->root);
		if (add_race(ld, &f->dyn, 1, st, 13) < 0)
			break;
		f->has_dynamic = 1;
		f->nprimary = f->nlocs;
		observed(f);
		f->message = race_message(f, f->dyn.reordered);
		f->id = dynamic_id(ld, f, first_dynamic);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return -1;      /* add_race said why */
	return rc == SQLITE_DONE ? 0 : step_error(ld, "races");
}

/* The inline suppressions the latest scan read, paths as in locations. */
static int load_suppressions(struct loader *ld)
{
	struct report *r = ld->r;
	sqlite3_stmt *st = kdb_prepare(ld->db,
		"SELECT f.path, s.line, s.col, s.kind FROM suppressions s JOIN files f ON f.id = s.file_id"
		" ORDER BY f.path, s.line, s.col, s.kind");
	size_t cap = 0;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *file = relative((const char *)sqlite3_column_text(st, 0), r->root);
		int line = sqlite3_column_int(st, 1), col = sqlite3_column_int(st, 2);
		const char *kind = (const char *)sqlite3_column_text(st, 3);
		struct report_suppression *s = r->nsuppressions ? &r->suppressions[r->nsuppressions - 1] : NULL;

		/* One row per kind named: rows of one comment share a place. */
		if (!s || s->line != line || s->column != col || strcmp(s->file, file) != 0) {
			if (r->nsuppressions == cap) {
				cap = cap ? 2 * cap : 16;
				r->suppressions = xrealloc(r->suppressions, cap * sizeof *r->suppressions);
			}
			s = &r->suppressions[r->nsuppressions++];
			memset(s, 0, sizeof *s);
			s->file = file;
			s->line = line;
			s->column = col;
		} else {
			free(file);
		}
		if (kind) {
			s->kinds = xrealloc(s->kinds, (size_t)(s->nkinds + 1) * sizeof *s->kinds);
			s->kinds[s->nkinds++] = xstrdup(kind);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : step_error(ld, "suppressions");
}

/* Does suppression S cover finding F: a location of F on the marker's
 * line or on the line below it, and F's kind named (or none named)? */
static int suppresses(const struct report_suppression *s, const struct report_finding *f,
		      const char *root)
{
	int kind_ok = s->nkinds == 0, hit = 0;
	char *sfile;

	for (int k = 0; k < s->nkinds && !kind_ok; k++)
		kind_ok = f->kind && strcmp(s->kinds[k], f->kind) == 0;
	if (!kind_ok)
		return 0;
	sfile = canonical(s->file, root);
	for (int i = 0; i < f->nlocs && !hit; i++) {
		const struct report_location *l = &f->locs[i];
		char *lfile;

		if (!l->file || (l->line != s->line && l->line != s->line + 1))
			continue;
		lfile = canonical(l->file, root);
		hit = same_file(lfile, sfile);
		free(lfile);
	}
	free(sfile);
	return hit;
}

/* "kcsan-scan: ignore" or "kcsan-scan: ignore(a, b)"; a new string. */
static char *suppression_text(const struct report_suppression *s)
{
	char *text = xstrdup("kcsan-scan: ignore");

	for (int k = 0; k < s->nkinds; k++) {
		char *more = xasprintf("%s%s%s%s", text, k ? ", " : "(", s->kinds[k],
				       k + 1 == s->nkinds ? ")" : "");

		free(text);
		text = more;
	}
	return text;
}

/* Marks the suppressed findings, then reports every suppression that
 * covers nothing as a note of its own, so that stale ones get removed.
 * The note's id survives line shifts: file, text and how many identical
 * comments came before it in that file. */
static void apply_suppressions(struct loader *ld)
{
	struct report *r = ld->r;
	size_t nstatic = r->nfindings;

	for (size_t i = 0; i < nstatic; i++)
		for (size_t k = 0; k < r->nsuppressions; k++)
			if (suppresses(&r->suppressions[k], &r->findings[i], r->root)) {
				r->findings[i].suppressed_by = (int)k;
				r->suppressions[k].used = 1;
				break;
			}
	char **texts = xcalloc(r->nsuppressions, sizeof *texts);

	for (size_t k = 0; k < r->nsuppressions; k++)
		texts[k] = suppression_text(&r->suppressions[k]);
	for (size_t k = 0; k < r->nsuppressions; k++) {
		const struct report_suppression *s = &r->suppressions[k];
		const char *text = texts[k];
		struct report_finding *f;
		struct report_location *l;
		char *key, hex[17];
		int same = 0;

		if (s->used)
			continue;
		for (size_t j = 0; j < k; j++)
			same += strcmp(r->suppressions[j].file, s->file) == 0 && strcmp(texts[j], text) == 0;
		key = xasprintf("unused-suppression|%s|%s|%d", s->file, text, same);
		hash_text(key, strlen(key), hex);
		free(key);
		f = new_finding(ld);
		f->id = xstrdup(hex);
		f->kind = xstrdup("unused-suppression");
		f->severity = REPORT_NOTE;
		f->evidence = REPORT_EV_STATIC;
		f->message = xasprintf("'%s' suppresses no finding; remove it", text);
		l = new_location(f);
		l->role = xstrdup("suppression");
		l->file = xstrdup(s->file);
		l->line = s->line;
		l->column = s->column;
	}
	for (size_t k = 0; k < r->nsuppressions; k++)
		free(texts[k]);
	free(texts);
}

/* The latest scan, and whether any scan ever finished. */
static int load_scan_state(struct loader *ld)
{
	sqlite3_stmt *st = kdb_prepare(ld->db,
		"SELECT root, status, started_at, EXISTS (SELECT 1 FROM scans WHERE status <> 'running')"
		" FROM scans ORDER BY id DESC LIMIT 1");
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		ld->r->root = col_text(st, 0);
		if (strcmp((const char *)sqlite3_column_text(st, 1), "running") == 0)
			ld->r->unfinished_scan = col_text(st, 2);
		ld->r->any_scan_finished = sqlite3_column_int(st, 3);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : step_error(ld, "scans");
}

static int compare_findings(const void *pa, const void *pb)
{
	const struct report_finding *a = pa, *b = pb;
	const char *fa = a->nlocs ? a->locs[0].file : "", *fb = b->nlocs ? b->locs[0].file : "";
	int la = a->nlocs ? a->locs[0].line : 0, lb = b->nlocs ? b->locs[0].line : 0;
	int c;

	/* Surest first (docs/design.md §7): confidence, then the strength
	 * of the evidence (dynamic and static together first), then
	 * severity, then the place. */
	if (a->confidence != b->confidence)
		return a->confidence > b->confidence ? -1 : 1;
	c = report_evidence_rank(a->evidence) - report_evidence_rank(b->evidence);
	if (c)
		return c;
	if (a->strength != b->strength)
		return a->strength > b->strength ? -1 : 1;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	if ((c = strcmp(fa ? fa : "", fb ? fb : "")))
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	if ((c = strcmp(a->kind ? a->kind : "", b->kind ? b->kind : "")))
		return c;
	return strcmp(a->id ? a->id : "", b->id ? b->id : "");
}

int report_load(sqlite3 *db, struct report *r, char *err, size_t errlen)
{
	struct loader ld = { .db = db, .r = r, .err = err, .errlen = errlen };
	int status;

	memset(r, 0, sizeof *r);
	if (kdb_exec(db, "BEGIN", err, errlen) < 0)
		return -1;
	ld.frames = kdb_prepare(db, "SELECT side, function, file, line FROM race_frames"
				" WHERE race_id = ?1 ORDER BY side, depth");
	status = load_scan_state(&ld);
	if (status == 0)
		status = load_race_sites(&ld);
	if (status == 0)
		status = load_static(&ld);
	if (status == 0)
		status = load_dynamic_only(&ld);
	if (status == 0)
		status = load_suppressions(&ld);
	if (status == 0)
		apply_suppressions(&ld);
	free_race_sites(&ld);
	free(ld.seen);
	sqlite3_finalize(ld.frames);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (status < 0) {
		report_free(r);
		return -1;
	}
	if (r->nfindings > 1)
		qsort(r->findings, r->nfindings, sizeof *r->findings, compare_findings);
	report_count(r);
	return 0;
}

static void free_frames(struct report_frame *fr, int n)
{
	for (int i = 0; i < n; i++) {
		free(fr[i].function);
		free(fr[i].file);
	}
	free(fr);
}

/* Frees the findings F[0..N). */
void report_free_findings(struct report_finding *fs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct report_finding *f = &fs[i];

		for (int j = 0; j < f->nlocs; j++) {
			free(f->locs[j].role);
			free(f->locs[j].file);
			free(f->locs[j].function);
			free(f->locs[j].access);
		}
		free(f->locs);
		for (int j = 0; j < f->nparts; j++) {
			free(f->parts[j].kind);
			free(f->parts[j].flag);
			free(f->parts[j].message);
		}
		free(f->parts);
		for (int j = 0; j < f->nfacts; j++)
			free(f->facts[j]);
		free(f->facts);
		free(f->id);
		free(f->kind);
		free(f->message);
		free(f->variable);
		free(f->flag);
		free(f->fix_file);
		free(f->fix_suggestion);
		free(f->dyn.first_seen);
		free_frames(f->dyn.stack[0], f->dyn.nframes[0]);
		free_frames(f->dyn.stack[1], f->dyn.nframes[1]);
	}
	free(fs);
}

void report_free(struct report *r)
{
	report_free_findings(r->findings, r->nfindings);
	report_free_findings(r->absent, r->nabsent);
	for (size_t k = 0; k < r->nsuppressions; k++) {
		for (int i = 0; i < r->suppressions[k].nkinds; i++)
			free(r->suppressions[k].kinds[i]);
		free(r->suppressions[k].kinds);
		free(r->suppressions[k].file);
	}
	free(r->suppressions);
	free(r->root);
	free(r->unfinished_scan);
	memset(r, 0, sizeof *r);
}
