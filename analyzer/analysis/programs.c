/* analyzer/analysis/programs.c — several programs in one tree (a directory
 * of tests, each with its own main()): which program each function belongs
 * to, and its global variables named apart; and the tree-wide numbering of
 * events and objects. */
#include "internal.h"

/* The file that makes F part of a program when it defines main(): its
 * own, or for a copy of a harness header's function (facts.h, per_tu)
 * the translation unit it was compiled in. */
static const char *home_of(const struct function *f)
{
	return f->per_tu ? f->tu : f->file;
}

/* OWNER[i] = 1 + the index in MAINS of the one program function I belongs
 * to, 0 for none, -1 for several. */
static void reach_programs(struct program *p, const char **mains, int nmains, int *owner)
{
	int *stack = xcalloc(p->nfns + 1, sizeof *stack);
	char *seen = xcalloc(p->nfns + 1, 1);

	for (int m = 0; m < nmains; m++) {
		int top = 0;

		memset(seen, 0, p->nfns + 1);
		for (int i = 0; i < p->nfns; i++)
			if (home_of(&p->fns[i]) && strcmp(home_of(&p->fns[i]), mains[m]) == 0) {
				seen[i] = 1;
				stack[top++] = i;
			}
		while (top) {
			int fi = stack[--top];

			owner[fi] = owner[fi] == 0 || owner[fi] == m + 1 ? m + 1 : -1;
			for (int b = 0; b < p->fns[fi].nblocks; b++)
				for (int k = 0; k < p->fns[fi].blocks[b].nevents; k++) {
					const struct event *e = &p->fns[fi].blocks[b].events[k];
					int t = -1;
					struct summary *s;

					if (e->kind == EV_CALL && e->target &&
					    (s = summary_of(p, e->target, &p->fns[fi])) != NULL)
						t = (int)(s - p->sums);
					else if (e->kind == EV_BARRIER && e->name && strcmp(e->name, "pthread_create") == 0)
						t = start_routine(p, e);
					if (t >= 0 && !seen[t]) {
						seen[t] = 1;
						stack[top++] = t;
					}
					/* A function passed to a call (a thread-creating
					 * wrapper's start routine, a callback) runs in
					 * the program that passes it. */
					for (int a = 0; e->kind == EV_CALL && a < e->argv.n; a++) {
						const char *fn = passed_function(e, a);

						if (fn && (s = summary_of(p, fn, &p->fns[fi])) != NULL &&
						    !seen[s - p->sums]) {
							seen[s - p->sums] = 1;
							stack[top++] = (int)(s - p->sums);
						}
					}
				}
		}
	}
	/* A main file's own functions are its program's, whatever reaches them. */
	for (int i = 0; i < p->nfns; i++)
		for (int m = 0; m < nmains; m++)
			if (home_of(&p->fns[i]) && strcmp(home_of(&p->fns[i]), mains[m]) == 0)
				owner[i] = m + 1;
	free(stack);
	free(seen);
}

/* *KEY (parsed as *REF) scoped to program FILE when it names a global
 * variable ("c:@name" -> "c:@name#FILE", keeping a "[]" suffix after the
 * scope: "c:@buf#prog.c[]"; also as a read lock, "shared:c:@name"), and
 * parsed again. */
static void scope_key(char **key, struct object_ref *ref, const char *file)
{
	size_t name;
	char *s;

	if (!*key || ref->kind != OBJ_USR || !ref->global)
		return;
	name = strcspn(*key, "[");
	s = xasprintf("%.*s#%s%s", (int)name, *key, file, *key + name);
	free(*key);
	*key = s;
	object_ref_parse(*key, ref);
}

/* Adds FILE to the NROOTS roots of programs unless it is one already. */
static void add_root(const char ***roots, int *nroots, int *cap, const char *file)
{
	if (!file)
		return;
	for (int k = 0; k < *nroots; k++)
		if (strcmp((*roots)[k], file) == 0)
			return;
	grow(roots, cap, *nroots + 1, sizeof **roots);
	(*roots)[(*nroots)++] = file;
}

/* A tree may hold several programs (a directory of tests, each with its
 * own main()): their globals of the same name are different objects.
 * When two or more files define main(), a function belongs to the program
 * of its file when that file defines main(), otherwise to the one program
 * whose functions reach it (calls, thread creations), and the global
 * variables it touches are scoped to that program (its main file).  A
 * function reached from several programs (a shared library file, a header)
 * keeps the unscoped names.  (The link commands would tell exactly; a
 * compile database does not hold them.)  A main() in a harness header
 * (perfbook's counttorture.h) makes a program of each TU that includes
 * it: the loader keeps a copy of the header's functions per TU. */
void scope_program_globals(struct program *p)
{
	const char **mains = NULL;
	int nmains = 0, cap = 0, *owner;

	for (int i = 0; i < p->nfns; i++)
		if (strcmp(p->fns[i].name, "main") == 0)
			add_root(&mains, &nmains, &cap, home_of(&p->fns[i]));
	if (nmains < 2) {
		free(mains);
		return;
	}
	owner = xcalloc(p->nfns + 1, sizeof *owner);
	reach_programs(p, mains, nmains, owner);
	p->out->program_of = owner;     /* threads.c: roots of two programs */
	for (int i = 0; i < p->nfns; i++) {
		struct function *f = &p->fns[i];
		const char *prog = owner[i] > 0 ? mains[owner[i] - 1] : NULL;

		if (!prog)
			continue;
		for (int b = 0; b < f->nblocks; b++)
			for (int k = 0; k < f->blocks[b].nevents; k++) {
				struct event *e = &f->blocks[b].events[k];

				scope_key(&e->object, &e->obj, prog);
				/* the objects a call passes, for the callee's
				 * parameters */
				for (int a = 0; e->kind == EV_CALL && a < e->argv.n; a++)
					scope_key(&e->argv.v[a], &e->argv.ref[a], prog);
			}
	}
	free(mains);
}

/* Numbers every event of the tree (gid) and every object (oid), so that
 * the analysis compares integers, not strings. */
void number_events(struct program *p)
{
	for (int i = 0; i < p->nfns; i++)
		for (int b = 0; b < p->fns[i].nblocks; b++)
			for (int k = 0; k < p->fns[i].blocks[b].nevents; k++) {
				struct event *e = &p->fns[i].blocks[b].events[k];

				e->gid = p->next_gid++;
				e->oid = e->object ? intern_object(p, e->object) : -1;
				e->param_use = dep_list_has(&e->deps, DEP_ADDRESS, DEP_PARAM);
				if (e->kind == EV_ACCESS && e->target && e->oid >= 0) {
					grow(&p->fnptrs, &p->fnptrcap, p->nfnptrs + 1, sizeof *p->fnptrs);
					p->fnptrs[p->nfnptrs].oid = e->oid;
					p->fnptrs[p->nfnptrs++].function = e->target;
				}
			}
}
