/*
 * limitation: W4 (docs/limitations.md)
 * lkmm: race
 * about: Each worker registers its own local record on a global list through a
 *        helper (register_rec(&mine)), then counts into it without the lock, while
 *        the scanner reads every registered record under the lock: a real race.
 *        The helper links the local into shared memory, but a local whose address
 *        is passed to a call is taken to stay private: the race is missed.
 *        Registering inline (recs = &mine in the worker) is found.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>

struct rec { long val; struct rec *next; };
static struct rec *recs;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static int stop;

static void register_rec(struct rec *r)
{
	pthread_mutex_lock(&reg_lock);
	r->next = recs;
	recs = r;
	pthread_mutex_unlock(&reg_lock);
}

static void *worker(void *a)
{
	struct rec mine = { 0, 0 };

	register_rec(&mine);
	while (!READ_ONCE(stop))
		mine.val++;		// RACE(writer)
	return a;
}

static void *scanner(void *a)
{
	long sum = 0;

	pthread_mutex_lock(&reg_lock);
	for (struct rec *p = recs; p; p = p->next)
		sum += p->val;		// RACE(reader)
	pthread_mutex_unlock(&reg_lock);
	WRITE_ONCE(stop, 1);
	return (void *)sum;
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], 0, worker, 0);
	pthread_create(&t[1], 0, scanner, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
