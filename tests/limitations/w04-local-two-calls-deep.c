/*
 * limitation: W4 (docs/limitations.md)
 * lkmm: no-race
 * about: Each thread passes its own local 'mine' to set2(), which passes it on to
 *        set1(), which writes it. Two calls deep the local is no longer known to
 *        be private, and the write pairs with the thread's own flag accesses.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
int flag;
struct q { int p; };
static void set1(struct q *t) { t->p = 1; }
static void set2(struct q *t) { set1(t); }
void *thr(void *a) { struct q mine; set2(&mine); WRITE_ONCE(flag, 1);
                     if (READ_ONCE(flag)) set2(&mine); return a; }
int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, thr, 0);
                 for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }
