/*
 * corpus: mp-atomic-set-release
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: atomic_t state flag published with atomic_set_release() and polled with
 *        atomic_read_acquire(); the plain fields written before the release are read
 *        after the acquire. Correct release/acquire pairing.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

enum { DEV_DOWN, DEV_UP };

struct device {
	int irq;
	int mtu;
	atomic_t state;
};

static struct device dev0;

static void *bring_up(void *arg)
{
	struct device *d = arg;

	d->irq = 17;
	d->mtu = 1500;
	atomic_set_release(&d->state, DEV_UP);
	return NULL;
}

static void *xmit(void *arg)
{
	struct device *d = arg;
	long spins = 0;
	int irq, mtu;

	while (atomic_read_acquire(&d->state) != DEV_UP) {
		if (++spins > SPIN_LIMIT)
			return (void *)0;
		if (!(spins & 127))
			sched_yield();
	}
	irq = d->irq;
	mtu = d->mtu;
	return (void *)(long)(irq == 17 && mtu == 1500 ? 1 : 2);
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t u, x;
		void *res;

		dev0.irq = 0;
		dev0.mtu = 0;
		atomic_set(&dev0.state, DEV_DOWN);
		pthread_create(&x, NULL, xmit, &dev0);
		pthread_create(&u, NULL, bring_up, &dev0);
		pthread_join(u, NULL);
		pthread_join(x, &res);
		if (res == (void *)0)
			timeouts++;
		else if (res == (void *)2)
			bad++;
	}
	printf("mp-atomic-set-release: %d iterations, %d half-initialised devices, %d timeouts\n",
	       iters, bad, timeouts);
	return 0;
}
