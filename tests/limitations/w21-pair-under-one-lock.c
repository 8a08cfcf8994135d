/*
 * limitation: W21 (docs/limitations.md)
 * lkmm: race
 * about: get() reads arr_len after a READ_ONCE of arr without an acquire: a real
 *        race when fast() calls it without the lock (the one finding expected,
 *        EXPECT below). setup() calls get() and then alloc_arr() with the lock
 *        held, and alloc_arr() writes arr_len with it held: those accesses share
 *        the lock and cannot race, yet they are reported too.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <stdlib.h>

static int *arr;
static int arr_len;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void alloc_arr(int n)
{
	int *p = calloc(n, sizeof(int));

	if (!p)
		abort();
	arr_len = n;				// RACE(writer)
	for (int i = 0; i < arr_len; i++)
		p[i] = i;
	smp_store_release(&arr, p);
}

static int get(int i)
{
	int *p = READ_ONCE(arr);

	if (p == NULL || i >= arr_len)		// RACE(reader) // EXPECT: missing-acquire
		return -1;
	return p[i];
}

static void *setup(void *a)
{
	pthread_mutex_lock(&m);
	if (get(0) < 0)
		alloc_arr(4);
	pthread_mutex_unlock(&m);
	return a;
}

static void *fast(void *a)
{
	return (void *)(long)get(1);
}

int main(void)
{
	pthread_t t[3];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], 0, setup, 0);
	pthread_create(&t[2], 0, fast, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], 0);
	return 0;
}
