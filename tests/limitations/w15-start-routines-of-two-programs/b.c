/* W15: program b; see a.c */
#include "map.h"
#include <pthread.h>
static struct map bm;
static void *worker(void *arg) { map_put(&bm); return (void *)(long)map_get(&bm); }
int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, 0);
	return 0;
}
