/* W15: shared by programs a and b; see a.c */
#include <kcsan/lkmm.h>
struct map { unsigned n_entries; unsigned bound; };
void map_put(struct map *m);
unsigned map_get(struct map *m);
