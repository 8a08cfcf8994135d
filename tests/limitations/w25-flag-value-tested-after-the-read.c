/*
 * limitation: W25 (docs/limitations.md)
 * lkmm: race
 * about: The reader reads the flag into a local, reads 'data' whatever the
 *        flag was, and uses the data only when the flag was set.  The data
 *        read does not run on the flag's value (no branch on it, no pointer
 *        from it), so the pair is taken for no handshake and the writer's
 *        missing release is not reported.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>

static int ready, data, sum;

static void *writer(void *a)
{
	data = 42;                      // RACE(writer)
	WRITE_ONCE(ready, 1);
	return a;
}

static void *reader(void *a)
{
	int r = smp_load_acquire(&ready);
	int d = data;

	if (r)
		sum += d;
	return a;
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], 0, reader, 0);
	pthread_create(&t[1], 0, writer, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return sum;
}
