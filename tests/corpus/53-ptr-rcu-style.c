/*
 * corpus: ptr-rcu-style
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: RCU-style configuration replacement with local rcu_assign_pointer() (a release
 *        store) and rcu_dereference() (READ_ONCE) stand-ins: readers follow the pointer and
 *        read fields through it (address dependency). Old versions are never freed here.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

/* User-space stand-ins with the kernel's ordering semantics. */
#define rcu_assign_pointer(p, v)	smp_store_release(&(p), (v))
#define rcu_dereference(p)		READ_ONCE(p)

#define READS 200

struct config {
	int timeout_ms;
	int retries;
};

static struct config cfg_default = { 1000, 3 };
static struct config cfg_pool[2];
static struct config *active_cfg = &cfg_default;

static void *reconfigure(void *arg)
{
	struct config *newc = &cfg_pool[*(int *)arg & 1];

	newc->timeout_ms = 250;
	newc->retries = 5;
	rcu_assign_pointer(active_cfg, newc);
	return NULL;
}

static void *client(void *arg)
{
	long bad = 0;

	(void)arg;
	for (int i = 0; i < READS; i++) {
		struct config *c = rcu_dereference(active_cfg);
		int t = c->timeout_ms;
		int r = c->retries;

		if (!(t == 1000 && r == 3) && !(t == 250 && r == 5))
			bad++;
	}
	return (void *)bad;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long bad = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t w, c;
		int slot = i;
		void *b;

		cfg_pool[i & 1].timeout_ms = 0;
		cfg_pool[i & 1].retries = 0;
		active_cfg = &cfg_default;
		pthread_create(&c, NULL, client, NULL);
		pthread_create(&w, NULL, reconfigure, &slot);
		pthread_join(w, NULL);
		pthread_join(c, &b);
		bad += (long)b;
	}
	printf("ptr-rcu-style: %d iterations, %ld inconsistent configs seen\n", iters, bad);
	return 0;
}
