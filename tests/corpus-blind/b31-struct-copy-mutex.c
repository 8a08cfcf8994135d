/*
 * corpus: struct-copy-mutex
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Settings replaced and snapshotted by whole-struct copies, always under one
 *        mutex. A lockless READ_ONCE(gen) tells the reader when to take a new snapshot,
 *        but the settings themselves are only ever touched with the mutex held.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

struct settings {
	int speed;
	int limit;
	char name[8];
};

static struct settings live;
static int gen;
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;

static void *admin(void *arg)
{
	(void)arg;
	for (int k = 1; k <= 20; k++) {
		struct settings n = { .speed = k, .limit = 2 * k, .name = "eth0" };

		pthread_mutex_lock(&set_lock);
		live = n;
		WRITE_ONCE(gen, READ_ONCE(gen) + 1);
		pthread_mutex_unlock(&set_lock);
	}
	return NULL;
}

static void *client(void *arg)
{
	int *bad = arg;
	int last = 0;

	for (int n = 0; n < 200; n++) {
		struct settings snap;

		if (READ_ONCE(gen) == last)
			continue;
		pthread_mutex_lock(&set_lock);
		snap = live;
		last = READ_ONCE(gen);
		pthread_mutex_unlock(&set_lock);
		*bad += snap.limit != 2 * snap.speed;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		live = (struct settings){ 0 };
		gen = 0;
		BL_RUN2(admin, NULL, client, &bad);
	}
	printf("struct-copy-mutex: %d iterations, %d torn\n", iters, bad);
	return 0;
}
