/*
 * corpus: multi-field-wmb
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Fixed twin of multi-field-once: an smp_wmb() after the three field writes orders
 *        them all before WRITE_ONCE(valid), and the reader acquires the flag.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

struct pkt_hdr {
	uint16_t proto;
	uint16_t len;
	uint32_t seq;
	int valid;
};

static struct pkt_hdr hdr;

static void hdr_publish(struct pkt_hdr *h, uint32_t seq)
{
	h->proto = 0x0800;
	h->len = 1500;
	h->seq = seq;
	smp_wmb();
	WRITE_ONCE(h->valid, 1);
}

static void *rx(void *arg)
{
	hdr_publish(&hdr, *(uint32_t *)arg);
	return NULL;
}

static void *parse(void *arg)
{
	struct pkt_hdr *h = &hdr;
	uint32_t *out = arg;
	long spins = 0;
	uint16_t proto, len;

	while (!smp_load_acquire(&h->valid)) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	proto = h->proto;
	len = h->len;
	if (proto == 0x0800 && len == 1500)
		*out = h->seq;
	else
		*out = 0;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t r, p;
		uint32_t seq = 1u + (uint32_t)i;
		uint32_t seen = UINT32_MAX;

		hdr.proto = 0;
		hdr.len = 0;
		hdr.seq = 0;
		hdr.valid = 0;
		pthread_create(&p, NULL, parse, &seen);
		pthread_create(&r, NULL, rx, &seq);
		pthread_join(r, NULL);
		pthread_join(p, NULL);
		if (seen == UINT32_MAX)
			timeouts++;
		else if (seen != seq)
			bad++;
	}
	printf("multi-field-wmb: %d iterations, %d bad headers, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
