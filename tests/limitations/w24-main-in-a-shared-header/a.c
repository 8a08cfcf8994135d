/*
 * limitation: W24 (docs/limitations.md)
 * lkmm: no-race
 * about: Two programs, a.c and b.c, share a harness header that defines
 *        main() and the threads (as perfbook's *torture.h do). Each program
 *        is correct alone, but both main()s are in torture.h, so the tree is
 *        taken for one program: b.c's op(), which publishes nothing anyone
 *        in b.c reads, pairs with a.c's check().
 */
#include "torture.h"
int data, flag;
void op(void) { data = 1; smp_store_release(&flag, 1); }
int check(void) { return smp_load_acquire(&flag) ? data : 0; }
