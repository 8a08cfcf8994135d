/*
 * corpus: gnu-atomic-relaxed
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: yes
 * about: GNU __atomic_store_n/__atomic_load_n with __ATOMIC_RELAXED on the flag: no
 *        ordering on either side, so the plain accesses to the shared buffer race.
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
	name[0] = 'k';		// RACE(writer)
	__atomic_store_n(&name_set, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *get_name(void *arg)
{
	char *out = arg;
	long spins = 0;

	while (!__atomic_load_n(&name_set, __ATOMIC_RELAXED)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = name[0];		// RACE(reader)
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
	printf("gnu-atomic-relaxed: %d iterations, %d empty names, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
