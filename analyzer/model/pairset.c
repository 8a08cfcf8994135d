/* analyzer/model/pairset.c — pairs of numbers as keys of the hash map (see
 * pairset.h). */
#include "pairset.h"

int pairset_get(const struct pairset *s, int a, int b)
{
	const intptr_t *v = hashmap_get(&s->map, hashmap_pair(a, b));

	return v ? (int)*v : -1;
}

void pairset_put(struct pairset *s, int a, int b, int val)
{
	*hashmap_put(&s->map, hashmap_pair(a, b), NULL) = val;
}

void pairset_free(struct pairset *s)
{
	hashmap_free(&s->map);
}
