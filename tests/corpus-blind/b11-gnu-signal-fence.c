/*
 * corpus: gnu-signal-fence
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: The writer releases posted; the reader loads it relaxed and then issues
 *        __atomic_signal_fence(__ATOMIC_ACQUIRE), a compiler-only fence that synchronises
 *        only with a signal handler in the same thread. No acquire: the mailbox races.
 */
#include "bl.h"

static int mailbox[2];
static int posted;

static void *poster(void *arg)
{
	(void)arg;
	mailbox[0] = 11;		// RACE(writer)
	mailbox[1] = 22;		// RACE(writer)
	__atomic_store_n(&posted, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *fetcher(void *arg)
{
	int *bad = arg;
	long spins = 0;
	int a, b;

	while (!__atomic_load_n(&posted, __ATOMIC_RELAXED))
		if (!bl_keep_waiting(&spins))
			return NULL;
	__atomic_signal_fence(__ATOMIC_ACQUIRE);
	a = mailbox[0];			// RACE(reader)
	b = mailbox[1];			// RACE(reader)
	*bad += a + b != 33;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		mailbox[0] = mailbox[1] = 0;
		posted = 0;
		BL_RUN2(poster, NULL, fetcher, &bad);
	}
	printf("gnu-signal-fence: %d iterations, %d bad\n", iters, bad);
	return 0;
}
