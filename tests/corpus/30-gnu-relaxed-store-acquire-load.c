/*
 * corpus: gnu-relaxed-store-acquire-load
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The reader uses __atomic_load_n(__ATOMIC_ACQUIRE) but the writer publishes with
 *        __atomic_store_n(__ATOMIC_RELAXED): an acquire load needs a release store to
 *        synchronize with, so the plain user_id write races with the read.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)

struct session {
	unsigned int user_id;
	unsigned long cookie;
};

static struct session sess;

static void *login(void *arg)
{
	struct session *s = &sess;

	s->user_id = *(unsigned int *)arg;		// RACE(writer)
	__atomic_store_n(&s->cookie, 0xc0ffeeUL, __ATOMIC_RELAXED);
	return NULL;
}

static void *check(void *arg)
{
	struct session *s = &sess;
	unsigned int *out = arg;
	long spins = 0;

	while (__atomic_load_n(&s->cookie, __ATOMIC_ACQUIRE) == 0) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = s->user_id;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t l, c;
		unsigned int uid = 1000u + (unsigned int)i;
		unsigned int seen = 0;

		sess.user_id = 0;
		sess.cookie = 0;
		pthread_create(&c, NULL, check, &seen);
		pthread_create(&l, NULL, login, &uid);
		pthread_join(l, NULL);
		pthread_join(c, NULL);
		if (seen == 0)
			timeouts++;
		else if (seen != uid)
			stale++;
	}
	printf("gnu-relaxed-store-acquire-load: %d iterations, %d wrong users, %d timeouts\n",
	       iters, stale, timeouts);
	return 0;
}
