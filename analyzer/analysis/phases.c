/* analyzer/analysis/phases.c — start routines whose threads never run
 * together: the phases of a test's main().
 *
 *     for (i = 0; i < n; i++) pthread_create(&t[i], 0, test, &c[i]);
 *     for (i = 0; i < n; i++) pthread_join(t[i], 0);
 *     for (i = 0; i < n; i++) pthread_create(&t[i], 0, test_spmc, &c[i]);
 *
 * (Concurrency Kit's ring validation programs, and many test drivers.)
 * test() and test_spmc() both run while main() runs, but never at the same
 * time.  Two start routines A and B are apart when each is started only by
 * pthread_create in one main() (not through a wrapper, not from another
 * function), every creation of B is made while no other thread runs (the
 * dataflow's thread state there: threads created before are joined, as
 * after a loop of pthread_join; transfer.c records the creations made
 * while threads run), and no creation of B can reach a creation of A (no
 * loop around both): then every thread of A has been joined before the
 * first thread of B exists.  A test that joins some other thread between
 * its phases is not told apart from one that joins its workers (the
 * dataflow's own approximation). */
#include "internal.h"

struct site { int block, index, routine; long long gid; };

/* The creations (pthread_create of a function of the tree) in F, into
 * *OUT; returns how many. */
static int creations(struct program *p, const struct function *f, struct site **out)
{
	int n = 0, cap = 0;

	*out = NULL;
	for (int b = 0; b < f->nblocks; b++)
		for (int k = 0; k < f->blocks[b].nevents; k++) {
			const struct event *e = &f->blocks[b].events[k];
			int t;

			if (!is_named(e, "pthread_create") || (t = start_routine(p, e)) < 0)
				continue;
			grow(out, &cap, n + 1, sizeof **out);
			(*out)[n++] = (struct site){ b, k, t, e->gid };
		}
	return n;
}

/* In main F (its creations S, N of them): is every thread of A joined
 * before the first of B is created? */
static int joined_before(struct program *p, const struct function *f, const struct site *s, int n, int a, int b)
{
	for (int j = 0; j < n; j++) {
		if (s[j].routine != b)
			continue;
		if (pairset_get(&p->out->busy_creations, (int)s[j].gid, 0) >= 0)
			return 0;
		for (int i = 0; i < n; i++)
			if (s[i].routine == a && event_reaches(f, s[j].block, s[j].index, s[i].block, s[i].index))
				return 0;
	}
	return 1;
}

void find_phases(struct program *p)
{
	/* per start routine: its direct creations in all, and in main */
	int *everywhere = xcalloc((size_t)p->nfns + 1, sizeof *everywhere);
	int *home = xcalloc((size_t)p->nfns + 1, sizeof *home), *in_home = xcalloc((size_t)p->nfns + 1, sizeof *in_home);
	unsigned char *taken = address_taken(p);     /* (passed to a wrapper, stored) */

	for (int fi = 0; fi < p->nfns; fi++) {
		struct site *s;
		int n = creations(p, &p->fns[fi], &s);

		for (int i = 0; i < n; i++) {
			int t = s[i].routine;

			everywhere[t]++;
			if (strcmp(p->fns[fi].name, "main") != 0)
				continue;
			if (in_home[t] && home[t] != fi)
				everywhere[t] = -1;          /* started by two mains */
			home[t] = fi;
			in_home[t]++;
		}
		free(s);
	}
	for (int fi = 0; fi < p->nfns; fi++) {
		const struct function *f = &p->fns[fi];
		struct site *s;
		int n;

		if (strcmp(f->name, "main") != 0)
			continue;
		n = creations(p, f, &s);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				int a = s[i].routine, b = s[j].routine;

				if (a == b || taken[a] || taken[b] || everywhere[a] != in_home[a] ||
				    everywhere[b] != in_home[b] || pairset_get(&p->out->apart, a, b) >= 0)
					continue;
				if (joined_before(p, f, s, n, a, b) || joined_before(p, f, s, n, b, a)) {
					pairset_put(&p->out->apart, a, b, 1);
					pairset_put(&p->out->apart, b, a, 1);
				} else {
					pairset_put(&p->out->apart, a, b, 0);
				}
			}
		free(s);
	}
	free(taken);
	free(everywhere);
	free(home);
	free(in_home);
}

int start_routines_apart(const struct analysis *a, int x, int y)
{
	return pairset_get(&a->apart, x, y) == 1;
}
