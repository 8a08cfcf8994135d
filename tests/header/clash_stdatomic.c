/*
 * tests/header/clash_stdatomic.c — must NOT compile: <stdatomic.h> and
 * <kcsan/lkmm.h> in one translation unit.  run.sh checks that the compiler
 * stops with the header's one clear message ("kcsan/lkmm.h: cannot be
 * combined with <stdatomic.h> in one translation unit ...") as its first
 * error.  -DLKMM_FIRST includes them in the other order.
 */
#ifdef LKMM_FIRST
#include <kcsan/lkmm.h>
#include <stdatomic.h>
#else
#include <stdatomic.h>
#include <kcsan/lkmm.h>
#endif

int counter;

int main(void)
{
	return counter;
}
