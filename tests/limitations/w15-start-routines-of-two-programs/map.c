/* W15: shared by programs a and b; see a.c */
#include "map.h"
void map_put(struct map *m)
{
	m->n_entries++;
	WRITE_ONCE(m->bound, m->n_entries);
}
unsigned map_get(struct map *m)
{
	return READ_ONCE(m->bound);
}
