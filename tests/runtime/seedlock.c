/*
 * seedlock.c — the seeds' lock test (KCSAN test_kernel_with_memorder /
 * wrong_memorder) in user space, <kcsan/lkmm.h> version: a lock taken with
 * cmpxchg_acquire() and dropped with smp_store_release() around a plain
 * counter never reports; the same lock with cmpxchg_relaxed() and
 * WRITE_ONCE() must report the counter access "(reordered)": nothing
 * orders it before the unlock, so the next holder races with it.
 *
 *   ./seedlock [SECONDS]      correct lock (-DBUGGY: relaxed lock)
 */
#include <kcsan/lkmm.h>

#include "harness.h"

static unsigned long lockword;
static long test_var;

__attribute__((noinline)) static void locked_inc(void)
{
	int i;

#ifdef BUGGY
	if (cmpxchg_relaxed(&lockword, 0UL, 1UL) != 0)
		return;
#else
	if (cmpxchg_acquire(&lockword, 0UL, 1UL) != 0)
		return;
#endif
	for (i = 0; i < 4; i++) {
		test_var++;
		barrier();
	}
#ifdef BUGGY
	WRITE_ONCE(lockword, 0UL);
#else
	smp_store_release(&lockword, 0UL);
#endif
}

static void *worker(void *arg)
{
	(void)arg;
	while (!harness_stop())
		locked_inc();
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n = harness_run(4, worker, harness_seconds(argc, argv, 1, 20));

	printf("reports=%lu\n", n);
	return 0;
}
