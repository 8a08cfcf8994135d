/*
 * limitation: W6 (docs/limitations.md)
 * lkmm: no-race
 * about: A library whose contract is one writer: the caller serialises set_put()
 *        and set_remove(); readers only call set_get(). Every entry point is
 *        taken to run in any number of threads, so the two writer operations
 *        are paired with each other.
 */
#include <kcsan/lkmm.h>
struct map { unsigned probes; unsigned max; };
struct set { struct map *map; };
void set_put(struct set *s)    { struct map *m = READ_ONCE(s->map); m->probes = 3; WRITE_ONCE(m->max, 3); }
void set_remove(struct set *s) { struct map *m = READ_ONCE(s->map); if (READ_ONCE(m->max) > 2) m->probes = 0; }
unsigned set_get(struct set *s) { return READ_ONCE(READ_ONCE(s->map)->max); }
