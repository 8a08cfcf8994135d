/*
 * message-passing: publish a configuration value through a ready flag.
 *
 * The writer stores the value in x, then sets flag; the reader waits for
 * flag, then reads x.  This is the example from the Linux KCSAN
 * weak-memory documentation.  Without a release on the writer and an
 * acquire on the reader, the CPU or the compiler may make the flag visible
 * before the value (or read the value before the flag), and the reader
 * uses a stale configuration.
 *
 * buggy.c: WRITE_ONCE(flag) / READ_ONCE(flag), which order nothing.
 * fixed.c: smp_store_release(&flag) / smp_load_acquire(&flag).
 *
 * Usage: ./prog [ROUNDS]   (default 500)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcsan/lkmm.h>

int x;		/* the configuration value */
int flag;	/* set to 1 once x is valid */

/* Writer side: publish a new configuration value. */
void config_publish(int value)
{
	x = value;		// EXPECT: missing-release
	WRITE_ONCE(flag, 1);
}

/* Reader side: wait until a configuration is published, then use it. */
int config_wait(void)
{
	int value;

	while (!READ_ONCE(flag))
		;
	value = x;		// EXPECT: missing-acquire
	return value;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "message-passing: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

static void *writer_thread(void *arg)
{
	config_publish((int)(intptr_t)arg);
	return NULL;
}

static void *reader_thread(void *arg)
{
	*(int *)arg = config_wait();
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 500;
	int stale = 0;
	int round;

	for (round = 1; round <= rounds; round++) {
		pthread_t writer, reader;
		int seen = 0;

		/* Reset before the threads start: pthread_create() orders this. */
		x = 0;
		flag = 0;
		check(pthread_create(&reader, NULL, reader_thread, &seen), "pthread_create");
		check(pthread_create(&writer, NULL, writer_thread, (void *)(intptr_t)round), "pthread_create");
		check(pthread_join(writer, NULL), "pthread_join");
		check(pthread_join(reader, NULL), "pthread_join");
		if (seen != round)
			stale++;
	}
	printf("message-passing: %d configs published, reader saw a stale value %d times\n",
	       rounds, stale);
	return 0;
}
