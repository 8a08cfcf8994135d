/*
 * limitation: W11 (docs/limitations.md)
 * lkmm: no-race
 * about: The fork handlers take the lock in before_fork() and release it in
 *        after_fork(), which writes 'count' while holding it. A lock taken in one
 *        function and released in another is not credited.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int count;

static void before_fork(void)
{
	pthread_mutex_lock(&m);
}

static void after_fork(void)
{
	count = 0;
	pthread_mutex_unlock(&m);
}

static void *worker(void *a)
{
	pthread_mutex_lock(&m);
	count++;
	pthread_mutex_unlock(&m);
	return a;
}

int main(void)
{
	pthread_t t[2];

	pthread_atfork(before_fork, after_fork, after_fork);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], 0, worker, 0);
	if (fork() == 0)
		_exit(0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
