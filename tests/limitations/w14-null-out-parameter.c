/*
 * limitation: W14 (docs/limitations.md)
 * lkmm: no-race
 * about: _add(n, ret) writes *ret only when ret != NULL. add() passes NULL,
 *        add_unique() a private local. For the NULL call the write has no object
 *        and is keyed by its type, which every thread shares.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <stddef.h>

struct it { void *node, *next; };
static int flag;

static void _add(void *n, struct it *ret)
{
	if (ret) {
		struct it d = { n, NULL };
		*ret = d;
	}
}
static void add(void *n) { _add(n, NULL); }
static void *add_unique(void *n) { struct it iter; _add(n, &iter); return iter.node; }

static void *thr(void *a)
{
	for (int i = 0; i < 10; i++) {
		if (READ_ONCE(flag))
			add(a);
		else
			add_unique(a);
		WRITE_ONCE(flag, 1);
	}
	return a;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], 0, thr, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
