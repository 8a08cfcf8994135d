/*
 * corpus: switch-once
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: A command is encoded by a switch that writes one of three plain parameter fields,
 *        and the opcode is then published with WRITE_ONCE(); every case's store is
 *        unordered before the opcode, so the acquiring executor races on the parameter.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

enum op { OP_NONE, OP_SEEK, OP_READ, OP_RESET };

struct command {
	long offset;
	int length;
	int hard;
	int opcode;
};

static struct command cmd;

static void encode(struct command *c, enum op op, int arg)
{
	switch (op) {
	case OP_SEEK:
		c->offset = 512L * arg;		// RACE(writer)
		break;
	case OP_READ:
		c->length = arg;		// RACE(writer)
		break;
	default:
		c->hard = 1;		// RACE(writer)
		break;
	}
	WRITE_ONCE(c->opcode, (int)op);
}

static void *issuer(void *arg)
{
	int n = *(int *)arg;

	encode(&cmd, (enum op)(OP_SEEK + n % 3), n);
	return NULL;
}

static long execute(struct command *c, int op)
{
	switch (op) {
	case OP_SEEK:
		return c->offset / 512;		// RACE(reader)
	case OP_READ:
		return c->length;		// RACE(reader)
	default:
		return c->hard ? -2 : -3;		// RACE(reader)
	}
}

static void *executor(void *arg)
{
	struct command *c = &cmd;
	long *out = arg;
	long spins = 0;
	int op;

	while ((op = smp_load_acquire(&c->opcode)) == OP_NONE) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	*out = execute(c, op);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		int n = i + 1;
		long res = -1;
		long want = n % 3 == 2 ? -2 : n;

		cmd.offset = 0;
		cmd.length = 0;
		cmd.hard = 0;
		cmd.opcode = OP_NONE;
		pthread_create(&b, NULL, executor, &res);
		pthread_create(&a, NULL, issuer, &n);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (res == -1)
			timeouts++;
		else if (res != want)
			bad++;
	}
	printf("switch-once: %d iterations, %d bad commands, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
