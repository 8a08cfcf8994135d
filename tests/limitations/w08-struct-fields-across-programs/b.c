/* W8: program b; see a.c */
#include <kcsan/lkmm.h>
#include <pthread.h>
struct ctx { int tid; int done; };
void *waiter(void *p) { struct ctx *c = p; while (!READ_ONCE(c->done)) ; c->tid = 2; return p; }
int main(void) { static struct ctx c; pthread_t t; pthread_create(&t, 0, waiter, &c); pthread_join(t, 0); return 0; }
