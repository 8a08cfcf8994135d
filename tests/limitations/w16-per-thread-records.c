/*
 * limitation: W16 (docs/limitations.md)
 * lkmm: no-race
 * about: Each thread allocates its own record and registers it on a global list
 *        so that a scanner can read its 'active' field. 'count' is touched by the
 *        owner only, but once the record is registered all its fields are one
 *        object for every thread.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <stdlib.h>

struct rec { int count; int active; struct rec *next; };
static struct rec *recs;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static int go;

static void *worker(void *a)
{
	struct rec *r = malloc(sizeof(*r));

	if (!r)
		abort();
	r->count = 0;
	r->active = 0;
	pthread_mutex_lock(&reg_lock);
	r->next = recs;
	recs = r;
	pthread_mutex_unlock(&reg_lock);
	for (int i = 0; i < 100; i++) {
		if (READ_ONCE(go))
			r->count++;
		WRITE_ONCE(go, 1);
		WRITE_ONCE(r->active, r->count & 1);
	}
	return a;
}

static void *scanner(void *a)
{
	int n = 0;

	pthread_mutex_lock(&reg_lock);
	for (struct rec *p = recs; p; p = p->next)
		n += READ_ONCE(p->active);
	pthread_mutex_unlock(&reg_lock);
	return (void *)(long)n;
}

int main(void)
{
	pthread_t t[3];

	pthread_create(&t[0], 0, worker, 0);
	pthread_create(&t[1], 0, worker, 0);
	pthread_create(&t[2], 0, scanner, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], 0);
	return 0;
}
