/*
 * limitation: W8 (docs/limitations.md)
 * lkmm: no-race
 * about: Two programs, a.c and b.c, each define their own struct ctx. Scanned as
 *        one tree, the fields of the two types are one object: a.c's
 *        write of c->tid before c->done pairs with b.c's reader.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
struct ctx { int tid; int done; };
void *worker(void *p) { struct ctx *c = p; c->tid = 1; WRITE_ONCE(c->done, 1); return p; }
int main(void) { static struct ctx c; pthread_t t; pthread_create(&t, 0, worker, &c); pthread_join(t, 0); return c.tid; }
