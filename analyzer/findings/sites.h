/* analyzer/findings/sites.h — one finding per site.
 *
 * The rules (pairing.c) find pairings: a plain access with one flag and one
 * counterpart.  A plain access that pairs with several flags (16 on one
 * line of real code) is still one place to fix and one thing to review, so
 * the rules hand each pairing to a collection here, which groups them by
 * site (the plain access; the barrier of an unpaired-barrier), puts the
 * surest pairing first (evidence.h), and stores one finding per site with
 * the others listed inside (finding_parts).  Its id names the site, not the
 * flag: it stays when a flag is added or removed. */
#ifndef KCSAN_SITES_H
#define KCSAN_SITES_H

#include "analyzer/analysis/dataflow.h"
#include "db/findings.h"

struct site_loc {
	const char *role;          /* plain-access | publish | consume | racing-access | barrier */
	const struct event *e;
};

/* One pairing, as a rule found it.  LOCS[0] is the site. */
struct pairing {
	const char *kind;          /* missing-release, ... (a string constant) */
	char *message;             /* taken by sites_add */
	const struct event *data;  /* what 'variable' names */
	const struct event *flag;  /* what 'flag' names */
	const struct function *fn; /* the function of the pattern */
	const struct event *fix_at;
	char *fix;                 /* NULL: none; taken by sites_add */
	long long pair_id;         /* pairs.id, 0 for none */
	struct site_loc locs[4];
	int nlocs;
	unsigned facts;            /* evidence.h */
	int order;                 /* set by sites_add: the order found */
};

struct sites;

struct sites *sites_new(void);

/* Adds pairing P (copied; its message and fix are taken). */
void sites_add(struct sites *s, const struct pairing *p);

/* Stores one finding per site through TX, paths relative to ROOT, and
 * counts them by severity into COUNTS (errors: high confidence, warnings:
 * medium, notes: low). */
struct finding_counts;
void sites_store(struct sites *s, const struct analysis *a, struct findings_tx *tx, const char *root,
		 long long scan_id, struct finding_counts *counts);

void sites_free(struct sites *s);

#endif
