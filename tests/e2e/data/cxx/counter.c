/* counter.c — instrumented C code that the C++ program cmain.cpp links:
 * a counter under a pthread mutex (correct: no report). */
#include <pthread.h>

#include "counter.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long count;

void counter_add(long n)
{
	pthread_mutex_lock(&lock);
	count += n;
	pthread_mutex_unlock(&lock);
}

long counter_get(void)
{
	long v;

	pthread_mutex_lock(&lock);
	v = count;
	pthread_mutex_unlock(&lock);
	return v;
}
