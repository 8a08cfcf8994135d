/* analyzer/findings/sites.c — grouping pairings by site, ranking them, and
 * storing one finding per site (sites.h). */
#include "sites.h"
#include "evidence.h"
#include "pairing.h"
#include "analyzer/model/hashmap.h"
#include "analyzer/model/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The pairings of one site, in the order they were found until ranked. */
struct site {
	struct pairing *v;
	int n, cap;
};

struct sites {
	struct site *v;
	int n, cap;
	struct hashmap index;      /* site key -> 1 + its position in v */
	char **keys;               /* the keys, owned (the map borrows them) */
	int keycap;
};

struct sites *sites_new(void)
{
	return xcalloc(1, sizeof(struct sites));
}

/* What makes two pairings one site: the same access (place, kind of
 * access and object) whatever the function that reached it through a call,
 * and whatever program it runs in (a harness header's line is one site
 * for all the programs that include it).  A plain access made by a
 * library function (memcpy of a struct: each field it copies is an
 * access of its own, profiles' src=N) is one site whatever the object:
 * one call, one finding. */
static char *site_key(const struct event *e)
{
	char *object = e->name && !e->marked ? NULL : object_unscoped(e->object);
	char *key = xasprintf("%s\x1f%d\x1f%d\x1f%d\x1f%s", e->file ? e->file : "", e->line, e->col,
			      (int)e->access, object ? object : "");

	free(object);
	return key;
}

void sites_add(struct sites *s, const struct pairing *p)
{
	char *key = site_key(p->locs[0].e);
	intptr_t *slot = hashmap_get_str(&s->index, key);
	struct site *site;

	if (!slot) {
		grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
		grow(&s->keys, &s->keycap, s->n + 1, sizeof *s->keys);
		s->keys[s->n] = key;
		memset(&s->v[s->n], 0, sizeof s->v[s->n]);
		slot = hashmap_put_str(&s->index, key, NULL);
		*slot = ++s->n;
	} else {
		free(key);
	}
	site = &s->v[*slot - 1];
	grow(&site->v, &site->cap, site->n + 1, sizeof *site->v);
	site->v[site->n] = *p;
	site->v[site->n].order = site->n;
	site->n++;
}

static const char *rel(const char *path, const char *root)
{
	const char *in = path_in_tree(path, root);

	return in ? in : path ? path : "?";
}

static const char *access_name(const struct event *e)
{
	return e->access == ACC_WRITE ? "write" : e->access == ACC_RMW ? "rmw" :
	       e->access == ACC_READ ? "read" : "none";
}

static const char *name_of(const struct event *e)
{
	return e->display ? e->display : e->object;
}

/* TEXT with every "ROOT/" taken out, in place.  Object keys carry absolute
 * paths inside them (a file static's USR "c:/home/me/src/a.c@flag", a
 * private local's "l:/home/me/src/a.c:fn:v"): an id made of them would
 * change when the same tree is checked out elsewhere. */
static void strip_root(char *text, const char *root)
{
	size_t n = strlen(root);
	char *in = text, *out = text, *hit;

	if (n == 0 || strcmp(root, "/") == 0)
		return;
	while ((hit = strstr(in, root)) != NULL) {
		size_t keep = (size_t)(hit - in);

		memmove(out, in, keep);
		out += keep;
		if (hit[n] == '/') {
			in = hit + n + 1;
		} else {
			*out++ = *hit;
			in = hit + 1;
		}
	}
	memmove(out, in, strlen(in) + 1);
}

/* Kinds in the order a reviewer wants them when two pairings of a site are
 * equally sure: the ordering bugs (each with its fix), then the races. */
static int kind_rank(const char *kind)
{
	static const char *const order[] = { "missing-release", "missing-acquire", "missing-full-barrier", "data-race",
					     "unpaired-barrier" };
	int n = (int)(sizeof order / sizeof *order);

	for (int i = 0; i < n; i++)
		if (strcmp(kind, order[i]) == 0)
			return i;
	return n;
}

/* Surest first: confidence, then a polled flag (the object is a flag
 * itself, so a pairing that takes it for data published by another flag
 * misreads it), then a lockset race on data written holding a lock at two
 * or more sites (the authors protect it with the lock: the access without
 * it is the defect, which no barrier fixes), then strength, then kind;
 * otherwise the order found (qsort is not stable: the recorded order
 * decides). */
static int by_sureness(const void *x, const void *y)
{
	const struct pairing *a = x, *b = y;
	enum confidence ca = confidence_of(a->facts), cb = confidence_of(b->facts);
	int sa = evidence_strength(a->facts), sb = evidence_strength(b->facts);
	int pa = (a->facts & FACT_POLLED) != 0, pb = (b->facts & FACT_POLLED) != 0;
	unsigned locked = FACT_LOCKSET | FACT_LOCKED_WRITES;
	int la = (a->facts & locked) == locked, lb = (b->facts & locked) == locked;

	if (ca != cb)
		return ca < cb ? -1 : 1;
	if (pa != pb)
		return pb - pa;
	if (la != lb)
		return lb - la;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (kind_rank(a->kind) != kind_rank(b->kind))
		return kind_rank(a->kind) - kind_rank(b->kind);
	return a->order - b->order;
}

/* Sites in the order of their place in the tree, so that the counter that
 * tells apart two sites with the same id text follows the code. */
static int by_place(const void *x, const void *y)
{
	const struct event *a = ((const struct site *)x)->v[0].locs[0].e;
	const struct event *b = ((const struct site *)y)->v[0].locs[0].e;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");

	if (c)
		return c;
	if (a->line != b->line)
		return a->line - b->line;
	if (a->col != b->col)
		return a->col - b->col;
	if (a->access != b->access)
		return (int)a->access - (int)b->access;
	return strcmp(a->object ? a->object : "", b->object ? b->object : "");
}

struct store {
	struct findings_tx *tx;
	const char *root;
	struct hashmap seen;       /* fingerprints given out -> 1 */
	char **fingerprints;
	int nfp, fpcap;
	long long fid;
	int seq;
};

/* The id of site E: what it is and where (its function and file relative
 * to the scan's root, its object, its kind of access), not its line, so
 * that it survives line shifts and moves of the checkout; repeated
 * identical texts get a counter in the order of the code. */
static void fingerprint(struct store *st, const struct event *e, char out[17])
{
	char *object = object_unscoped(e->object);
	char *text = xasprintf("site|%s|%s|%s|%s", e->func ? e->func : "", rel(e->file, st->root),
			       object ? object : "", access_name(e));
	int dup = 0;

	free(object);
	strip_root(text, st->root);
	hash_text(text, strlen(text), out);
	while (hashmap_get_str(&st->seen, out)) {
		char *again = xasprintf("%s#%d", text, ++dup);

		hash_text(again, strlen(again), out);
		free(again);
	}
	grow(&st->fingerprints, &st->fpcap, st->nfp + 1, sizeof *st->fingerprints);
	st->fingerprints[st->nfp] = xstrdup(out);
	*hashmap_put_str(&st->seen, st->fingerprints[st->nfp++], NULL) = 1;
	free(text);
}

static void add_location(struct store *st, const struct site_loc *l)
{
	struct location_row r = { st->fid, st->seq++, l->role, NULL, 0, 0, NULL, NULL, 0 };

	r.file = rel(l->e->file, st->root);
	r.line = l->e->line;
	r.col = l->e->col;
	r.function = l->e->func;
	r.access = access_name(l->e);
	r.marked = l->e->marked;
	findings_add_location(st->tx, &r);
}

struct evidence_ctx {
	struct store *st;
	int seq;
};

static void add_evidence(const char *sentence, void *ctx)
{
	struct evidence_ctx *c = ctx;

	findings_add_evidence(c->st->tx, c->st->fid, c->seq++, sentence);
}

static const char *severity_of(enum confidence c)
{
	return c == CONFIDENCE_HIGH ? "error" : c == CONFIDENCE_MEDIUM ? "warning" : "note";
}

static void store_site(struct store *st, const struct analysis *a, struct site *site, long long scan_id,
		       struct finding_counts *counts)
{
	const struct pairing *p;
	enum confidence level;
	char fp[17];
	struct finding_row r;
	struct evidence_ctx ev = { st, 0 };

	if (site->n > 1)
		qsort(site->v, site->n, sizeof *site->v, by_sureness);
	p = &site->v[0];
	level = confidence_of(p->facts);
	fingerprint(st, p->locs[0].e, fp);
	r = (struct finding_row){ fp, p->kind, severity_of(level), p->message, name_of(p->data),
				  p->flag ? name_of(p->flag) : NULL, NULL, 0, NULL, p->pair_id, scan_id,
				  confidence_name(level), evidence_strength(p->facts) };
	if (p->fix_at && p->fix) {
		r.fix_file = rel(p->fix_at->file, st->root);
		r.fix_line = p->fix_at->line;
		r.fix = p->fix;
	}
	st->fid = findings_add(st->tx, &r);
	st->seq = 0;
	counts->errors += level == CONFIDENCE_HIGH;
	counts->warnings += level == CONFIDENCE_MEDIUM;
	counts->notes += level == CONFIDENCE_LOW;
	for (int i = 0; i < p->nlocs; i++)
		add_location(st, &p->locs[i]);
	evidence_sentences(a, p->facts, p->data, name_of(p->data), p->flag ? name_of(p->flag) : NULL,
			   add_evidence, &ev);
	/* The site's other pairings, without the site again. */
	for (int k = 1; k < site->n; k++) {
		const struct pairing *o = &site->v[k];
		struct part_row pr = { st->fid, k, o->kind, o->flag ? name_of(o->flag) : NULL, o->message,
				       st->seq, o->nlocs - 1 };

		findings_add_part(st->tx, &pr);
		for (int i = 1; i < o->nlocs; i++)
			add_location(st, &o->locs[i]);
	}
}

void sites_store(struct sites *s, const struct analysis *a, struct findings_tx *tx, const char *root,
		 long long scan_id, struct finding_counts *counts)
{
	struct store st = { tx, root, { 0 }, NULL, 0, 0, -1, 0 };

	/* The index points into v by position: it is not used after sorting.
	 * (qsort must not be given the NULL of an empty array.) */
	if (s->n > 1)
		qsort(s->v, s->n, sizeof *s->v, by_place);
	for (int i = 0; i < s->n; i++)
		store_site(&st, a, &s->v[i], scan_id, counts);
	for (int i = 0; i < st.nfp; i++)
		free(st.fingerprints[i]);
	free(st.fingerprints);
	hashmap_free(&st.seen);
}

void sites_free(struct sites *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++) {
		for (int k = 0; k < s->v[i].n; k++) {
			free(s->v[i].v[k].message);
			free(s->v[i].v[k].fix);
		}
		free(s->v[i].v);
		free(s->keys[i]);
	}
	free(s->v);
	free(s->keys);
	hashmap_free(&s->index);
	free(s);
}
