/*
 * corpus: sem-request-reply
 * lkmm: no-race
 * lacks: none
 * delayed-in-publisher: no
 * about: Request/reply over two POSIX semaphores wrapped in helpers: the client fills
 *        the request and posts; the server waits, reads it, writes the reply and posts
 *        back; the client waits and reads the reply. sem_post/sem_wait order each step.
 */
#include "bl.h"
#include <semaphore.h>

struct rpc {
	sem_t req_ready;
	sem_t rep_ready;
	int opcode;
	int operand;
	int reply;
};

static struct rpc R;

static void rpc_signal(sem_t *s)
{
	sem_post(s);
}

static void rpc_await(sem_t *s)
{
	while (sem_wait(s) != 0)
		;
}

static void *client(void *arg)
{
	struct rpc *r = arg;
	int *bad = &r->reply;

	r->opcode = 1;
	r->operand = 20;
	rpc_signal(&r->req_ready);
	rpc_await(&r->rep_ready);
	if (*bad != 21)
		fprintf(stderr, "bad reply\n");
	return NULL;
}

static void *server(void *arg)
{
	struct rpc *r = arg;
	int v;

	rpc_await(&r->req_ready);
	v = r->opcode == 1 ? r->operand + 1 : 0;
	r->reply = v;
	rpc_signal(&r->rep_ready);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv);

	for (int i = 0; i < iters; i++) {
		sem_init(&R.req_ready, 0, 0);
		sem_init(&R.rep_ready, 0, 0);
		R.opcode = R.operand = R.reply = 0;
		BL_RUN2(client, &R, server, &R);
		sem_destroy(&R.req_ready);
		sem_destroy(&R.rep_ready);
	}
	printf("sem-request-reply: %d iterations\n", iters);
	return 0;
}
