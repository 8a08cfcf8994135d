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
 * This file finds those pairs of files (out->exclusive) and the file of
 * the function that defines each event (out->event_file, per gid; clones
 * get their root's, dataflow.c), so that the pairing can drop a pattern
 * whose accesses come from two such files (files_linkable).  Functions defined in one header have that
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
	a->event_file = xcalloc((size_t)p->next_gid + 1, sizeof *a->event_file);
	a->nevent_files = p->next_gid;
	a->file_of_fn = file_of;
	for (int i = 0; i < p->nfns; i++)
		for (int b = 0; b < p->fns[i].nblocks; b++)
			for (int k = 0; k < p->fns[i].blocks[b].nevents; k++) {
				const struct event *e = &p->fns[i].blocks[b].events[k];

				if (e->gid >= 0 && e->gid < a->nevent_files)
					a->event_file[e->gid] = file_of[i];
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

int files_linkable(const struct analysis *a, const struct function *fn, const struct event *const *events, int n)
{
	int files[1 + MAX_LINKABLE], nf = 0;

	if (fn && a->file_of_fn && fn >= a->fns && fn < a->fns + a->nfns)
		files[nf++] = a->file_of_fn[fn - a->fns];
	for (int i = 0; i < n && i < MAX_LINKABLE; i++)
		if (events[i] && events[i]->gid >= 0 && events[i]->gid < a->nevent_files &&
		    (files[nf] = a->event_file[events[i]->gid]) >= 0)
			nf++;
	for (int x = 0; x < nf; x++)
		for (int y = x + 1; y < nf; y++)
			if (files[x] != files[y] && pairset_get(&a->exclusive, files[x], files[y]) >= 0)
				return 0;
	return 1;
}
