/* analyzer/analysis/indexes.c — the indexes pairing reads (struct analysis,
 * dataflow.h), built once the analysis is done, and freeing it all. */
#include "internal.h"

static const struct link *sort_links;

static int by_flag_and_data(const void *x, const void *y)
{
	const struct link *a = &sort_links[*(const int *)x], *b = &sort_links[*(const int *)y];

	if (a->marked->oid != b->marked->oid)
		return a->marked->oid < b->marked->oid ? -1 : 1;
	if (a->plain->oid != b->plain->oid)
		return a->plain->oid < b->plain->oid ? -1 : 1;
	return *(const int *)x - *(const int *)y;   /* stable: first found first */
}

static int *sorted_links(const struct link *links, int n)
{
	int *idx = xcalloc(n + 1, sizeof *idx);

	for (int i = 0; i < n; i++)
		idx[i] = i;
	sort_links = links;
	qsort(idx, n, sizeof *idx, by_flag_and_data);
	sort_links = NULL;
	return idx;
}

int *new_heads(int n)
{
	int *h = xmalloc((size_t)(n + 1) * sizeof *h);

	for (int i = 0; i <= n; i++)
		h[i] = -1;
	return h;
}

/* Do records R and S hold the same locks of their own (each lock once)? */
static int same_own_locks(const struct lock_record *r, const struct lock_record *s)
{
	if (r->nlocks != s->nlocks)
		return 0;
	for (int i = 0; i < r->nlocks; i++)
		if (!record_holds(s, r->locks[i]))
			return 0;
	return 1;
}

/* Fills caller_locks, ncaller_locks and the complete records' lists
 * (struct analysis) from the records and rec_head lists. */
static void index_caller_locks(struct analysis *a)
{
	a->caller_locks = xcalloc((size_t)a->ngids + 1, sizeof *a->caller_locks);
	a->ncaller_locks = xcalloc((size_t)a->ngids + 1, sizeof *a->ncaller_locks);
	a->complete_head = new_heads(a->ngids);
	a->complete_next = new_heads(a->nrecords);
	for (int g = 0; g < a->ngids; g++) {
		const char **v = NULL;
		int n = 0, cap = 0, *tail = &a->complete_head[g];

		for (int i = a->rec_head[g]; i >= 0; i = a->rec_next[i]) {
			const struct lock_record *r = &a->records[i];

			if (r->complete) {
				int k = a->complete_head[g];

				while (k >= 0 && !same_own_locks(&a->records[k], r))
					k = a->complete_next[k];
				if (k < 0) {
					*tail = i;
					tail = &a->complete_next[i];
				}
				continue;
			}
			for (int k = 0; k < r->nlocks; k++) {
				int dup = 0;

				for (int j = 0; j < n && !dup; j++)
					dup = strcmp(v[j], r->locks[k]) == 0;
				if (!dup) {
					grow(&v, &cap, n + 1, sizeof *v);
					v[n++] = r->locks[k];
				}
			}
		}
		a->caller_locks[g] = v;
		a->ncaller_locks[g] = n;
	}
}

/* Builds the indexes pairing uses (see struct analysis). */
void build_indexes(struct analysis *a, int ngids)
{
	a->ngids = ngids;
	a->rec_head = new_heads(ngids);
	a->rec_next = new_heads(a->nrecords);
	a->obj_head = new_heads(a->nobjects);
	a->obj_next = new_heads(a->nrecords);
	for (int i = a->nrecords - 1; i >= 0; i--) {
		struct lock_record *r = &a->records[i];

		a->rec_next[i] = a->rec_head[r->e->gid];
		a->rec_head[r->e->gid] = i;
		if (r->complete && !r->e->marked && r->e->oid >= 0) {
			a->obj_next[i] = a->obj_head[r->e->oid];
			a->obj_head[r->e->oid] = i;
		}
	}
	index_caller_locks(a);
	a->fwd_head = new_heads(a->nobjects);
	a->bwd_head = new_heads(a->nobjects);
	a->fwd_next = new_heads(a->nrelays);
	a->bwd_next = new_heads(a->nrelays);
	for (int i = a->nrelays - 1; i >= 0; i--) {
		a->fwd_next[i] = a->fwd_head[a->relays[i].from_oid];
		a->fwd_head[a->relays[i].from_oid] = i;
		a->bwd_next[i] = a->bwd_head[a->relays[i].to_oid];
		a->bwd_head[a->relays[i].to_oid] = i;
	}
	a->cons_sorted = sorted_links(a->consumers, a->nconsumers);
	a->cons_by_plain_head = new_heads(ngids);
	a->cons_by_plain_next = new_heads(a->nconsumers);
	for (int i = a->nconsumers - 1; i >= 0; i--) {
		a->cons_by_plain_next[i] = a->cons_by_plain_head[a->consumers[i].plain->gid];
		a->cons_by_plain_head[a->consumers[i].plain->gid] = i;
	}
	a->prod_sorted = sorted_links(a->producers, a->nproducers);
}

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	for (int i = 0; i < a->nkept; i++)
		free(a->kept[i]);
	free(a->kept);
	hashmap_free(&a->kept_index);
	free(a->writers);
	free(a->readers);
	free(a->producers);
	free(a->consumers);
	free(a->early);
	pairset_free(&a->wseen);
	pairset_free(&a->rseen);
	pairset_free(&a->pseen);
	pairset_free(&a->cseen);
	pairset_free(&a->eseen);
	pairset_free(&a->lseen);
	pairset_free(&a->relseen);
	pairset_free(&a->lock_op_seen);
	free(a->ranges);
	free(a->lock_ops[0]);
	free(a->lock_ops[1]);
	pairset_free(&a->recseen);
	free(a->late);
	free(a->instances);
	free(a->owner_only);
	free(a->owned_events);
	free(a->claimed_events);
	free(a->event_file);
	free(a->file_of_fn);
	pairset_free(&a->exclusive);
	pairset_free(&a->apart);
	pairset_free(&a->busy_creations);
	pairset_free(&a->made_while);
	hashmap_free(&a->fn_by_name);
	free(a->creator_root);
	free(a->roots);
	free(a->unknown_root);
	free(a->never_runs);
	free(a->started_root);
	free(a->tallies);
	free(a->mwrites);
	free(a->mw_start);
	free(a->program_of);
	free(a->rec_head);
	free(a->rec_next);
	for (int g = 0; a->caller_locks && g < a->ngids; g++)
		free(a->caller_locks[g]);
	free(a->caller_locks);
	free(a->ncaller_locks);
	free(a->complete_head);
	free(a->complete_next);
	free(a->obj_head);
	free(a->obj_next);
	free(a->fwd_head);
	free(a->fwd_next);
	free(a->bwd_head);
	free(a->bwd_next);
	free(a->cons_sorted);
	free(a->cons_by_plain_head);
	free(a->cons_by_plain_next);
	free(a->prod_sorted);
	free(a->relays);
	for (int i = 0; i < a->nclones; i++) {
		free(a->clones[i]->object);
		free(a->clones[i]->display);
		free(a->clones[i]);
	}
	free(a->clones);
	for (int i = 0; i < a->nrecords; i++)
		free(a->records[i].locks);
	free(a->records);
	free(a);
}
