/*
 * barrier_lkmm.c — the seeds' test_barrier_nothreads table, against
 * <kcsan/lkmm.h> compiled with -fsanitize=thread and linked with the
 * kcsan-scan runtime.
 *
 * For each row: make a delayed (reordered) access of each type — read,
 * write, read-modify-write — by filling the thread's reorder slot through
 * the runtime's internal API, run the primitive, and check whether the
 * access stopped being delayed (reorder.size == 0) exactly when the table
 * says it must.  Kernel-only rows (arch_spin_lock, mutex_lock, ...) are
 * replaced by their pthread counterparts, which the runtime interposes.
 * Run with a huge skip_watch so that no watchpoint (and no delay) is set up.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#include <kcsan/lkmm.h>
#include "../../runtime/kcsan_rt.h"

static unsigned long test_var;
static atomic_t dummy;
static int passed, failed;

static void expect(struct kcsan_ctx *ctx, int type, const char *tname,
		   const char *what, int want_end)
{
	int ended = ctx->reorder.size == 0;

	if (ended == want_end) {
		passed++;
	} else {
		failed++;
		printf("FAIL: type=%s %s: %s, expected %s\n", tname, what,
		       ended ? "ended" : "still delayed",
		       want_end ? "ended" : "still delayed");
	}
	(void)type;
}

/* Always inlined: the delayed access must belong to the caller's scope
 * (a separate function would end it at its own exit). */
static inline __attribute__((always_inline)) void arm(struct kcsan_ctx *ctx, int type)
{
	ctx->reorder.ptr = &test_var;
	ctx->reorder.type = type | KCSAN_ACCESS_SCOPED;
	ctx->reorder.ip = 0;
	ctx->reorder.depth = ctx->depth;
	ctx->reorder.size = sizeof(test_var);
}

#define R	0
#define W	KCSAN_ACCESS_WRITE
#define RW	(KCSAN_ACCESS_WRITE | KCSAN_ACCESS_COMPOUND)

#define ONE(type, stmt, want)							\
	do {									\
		arm(ctx, type);							\
		stmt;								\
		expect(ctx, type, #type, #stmt, want);				\
	} while (0)
/* A lock/unlock pair: the lock must end nothing, the unlock everything
 * (each is run once per access type, never twice in a row). */
#define ONE_PAIR(type, lock, unlock)						\
	do {									\
		arm(ctx, type);							\
		lock;								\
		expect(ctx, type, #type, #lock, 0);				\
		arm(ctx, type);							\
		unlock;								\
		expect(ctx, type, #type, #unlock, 1);				\
	} while (0)
#define ROW_PAIR(lock, unlock)							\
	do {									\
		ONE_PAIR(R, lock, unlock);					\
		ONE_PAIR(W, lock, unlock);					\
		ONE_PAIR(RW, lock, unlock);					\
	} while (0)
/* ROW(statement, ends a delayed read, ends a write, ends an RMW) */
#define ROW(stmt, r, w, rw)							\
	do {									\
		ONE(R, stmt, r);						\
		ONE(W, stmt, w);						\
		ONE(RW, stmt, rw);						\
	} while (0)

int main(void)
{
	struct kcsan_ctx *ctx = kcsan_get_ctx();
	pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
	pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
	pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
	pthread_spinlock_t spin;
	sem_t sem;
	long v = 0;

	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	sem_init(&sem, 0, 1);

	/* The seeds' table, row by row. */
	ROW(mb(), 1, 1, 1);
	ROW(wmb(), 0, 1, 1);
	ROW(rmb(), 1, 0, 1);
	ROW(smp_mb(), 1, 1, 1);
	ROW(smp_wmb(), 0, 1, 1);
	ROW(smp_rmb(), 1, 0, 1);
	ROW(dma_wmb(), 0, 1, 1);
	ROW(dma_rmb(), 1, 0, 1);
	ROW(smp_mb__before_atomic(), 1, 1, 1);
	ROW(smp_mb__after_atomic(), 1, 1, 1);
	ROW(smp_mb__after_spinlock(), 1, 1, 1);
	ROW(smp_store_mb(test_var, 0), 1, 1, 1);
	ROW(v += smp_load_acquire(&test_var), 0, 0, 0);
	ROW(smp_store_release(&test_var, 0), 1, 1, 1);
	ROW(v += xchg(&test_var, 0), 1, 1, 1);
	ROW(v += xchg_release(&test_var, 0), 1, 1, 1);
	ROW(v += xchg_relaxed(&test_var, 0), 0, 0, 0);
	ROW(v += cmpxchg(&test_var, 0, 0), 1, 1, 1);
	ROW(v += cmpxchg_release(&test_var, 0, 0), 1, 1, 1);
	ROW(v += cmpxchg_relaxed(&test_var, 0, 0), 0, 0, 0);
	ROW(v += atomic_read(&dummy), 0, 0, 0);
	ROW(v += atomic_read_acquire(&dummy), 0, 0, 0);
	ROW(atomic_set(&dummy, 0), 0, 0, 0);
	ROW(atomic_set_release(&dummy, 0), 1, 1, 1);
	ROW(atomic_add(1, &dummy), 0, 0, 0);
	ROW(v += atomic_add_return(1, &dummy), 1, 1, 1);
	ROW(v += atomic_add_return_acquire(1, &dummy), 0, 0, 0);
	ROW(v += atomic_add_return_release(1, &dummy), 1, 1, 1);
	ROW(v += atomic_add_return_relaxed(1, &dummy), 0, 0, 0);
	ROW(v += atomic_fetch_add(1, &dummy), 1, 1, 1);
	ROW(v += atomic_fetch_add_acquire(1, &dummy), 0, 0, 0);
	ROW(v += atomic_fetch_add_release(1, &dummy), 1, 1, 1);
	ROW(v += atomic_fetch_add_relaxed(1, &dummy), 0, 0, 0);
	ROW(v += test_and_set_bit(0, &test_var), 1, 1, 1);
	ROW(v += test_and_clear_bit(0, &test_var), 1, 1, 1);
	ROW(v += test_and_change_bit(0, &test_var), 1, 1, 1);
	ROW(clear_bit_unlock(0, &test_var), 1, 1, 1);
	/* kernel spin_lock / mutex_lock rows, with pthread locks */
	ROW_PAIR(pthread_spin_lock(&spin), pthread_spin_unlock(&spin));
	ROW_PAIR(pthread_mutex_lock(&mutex), pthread_mutex_unlock(&mutex));

	/* Beyond the seeds' table: the rest of lkmm.h and of the pthreads. */
	ROW(v += READ_ONCE(test_var), 0, 0, 0);
	ROW(WRITE_ONCE(test_var, 1), 0, 0, 0);
	ROW(barrier(), 0, 0, 0);
	ROW(v += xchg_acquire(&test_var, 0), 0, 0, 0);
	ROW(v += cmpxchg_acquire(&test_var, 0, 0), 0, 0, 0);
	ROW(atomic_inc(&dummy), 0, 0, 0);
	ROW(atomic_sub(1, &dummy), 0, 0, 0);
	ROW(v += atomic_inc_return(&dummy), 1, 1, 1);
	ROW(v += atomic_dec_return_relaxed(&dummy), 0, 0, 0);
	ROW(v += atomic_fetch_or(1, &dummy), 1, 1, 1);
	ROW(v += atomic_fetch_xor_release(1, &dummy), 1, 1, 1);
	ROW(v += atomic_fetch_and_acquire(1, &dummy), 0, 0, 0);
	ROW(v += atomic_xchg(&dummy, 0), 1, 1, 1);
	ROW(v += atomic_cmpxchg(&dummy, 0, 0), 1, 1, 1);
	ROW(v += atomic_cmpxchg_relaxed(&dummy, 0, 0), 0, 0, 0);
	ROW(set_bit(1, &test_var), 0, 0, 0);
	ROW(clear_bit(1, &test_var), 0, 0, 0);
	ROW(change_bit(1, &test_var), 0, 0, 0);
	ROW(v += test_and_set_bit_lock(2, &test_var), 0, 0, 0);
	ROW_PAIR(pthread_rwlock_rdlock(&rwlock), pthread_rwlock_unlock(&rwlock));
	ROW_PAIR(pthread_rwlock_wrlock(&rwlock), pthread_rwlock_unlock(&rwlock));
	ROW_PAIR(sem_wait(&sem), sem_post(&sem));
	ROW_PAIR(pthread_mutex_trylock(&mutex), pthread_mutex_unlock(&mutex));
	ROW(pthread_cond_signal(&cond), 1, 1, 1);
	ROW(pthread_cond_broadcast(&cond), 1, 1, 1);

	printf("barrier_lkmm: %d checks passed, %d failed (v=%ld)\n", passed, failed, v);
	return failed ? 1 : 0;
}
