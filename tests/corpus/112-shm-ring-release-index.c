/*
 * corpus: shm-ring-release-index
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * profile: shm_ring external none
 * about: The same ring with the index published by smp_store_release(): the slot write is
 *        ordered before it, for the consumer process as for any reader.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kcsan/lkmm.h>

#define NSLOTS 16u
#define SPIN_LIMIT (1L << 22)

struct shm_ring {
	unsigned head;          /* written by the producer */
	unsigned tail;          /* written by the consumer */
	long slot[NSLOTS];
};

static struct shm_ring *ring;

static void *producer(void *arg)
{
	long n = (long)arg;

	for (long v = 1; v <= n; v++) {
		unsigned h = ring->head;
		long spins = 0;

		while (h - smp_load_acquire(&ring->tail) == NSLOTS && spins++ < SPIN_LIMIT)
			if (spins % 128 == 127)
				sched_yield();
		ring->slot[h % NSLOTS] = v;
		smp_store_release(&ring->head, h + 1);
	}
	return NULL;
}

/* The child process: takes N values in order; its exit status says how
 * many were not the expected ones (at most 255). */
static int consume(long n)
{
	long next = 1, bad = 0, spins = 0;
	unsigned t = 0;

	while (next <= n && spins++ < SPIN_LIMIT) {
		if (smp_load_acquire(&ring->head) == t) {
			if (spins % 128 == 127)
				sched_yield();
			continue;
		}
		bad += ring->slot[t % NSLOTS] != next;
		next++;
		smp_store_release(&ring->tail, ++t);
	}
	return bad > 255 ? 255 : (int)bad;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	long bad = 0;

	ring = mmap(NULL, sizeof *ring, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ring == MAP_FAILED)
		return 1;
	for (int i = 0; i < iters; i++) {
		pthread_t p;
		pid_t child;
		int status;

		ring->head = ring->tail = 0;
		child = fork();
		if (child < 0)
			return 1;
		if (child == 0)
			_exit(consume(64));
		pthread_create(&p, NULL, producer, (void *)64L);
		pthread_join(p, NULL);
		if (waitpid(child, &status, 0) == child && WIFEXITED(status))
			bad += WEXITSTATUS(status);
	}
	printf("shm-ring-release-index: %d iterations, %ld values out of order\n", iters, bad);
	return 0;
}
