/*
 * limitation: W20 (docs/limitations.md)
 * lkmm: no-race
 * about: main() calls stress_test() through a function pointer. The callee is then
 *        an entry point that any number of threads may run, and the rules for
 *        code before the first pthread_create and after the last join do not
 *        apply to it.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct child { long ops; } cp[2];
static int goflag;

static void *child(void *arg)
{
	struct child *c = arg;

	while (!READ_ONCE(goflag))
		;
	c->ops++;
	return NULL;
}

static void stress_test(void)
{
	pthread_t t[2];
	long ops = 0;

	for (int i = 0; i < 2; i++) {
		cp[i].ops = 0;
		pthread_create(&t[i], 0, child, &cp[i]);
	}
	WRITE_ONCE(goflag, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	for (int i = 0; i < 2; i++)
		if (READ_ONCE(goflag))
			ops += cp[i].ops;
	printf("%ld\n", ops);
}

int main(int argc, char **argv)
{
	void (*test_to_do)(void) = NULL;

	if (argc > 1 && strcmp(argv[1], "--stresstest") == 0)
		test_to_do = stress_test;
	if (test_to_do)
		test_to_do();
	return 0;
}
