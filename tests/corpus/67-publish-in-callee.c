/*
 * corpus: publish-in-callee
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: no
 * about: The caller makes the plain store and then calls a helper, mark_ready(), whose
 *        WRITE_ONCE() is the publication; the reader uses smp_load_acquire(). The store is
 *        unordered before the flag even though the two sit in different functions.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct buffer_head {
	char data[64];
	unsigned long state;
};

#define BH_UPTODATE 1UL

static struct buffer_head bh;

static void mark_ready(struct buffer_head *b)
{
	WRITE_ONCE(b->state, BH_UPTODATE);
}

static void *read_block(void *arg)
{
	struct buffer_head *b = &bh;

	b->data[0] = *(char *)arg;		// RACE(writer)
	mark_ready(b);
	return NULL;
}

static void *wait_block(void *arg)
{
	struct buffer_head *b = &bh;
	char *out = arg;
	long spins = 0;

	while (!(smp_load_acquire(&b->state) & BH_UPTODATE)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = b->data[0];		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int stale = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t r, w;
		char c = (char)('a' + i % 26);
		char seen = 0;

		bh.data[0] = 0;
		bh.state = 0;
		pthread_create(&w, NULL, wait_block, &seen);
		pthread_create(&r, NULL, read_block, &c);
		pthread_join(r, NULL);
		pthread_join(w, NULL);
		if (seen == 0)
			timeouts++;
		else if (seen != c)
			stale++;
	}
	printf("publish-in-callee: %d iterations, %d stale blocks, %d timeouts\n", iters, stale, timeouts);
	return 0;
}
