/* analyzer/analysis/exclusive.c — files that no program links together.
 *
 * A tree may hold alternative implementations of one interface (perfbook's
 * maze_fg.c, maze_part.c and maze_2seq.c each define maze_try_visit_cell()
 * and are each linked with maze.c into their own program), and every test
 * program of a directory defines main().  Two files that both define one
 * external function can never be in one program: the link would fail on
 * the duplicate symbol.  Yet a call made from a shared file (maze.c) to
 * such a name binds to one of the definitions (callview.c: suits), so a
 * pairing can put one program's access next to another program's flag.
 *
 * This file finds those pairs of files (out->exclusive) and which function
 * defines each event (out->defined_in, per gid, clones as their root), so
 * that the pairing can drop a pattern whose accesses come from two such
 * files (events_linkable).  Functions defined in one header have that
 * header as their file whatever TU they came from: never exclusive. */
#include "internal.h"
#include "db/races.h"

/* The files seen, by normalised name (the map keeps pointers to NAMES). */
struct file_table {
	struct hashmap map;
	char **names;
	int n, cap;
};

/* The number of file F (interned by its normalised name: a file that one
 * TU includes as 'existence/../skiplist/skiplist.c' and another compiles
 * as 'skiplist/skiplist.c' is one file). */
static int file_number(struct file_table *t, const char *f)
{
	int added = 0;
	char *name = xstrdup(f ? f : "");
	intptr_t *slot;

	kdb_path_normalize(name);
	slot = hashmap_put_str(&t->map, name, &added);
	if (!added) {
		free(name);
		return (int)*slot;
	}
	grow(&t->names, &t->cap, t->n + 1, sizeof *t->names);
	t->names[t->n] = name;
	*slot = t->n;
	return t->n++;
}

void find_exclusive_files(struct program *p)
{
	struct analysis *a = p->out;
	struct file_table files = { { 0 }, NULL, 0, 0 };
	int *file_of = xcalloc((size_t)p->nfns + 1, sizeof *file_of);

	for (int i = 0; i < p->nfns; i++)
		file_of[i] = file_number(&files, p->fns[i].file);
	a->defined_in = xcalloc((size_t)p->next_gid + 1, sizeof *a->defined_in);
	a->ndefined = p->next_gid;
	a->file_of_fn = file_of;
	for (int i = 0; i < p->nfns; i++)
		for (int b = 0; b < p->fns[i].nblocks; b++)
			for (int k = 0; k < p->fns[i].blocks[b].nevents; k++) {
				const struct event *e = &p->fns[i].blocks[b].events[k];

				if (e->gid >= 0 && e->gid < a->ndefined)
					a->defined_in[e->gid] = i;
			}
	/* Definitions of one link key (p->keys is sorted) in two files: the
	 * two files are exclusive (a static function's key names its file,
	 * so only external definitions meet here). */
	for (int lo = 0, hi; lo < p->nfns; lo = hi) {
		for (hi = lo + 1; hi < p->nfns && strcmp(p->keys[hi], p->keys[lo]) == 0; hi++)
			;
		for (int x = lo; x < hi; x++)
			for (int y = x + 1; y < hi; y++) {
				int fx = file_of[p->key_fn[x]], fy = file_of[p->key_fn[y]];

				if (fx != fy) {
					pairset_put(&a->exclusive, fx, fy, 1);
					pairset_put(&a->exclusive, fy, fx, 1);
				}
			}
	}
	hashmap_free(&files.map);
	for (int i = 0; i < files.n; i++)
		free(files.names[i]);
	free(files.names);
}

void exclusive_clones(struct program *p)
{
	struct analysis *a = p->out;
	int n = p->next_gid;

	a->defined_in = xrealloc(a->defined_in, ((size_t)n + 1) * sizeof *a->defined_in);
	for (int g = a->ndefined; g <= n; g++)
		a->defined_in[g] = -1;
	for (int i = 0; i < a->nclones; i++) {
		const struct event *c = a->clones[i], *root = clone_root_of(p, c);

		if (c->gid >= a->ndefined && c->gid < n && root->gid >= 0 && root->gid < a->ndefined)
			a->defined_in[c->gid] = a->defined_in[root->gid];
	}
	a->ndefined = n;
}

/* The file number of the function that defines event E, or -1. */
static int file_of_event(const struct analysis *a, const struct event *e)
{
	int fi = e->gid >= 0 && e->gid < a->ndefined ? a->defined_in[e->gid] : -1;

	return fi >= 0 && fi < a->nfns ? a->file_of_fn[fi] : -1;
}

int files_linkable(const struct analysis *a, const struct function *fn, const struct event *const *events, int n)
{
	int files[1 + MAX_LINKABLE], nf = 0;

	if (fn && a->file_of_fn && fn >= a->fns && fn < a->fns + a->nfns)
		files[nf++] = a->file_of_fn[fn - a->fns];
	for (int i = 0; i < n && i < MAX_LINKABLE; i++)
		if (events[i] && (files[nf] = file_of_event(a, events[i])) >= 0)
			nf++;
	for (int x = 0; x < nf; x++)
		for (int y = x + 1; y < nf; y++)
			if (files[x] != files[y] && pairset_get(&a->exclusive, files[x], files[y]) >= 0)
				return 0;
	return 1;
}
