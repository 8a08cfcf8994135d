/*
 * corpus: gnu-atomic-release-acquire
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: GNU __atomic_store_n(__ATOMIC_RELEASE) publishes and __atomic_load_n
 *        (__ATOMIC_ACQUIRE) consumes: the release/acquire pair orders the plain buffer
 *        write before the plain buffer read.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPIN_LIMIT (1L << 22)

static char name[32];
static int name_set;

static void *set_name(void *arg)
{
	(void)arg;
	name[0] = 'k';
	__atomic_store_n(&name_set, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *get_name(void *arg)
{
	char *out = arg;
	long spins = 0;

	while (!__atomic_load_n(&name_set, __ATOMIC_ACQUIRE)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = name[0];
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t s, g;
		char seen = '?';

		memset(name, 0, sizeof(name));
		name_set = 0;
		pthread_create(&g, NULL, get_name, &seen);
		pthread_create(&s, NULL, set_name, NULL);
		pthread_join(s, NULL);
		pthread_join(g, NULL);
		if (seen == '?')
			timeouts++;
		else if (seen != 'k')
			stale++;
	}
	printf("gnu-atomic-release-acquire: %d iterations, %d empty names, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
