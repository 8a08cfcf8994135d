/*
 * limitation: W15 (docs/limitations.md)
 * lkmm: no-race
 * about: map.c is linked into two programs. In program a one writer thread calls
 *        map_put() and reads back its own writes; its readers only call
 *        map_get(). Program b runs map_put() in a thread of its own on its own
 *        map. The two programs' start routines are taken to run together.
 */
#include "map.h"
#include <pthread.h>
static struct map m;
static void *reader(void *arg) { (void)arg; return (void *)(long)map_get(&m); }
static void *writer(void *arg)
{
	for (int i = 0; i < 10; i++) {
		map_put(&m);
		if (map_get(&m) > 5)
			m.n_entries = 0;
	}
	return arg;
}
int main(void)
{
	pthread_t t[2];
	pthread_create(&t[0], 0, reader, 0);
	pthread_create(&t[1], 0, writer, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
