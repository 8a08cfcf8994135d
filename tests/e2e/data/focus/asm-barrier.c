/*
 * asm-barrier.c — correct message passing whose full barriers are inline
 * assembly behind the kernel's macro name (as in a project with its own
 * barrier header), so that the instrumentation cannot see them.  The static
 * pass knows smp_mb() by name; with focus the runtime applies it and stays
 * silent, without focus (and watching every access) the writer's delayed
 * store to x is reported although the mfence orders it.
 *
 * Usage: ./asm-barrier [ROUNDS]   (default 200)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define smp_mb() __asm__ __volatile__("mfence" ::: "memory")
#define READ_ONCE(v) (*(const volatile __typeof__(v) *)&(v))
#define WRITE_ONCE(v, val) (*(volatile __typeof__(v) *)&(v) = (val))

int x;
int flag;

void publish(int v)
{
	x = v;
	smp_mb();
	WRITE_ONCE(flag, 1);
}

int consume(void)
{
	while (!READ_ONCE(flag))
		;
	smp_mb();
	return x;
}

static void *writer(void *arg)
{
	publish((int)(long)arg);
	return NULL;
}

static void *reader(void *arg)
{
	*(int *)arg = consume();
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200, r, seen, stale = 0;
	pthread_t w, rd;

	for (r = 1; r <= rounds; r++) {
		x = 0;
		flag = 0;
		seen = 0;
		if (pthread_create(&rd, NULL, reader, &seen) ||
		    pthread_create(&w, NULL, writer, (void *)(long)r))
			return 1;
		pthread_join(w, NULL);
		pthread_join(rd, NULL);
		stale += seen != r;
	}
	printf("asm-barrier: %d rounds, %d stale\n", rounds, stale);
	return 0;
}
