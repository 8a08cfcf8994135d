/*
 * corpus: channel-set-release
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: A channel struct with an atomic_t state: the sender fills the payload array and
 *        calls atomic_set_release(&state, FULL); the receiver polls through a getter
 *        using atomic_read_acquire(), then reads the payload and hands the slot back
 *        with atomic_set_release(&state, EMPTY), which main observes after join.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

enum { CH_EMPTY, CH_FULL };

struct chan {
	int payload[3];
	atomic_t state;
};

static struct chan CH;

static inline int ch_state(struct chan *c)
{
	return atomic_read_acquire(&c->state);
}

static void *send(void *arg)
{
	struct chan *c = arg;

	for (int i = 0; i < 3; i++)
		c->payload[i] = 100 + i;
	atomic_set_release(&c->state, CH_FULL);
	return NULL;
}

static void *recv(void *arg)
{
	struct chan *c = arg;
	long spins = 0, sum = 0;

	while (ch_state(c) != CH_FULL)
		if (!bl_keep_waiting(&spins))
			return NULL;
	for (int i = 0; i < 3; i++)
		sum += c->payload[i];
	if (sum != 303)
		fprintf(stderr, "bad payload\n");
	atomic_set_release(&c->state, CH_EMPTY);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		for (int k = 0; k < 3; k++)
			CH.payload[k] = 0;
		atomic_set(&CH.state, CH_EMPTY);
		BL_RUN2(send, &CH, recv, &CH);
	}
	printf("channel-set-release: %d iterations\n", iters);
	return 0;
}
