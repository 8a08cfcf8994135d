/*
 * seedlock_c11.c — the seeds' lock test with C11 <stdatomic.h> (default) or
 * the GNU __atomic builtins (-DGNU), the twins of seedlock.c
 * (test_kernel_atomic_builtin_{with,wrong}_memorder): compare-exchange
 * acquire + store release around a plain counter never reports; the
 * relaxed lock (-DBUGGY) must report the counter access "(reordered)".
 *
 *   ./seedlock_c11 [SECONDS]
 */
#include <stdatomic.h>

#include "harness.h"

#ifdef BUGGY
# define MO_LOCK	memory_order_relaxed
# define MO_UNLOCK	memory_order_relaxed
#else
# define MO_LOCK	memory_order_acquire
# define MO_UNLOCK	memory_order_release
#endif

#ifdef GNU
static unsigned long lockword;
# define TRY_LOCK(e)	__atomic_compare_exchange_n(&lockword, &(e), 1UL, 0, MO_LOCK, \
						    __ATOMIC_RELAXED)
# define UNLOCK()	__atomic_store_n(&lockword, 0UL, MO_UNLOCK)
#else
static atomic_ulong lockword;
# define TRY_LOCK(e)	atomic_compare_exchange_strong_explicit(&lockword, &(e), 1UL, \
						MO_LOCK, memory_order_relaxed)
# define UNLOCK()	atomic_store_explicit(&lockword, 0UL, MO_UNLOCK)
#endif

static long test_var;

__attribute__((noinline)) static void locked_inc(void)
{
	unsigned long e = 0;
	int i;

	if (!TRY_LOCK(e))
		return;
	for (i = 0; i < 4; i++) {
		test_var++;
		__asm__ __volatile__("" ::: "memory");
	}
	UNLOCK();
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
