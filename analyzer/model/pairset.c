/* analyzer/model/pairset.c — pairs of numbers as keys of the hash map, all
 * in one map or one map per group (see pairset.h). */
#include "pairset.h"
#include "facts.h"

#include <stdlib.h>

/* The group's map of number KEY (grouped sets), or NULL when it has none
 * and ADD is 0.  The last group found is remembered: a set is asked about
 * runs of pairs of one group.  (const: the memory of that last group is
 * no part of the set's value.) */
static struct hashmap *group_of(const struct pairset *cs, int key, int add)
{
	struct pairset *s = (struct pairset *)cs;
	intptr_t *at;
	int added;

	if (s->last && s->last_key == key)
		return s->last;
	if (!add) {
		at = hashmap_get(&s->map, (uint64_t)(unsigned)key);
		if (!at)
			return NULL;
	} else {
		at = hashmap_put(&s->map, (uint64_t)(unsigned)key, &added);
		if (added) {
			grow(&s->groups, &s->groupcap, s->ngroups + 1, sizeof *s->groups);
			s->groups[s->ngroups] = (struct hashmap){ 0 };
			*at = s->ngroups++;
		}
	}
	s->last_key = key;
	s->last = &s->groups[*at];     /* (valid until the next group is added) */
	return s->last;
}

int pairset_get(const struct pairset *s, int a, int b)
{
	const intptr_t *v;

	if (s->layout == PAIRSET_FLAT) {
		v = hashmap_get(&s->map, hashmap_pair(a, b));
	} else {
		int by_first = s->layout == PAIRSET_BY_FIRST;
		const struct hashmap *g = group_of(s, by_first ? a : b, 0);

		v = g ? hashmap_get(g, (uint64_t)(unsigned)(by_first ? b : a)) : NULL;
	}
	return v ? (int)*v : -1;
}

void pairset_put(struct pairset *s, int a, int b, int val)
{
	if (s->layout == PAIRSET_FLAT) {
		*hashmap_put(&s->map, hashmap_pair(a, b), NULL) = val;
	} else {
		int by_first = s->layout == PAIRSET_BY_FIRST;
		struct hashmap *g = group_of(s, by_first ? a : b, 1);

		*hashmap_put(g, (uint64_t)(unsigned)(by_first ? b : a), NULL) = val;
	}
}

void pairset_free(struct pairset *s)
{
	for (int i = 0; i < s->ngroups; i++)
		hashmap_free(&s->groups[i]);
	free(s->groups);
	hashmap_free(&s->map);
	s->groups = NULL;
	s->ngroups = s->groupcap = 0;
	s->last = NULL;
}
