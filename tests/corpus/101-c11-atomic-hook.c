/*
 * corpus: c11-atomic-hook
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: The twin of 100 with the hook an _Atomic function pointer, stored and loaded with
 *        relaxed atomics: each access is atomic, and the hook publishes no data of its own,
 *        so no order is needed.  The same code base and the same threads as 100.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef void hook_fn(int);

static atomic_ulong calls_a, calls_b;

static void hook_a(int v) { atomic_fetch_add_explicit(&calls_a, (unsigned long)v, memory_order_relaxed); }
static void hook_b(int v) { atomic_fetch_add_explicit(&calls_b, (unsigned long)v, memory_order_relaxed); }

/* installed by one thread, called by others: an atomic */
static hook_fn *_Atomic log_hook = hook_a;

static void *installer(void *arg)
{
	long rounds = *(long *)arg;

	for (long i = 0; i < rounds; i++)
		atomic_store_explicit(&log_hook, (i & 1) ? hook_a : hook_b, memory_order_relaxed);
	return NULL;
}

static void *logger(void *arg)
{
	long rounds = *(long *)arg;

	for (long i = 0; i < rounds; i++) {
		hook_fn *h = atomic_load_explicit(&log_hook, memory_order_relaxed);

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
	printf("c11-atomic-hook: %lu + %lu calls\n", atomic_load(&calls_a), atomic_load(&calls_b));
	return 0;
}
