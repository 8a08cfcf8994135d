/*
 * corpus: c11-volatile-hook
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: no
 * about: A C11 program that counts its messages with an _Atomic counter but keeps its
 *        output hook in a volatile function pointer: one thread installs hooks while
 *        another calls through the pointer.  C11 makes no volatile access atomic, so the
 *        store and the load of the hook are a data race (mimalloc's mi_out_default and
 *        deferred_free, fixed by making them atomics).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef void hook_fn(int);

static atomic_ulong calls_a, calls_b;

static void hook_a(int v) { atomic_fetch_add_explicit(&calls_a, (unsigned long)v, memory_order_relaxed); }
static void hook_b(int v) { atomic_fetch_add_explicit(&calls_b, (unsigned long)v, memory_order_relaxed); }

/* installed by one thread, called by others: declared volatile, not _Atomic */
static hook_fn *volatile log_hook = hook_a;

static void *installer(void *arg)
{
	long rounds = *(long *)arg;

	for (long i = 0; i < rounds; i++)
		log_hook = (i & 1) ? hook_a : hook_b;	// RACE(writer)
	return NULL;
}

static void *logger(void *arg)
{
	long rounds = *(long *)arg;

	for (long i = 0; i < rounds; i++) {
		hook_fn *h = log_hook;		// RACE(reader)

		h(1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) * 20 : 20000;
	pthread_t w, r;

	pthread_create(&w, NULL, installer, &rounds);
	pthread_create(&r, NULL, logger, &rounds);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("c11-volatile-hook: %lu + %lu calls\n", atomic_load(&calls_a), atomic_load(&calls_b));
	return 0;
}
