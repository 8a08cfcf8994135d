/*
 * corpus: branch-if-else
 * lkmm: race
 * lacks: writer
 * delayed-in-publisher: yes
 * about: The writer stores to one of two plain fields depending on the message kind (if /
 *        else), then publishes the kind with WRITE_ONCE(); neither branch orders its store
 *        before the flag, so the acquiring reader races on whichever field it reads.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

#define SPIN_LIMIT (1L << 22)

enum { MSG_NONE, MSG_INT, MSG_TEXT };

struct message {
	int kind;
	int ival;
	char text[8];
};

static struct message msg;

static void *send_msg(void *arg)
{
	struct message *m = &msg;
	int v = *(int *)arg;

	if (v & 1)
		m->ival = v;		// RACE(writer)
	else
		m->text[0] = 't';		// RACE(writer)
	WRITE_ONCE(m->kind, (v & 1) ? MSG_INT : MSG_TEXT);
	return NULL;
}

static void *recv_msg(void *arg)
{
	struct message *m = &msg;
	int *out = arg;
	long spins = 0;
	int kind;

	while ((kind = smp_load_acquire(&m->kind)) == MSG_NONE) {
		if (++spins > SPIN_LIMIT)
			return NULL;
		if (!(spins & 127))
			sched_yield();
	}
	if (kind == MSG_INT)
		*out = m->ival;		// RACE(reader)
	else
		*out = m->text[0] == 't' ? -2 : -3;		// RACE(reader)
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int bad = 0, timeouts = 0;

	for (int i = 0; i < iters; i++) {
		pthread_t s, r;
		int v = i + 1;
		int seen = -1;

		msg.kind = MSG_NONE;
		msg.ival = 0;
		msg.text[0] = 0;
		pthread_create(&r, NULL, recv_msg, &seen);
		pthread_create(&s, NULL, send_msg, &v);
		pthread_join(s, NULL);
		pthread_join(r, NULL);
		if (seen == -1)
			timeouts++;
		else if ((v & 1) ? seen != v : seen != -2)
			bad++;
	}
	printf("branch-if-else: %d iterations, %d bad messages, %d timeouts\n", iters, bad, timeouts);
	return 0;
}
