/* bl.h — tiny helpers shared by the blind-test programs (no memory-model primitives). */
#ifndef BL_H
#define BL_H
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define BL_LIMIT (1L << 22)

/* Returns 0 once the wait must give up; yields every 128 spins. */
static inline int bl_keep_waiting(long *spins)
{
	if (++*spins > BL_LIMIT)
		return 0;
	if (!(*spins & 127))
		sched_yield();
	return 1;
}

static inline int bl_iters(int argc, char **argv)
{
	return argc > 1 ? atoi(argv[1]) : 2000;
}

#define BL_RUN2(f1, a1, f2, a2)					\
	do {							\
		pthread_t _t1, _t2;				\
		pthread_create(&_t2, NULL, f2, a2);		\
		pthread_create(&_t1, NULL, f1, a1);		\
		pthread_join(_t1, NULL);			\
		pthread_join(_t2, NULL);			\
	} while (0)
#endif
