/* analyzer/analysis/query.c — how the rest of the analyser reads the
 * analysis' result (dataflow.h): everything outside analysis/ goes through
 * these functions, and none of them changes it. */
#include "internal.h"

int analysis_first(const struct analysis *a, enum analysis_list list, int key)
{
	switch (list) {
	case RECORDS_OF_EVENT:
		return key >= 0 && key < a->ngids ? a->rec_head[key] : -1;
	case COMPLETE_RECORDS_OF_EVENT:
		return key >= 0 && key < a->ngids ? a->complete_head[key] : -1;
	case PLAIN_RECORDS_OF_OBJECT:
		return key >= 0 && key < a->nobjects ? a->obj_head[key] : -1;
	case RELAYS_FROM:
		return key >= 0 && key < a->nobjects ? a->fwd_head[key] : -1;
	case RELAYS_TO:
		return key >= 0 && key < a->nobjects ? a->bwd_head[key] : -1;
	case CONSUMERS_OF_PLAIN:
		return key >= 0 && key < a->ngids ? a->cons_by_plain_head[key] : -1;
	}
	return -1;
}

int analysis_next(const struct analysis *a, enum analysis_list list, int i)
{
	switch (list) {
	case RECORDS_OF_EVENT:        return a->rec_next[i];
	case COMPLETE_RECORDS_OF_EVENT: return a->complete_next[i];
	case PLAIN_RECORDS_OF_OBJECT: return a->obj_next[i];
	case RELAYS_FROM:             return a->fwd_next[i];
	case RELAYS_TO:               return a->bwd_next[i];
	case CONSUMERS_OF_PLAIN:      return a->cons_by_plain_next[i];
	}
	return -1;
}

const struct candidate *analysis_writers(const struct analysis *a, int *n)
{
	*n = a->nwriters;
	return a->writers;
}

const struct vrange *analysis_range(const struct analysis *a, int range)
{
	return range >= 0 && range < a->nranges ? &a->ranges[range] : NULL;
}

const struct function *analysis_functions(const struct analysis *a, int *n)
{
	*n = a->nfns;
	return a->fns;
}

const struct lock_word_op *analysis_lock_word_ops(const struct analysis *a, enum lock_word_role role, int *n)
{
	*n = a->nlock_ops[role];
	return a->lock_ops[role];
}

int event_constant(const struct event *e, int expected, long long *v)
{
	enum dep_role role = expected ? DEP_EXPECTED : DEP_VALUE;

	for (int k = 0; k < e->conds.n; k++)
		if (e->conds.v[k].role == role && e->conds.v[k].kind == DEP_CONST) {
			*v = e->conds.v[k].value;
			return 1;
		}
	return 0;
}

const struct candidate *analysis_readers(const struct analysis *a, int *n)
{
	*n = a->nreaders;
	return a->readers;
}

const struct link *analysis_links(const struct analysis *a, enum link_kind kind, int *n)
{
	switch (kind) {
	case LINK_PRODUCER: *n = a->nproducers; return a->producers;
	case LINK_CONSUMER: *n = a->nconsumers; return a->consumers;
	case LINK_EARLY:    *n = a->nearly;     return a->early;
	case LINK_LATE:     *n = a->nlate;      return a->late;
	}
	*n = 0;
	return NULL;
}

const int *analysis_links_by_flag(const struct analysis *a, enum link_kind kind)
{
	return kind == LINK_PRODUCER ? a->prod_sorted : kind == LINK_CONSUMER ? a->cons_sorted : NULL;
}

const struct relay *analysis_relays(const struct analysis *a, int *n)
{
	*n = a->nrelays;
	return a->relays;
}

const struct lock_record *analysis_records(const struct analysis *a, int *n)
{
	*n = a->nrecords;
	return a->records;
}

const char *const *analysis_caller_locks(const struct analysis *a, int gid, int *n)
{
	if (gid < 0 || gid >= a->ngids) {
		*n = 0;
		return NULL;
	}
	*n = a->ncaller_locks[gid];
	return (const char *const *)a->caller_locks[gid];
}

int analysis_first_complete(const struct analysis *a, int gid)
{
	return gid >= 0 && gid < a->ngids ? a->complete_head[gid] : -1;
}

int record_holds(const struct lock_record *r, const char *l)
{
	for (int i = 0; i < r->nlocks; i++)
		if (strcmp(r->locks[i], l) == 0)
			return 1;
	return 0;
}

int record_locked(const struct analysis *a, const struct lock_record *r)
{
	int ncallers;

	analysis_caller_locks(a, r->e->gid, &ncallers);
	return r->nlocks > 0 || ncallers > 0;
}

int analysis_objects(const struct analysis *a)
{
	return a->nobjects;
}
