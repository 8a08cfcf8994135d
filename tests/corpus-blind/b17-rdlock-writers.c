/*
 * corpus: rdlock-writers
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: no
 * about: Two threads bump a counter while holding the rwlock for *reading*; read locks
 *        are shared, so the two increments run concurrently: a plain read-modify-write
 *        race (and lost updates) despite the lock.
 */
#include "bl.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static long hits;

static void *bump(void *arg)
{
	(void)arg;
	for (int k = 0; k < 100; k++) {
		pthread_rwlock_rdlock(&rw);
		hits++;			// RACE(writer) RACE(reader)
		pthread_rwlock_unlock(&rw);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), lost = 0;

	for (int i = 0; i < iters; i++) {
		hits = 0;
		BL_RUN2(bump, NULL, bump, NULL);
		lost += hits != 200;
	}
	printf("rdlock-writers: %d iterations, %d with lost updates\n", iters, lost);
	return 0;
}
