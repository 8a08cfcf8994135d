/*
 * interpose.c — synchronisation the compiler does not instrument, with its
 * real ordering for the weak-memory model.
 *
 * The program's calls to these pthread / semaphore functions bind to the
 * definitions below (they are in the executable, which comes first in the
 * symbol lookup order); each one applies the ordering, then calls the real
 * function found with dlsym(RTLD_NEXT).
 *
 * Ordering (POSIX "memory synchronization", LKMM view of locks):
 *   release: pthread_mutex_unlock, pthread_spin_unlock, pthread_rwlock_unlock,
 *            pthread_cond_wait / timedwait (they unlock the mutex first),
 *            pthread_cond_signal / broadcast, sem_post, pthread_create (the
 *            new thread sees everything before the call),
 *            pthread_barrier_wait (release + acquire)
 *            -> end the thread's delayed access *before* the real call.
 *            pthread_create also starts the new thread through
 *            start_thread, which gives it an alternate signal stack
 *            (overflow.c) before the program's start routine runs.
 *   acquire: mutex/spin/rwlock lock and trylock, sem_wait, pthread_join:
 *            acquires end no delayed access (the model only delays accesses,
 *            it never moves later ones earlier), so they need no wrapper and
 *            have none (fewer wrappers, fewer ways to break a program).
 *
 * Robustness rules:
 *   - A wrapper never blocks or fails on its own: it ends the delayed access
 *     (a few stores to thread-local memory) and forwards; inside the runtime
 *     (ctx->in_rt) it only forwards.
 *   - The real functions are resolved once; resolution uses dlsym, which
 *     does not call these public functions (glibc's loader uses internal
 *     locks).  kcsan_interpose_init() resolves all of them early, from
 *     __tsan_init (module constructors, normally single-threaded).
 *   - pthread_cond_* exist in two versions in glibc on x86-64; dlsym may
 *     return the old (GLIBC_2.2.5) one, whose condvar layout differs, so the
 *     current one is asked for by version first (as libtsan does).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kcsan_rt.h"

#define ABI __attribute__((visibility("default")))

static void *resolve(const char *name, const char *version)
{
	void *p = NULL;

	if (version)
		p = dlvsym(RTLD_NEXT, name, version);
	if (!p)
		p = dlsym(RTLD_NEXT, name);
	if (!p) {
		static const char msg[] = "kcsan: cannot find the real function ";

		/* Nothing to forward to: continuing would be wrong. */
		if (write(2, msg, sizeof(msg) - 1) < 0 || write(2, name, strlen(name)) < 0 ||
		    write(2, "\n", 1) < 0) {
			/* stderr gone too */
		}
		abort();
	}
	return p;
}

/* The cached pointer is written once with the same value by whichever
 * thread resolves first: relaxed atomics suffice (the pointee is code). */
#define REAL_FN(ret, name, version, params)					\
	typedef ret (*name##_fn) params;					\
	static name##_fn real_##name;						\
	static name##_fn get_real_##name(void)					\
	{									\
		name##_fn f = __atomic_load_n(&real_##name, __ATOMIC_RELAXED);	\
		if (!f) {							\
			f = (name##_fn)resolve(#name, version);			\
			__atomic_store_n(&real_##name, f, __ATOMIC_RELAXED);	\
		}								\
		return f;							\
	}

#ifdef __x86_64__
# define COND_VERSION "GLIBC_2.3.2"
#else
# define COND_VERSION NULL
#endif

REAL_FN(int, pthread_mutex_unlock, NULL, (pthread_mutex_t *))
REAL_FN(int, pthread_spin_unlock, NULL, (pthread_spinlock_t *))
REAL_FN(int, pthread_rwlock_unlock, NULL, (pthread_rwlock_t *))
REAL_FN(int, pthread_cond_wait, COND_VERSION, (pthread_cond_t *, pthread_mutex_t *))
REAL_FN(int, pthread_cond_timedwait, COND_VERSION,
	(pthread_cond_t *, pthread_mutex_t *, const struct timespec *))
REAL_FN(int, pthread_cond_signal, COND_VERSION, (pthread_cond_t *))
REAL_FN(int, pthread_cond_broadcast, COND_VERSION, (pthread_cond_t *))
REAL_FN(int, sem_post, NULL, (sem_t *))
REAL_FN(int, pthread_barrier_wait, NULL, (pthread_barrier_t *))
REAL_FN(int, pthread_create, NULL,
	(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))

void kcsan_interpose_init(void);
void kcsan_interpose_init(void)
{
	get_real_pthread_mutex_unlock();
	get_real_pthread_spin_unlock();
	get_real_pthread_rwlock_unlock();
	get_real_pthread_cond_wait();
	get_real_pthread_cond_timedwait();
	get_real_pthread_cond_signal();
	get_real_pthread_cond_broadcast();
	get_real_sem_post();
	get_real_pthread_barrier_wait();
	get_real_pthread_create();
	kcsan_membarrier_init();
}

ABI int pthread_mutex_unlock(pthread_mutex_t *m)
{
	kcsan_sync_release();
	return get_real_pthread_mutex_unlock()(m);
}

ABI int pthread_spin_unlock(pthread_spinlock_t *l)
{
	kcsan_sync_release();
	return get_real_pthread_spin_unlock()(l);
}

ABI int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	kcsan_sync_release();
	return get_real_pthread_rwlock_unlock()(l);
}

ABI int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	kcsan_sync_release();
	return get_real_pthread_cond_wait()(c, m);
}

ABI int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
			       const struct timespec *t)
{
	kcsan_sync_release();
	return get_real_pthread_cond_timedwait()(c, m, t);
}

ABI int pthread_cond_signal(pthread_cond_t *c)
{
	kcsan_sync_release();
	return get_real_pthread_cond_signal()(c);
}

ABI int pthread_cond_broadcast(pthread_cond_t *c)
{
	kcsan_sync_release();
	return get_real_pthread_cond_broadcast()(c);
}

ABI int sem_post(sem_t *s)
{
	kcsan_sync_release();
	return get_real_sem_post()(s);
}

ABI int pthread_barrier_wait(pthread_barrier_t *b)
{
	kcsan_sync_release();
	return get_real_pthread_barrier_wait()(b);
}

/* The new thread runs kcsan_thread_start (overflow.c: its alternate signal
 * stack) before the program's start routine.  The start record is freed
 * by the new thread, or here if no thread was created. */
struct thread_start {
	void *(*fn)(void *);
	void *arg;
};

static void *start_thread(void *p)
{
	struct thread_start st = *(struct thread_start *)p;

	free(p);
	kcsan_thread_start();
	return st.fn(st.arg);
}

ABI int pthread_create(pthread_t *t, const pthread_attr_t *attr,
		       void *(*fn)(void *), void *arg)
{
	struct thread_start *st;
	int r;

	kcsan_sync_release();
	/* No record, no start hook: the thread still runs, without an
	 * alternate stack. */
	st = kcsan_opts.handle_segv ? malloc(sizeof(*st)) : NULL;
	if (!st)
		return get_real_pthread_create()(t, attr, fn, arg);
	st->fn = fn;
	st->arg = arg;
	r = get_real_pthread_create()(t, attr, start_thread, st);
	if (r)
		free(st);
	return r;
}
