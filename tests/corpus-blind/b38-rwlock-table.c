/*
 * corpus: rwlock-table
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A lookup table updated under the rwlock's write lock and read by two threads
 *        under its read lock. Readers may run together (reads only); the writer excludes
 *        them. No race.
 */
#include "bl.h"

#define TB 8

static struct {
	pthread_rwlock_t lk;
	int key[TB];
	int val[TB];
} tbl = { .lk = PTHREAD_RWLOCK_INITIALIZER };

static void *rebuild(void *arg)
{
	(void)arg;
	for (int r = 1; r <= 10; r++) {
		pthread_rwlock_wrlock(&tbl.lk);
		for (int i = 0; i < TB; i++) {
			tbl.key[i] = i;
			tbl.val[i] = i * r;
		}
		pthread_rwlock_unlock(&tbl.lk);
	}
	return NULL;
}

static void *query(void *arg)
{
	int *bad = arg;

	for (int n = 0; n < 10; n++) {
		int v1, v2;

		pthread_rwlock_rdlock(&tbl.lk);
		v1 = tbl.val[1];
		v2 = tbl.val[2];
		pthread_rwlock_unlock(&tbl.lk);
		*bad += v2 != 2 * v1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad1 = 0, bad2 = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, r1, r2;

		for (int k = 0; k < TB; k++)
			tbl.key[k] = tbl.val[k] = 0;
		pthread_create(&r1, NULL, query, &bad1);
		pthread_create(&r2, NULL, query, &bad2);
		pthread_create(&w, NULL, rebuild, NULL);
		pthread_join(w, NULL);
		pthread_join(r1, NULL);
		pthread_join(r2, NULL);
	}
	printf("rwlock-table: %d iterations, %d bad\n", iters, bad1 + bad2);
	return 0;
}
