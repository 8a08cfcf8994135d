/*
 * corpus: loop-publish-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: A log appender publishes each entry inside the loop with WRITE_ONCE(len); the
 *        reader acquires len and reads entries below it. Each entry store is unordered
 *        before the len store that publishes it.
 */
#include "bl.h"
#include <kcsan/lkmm.h>

#define NLOG 16

static int log_buf[NLOG];
static int log_len;

static void *appender(void *p)
{
	(void)p;
	for (int i = 0; i < NLOG; i++) {
		log_buf[i] = i + 100;		// RACE(writer)
		WRITE_ONCE(log_len, i + 1);
	}
	return NULL;
}

static void *scanner(void *p)
{
	int *bad = p;
	long spins = 0;
	int n;

	while ((n = smp_load_acquire(&log_len)) < NLOG / 2)
		if (!bl_keep_waiting(&spins))
			return NULL;
	for (int j = 0; j < n; j++)
		if (log_buf[j] != j + 100)	// RACE(reader)
			(*bad)++;
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		for (int k = 0; k < NLOG; k++)
			log_buf[k] = 0;
		log_len = 0;
		BL_RUN2(appender, NULL, scanner, &bad);
	}
	printf("loop-publish-once: %d iterations, %d bad\n", iters, bad);
	return 0;
}
