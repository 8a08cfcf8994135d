/* W24: program b; see a.c.  Nothing in b.c reads flag. */
#include "torture.h"
int data, flag;
void op(void) { data = 2; WRITE_ONCE(flag, 1); }
int check(void) { return 0; }
