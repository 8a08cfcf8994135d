/*
 * corpus: two-mutexes
 * lkmm: race
 * lacks: both
 * delayed-in-publisher: no
 * about: An account whose deposit path takes in_lock and whose withdraw path takes
 *        out_lock; both update the same balance. Each access holds a lock, but no common
 *        one, so the updates race.
 */
#include "bl.h"

struct acct {
	pthread_mutex_t in_lock;
	pthread_mutex_t out_lock;
	long balance;
};

static struct acct A = {
	.in_lock = PTHREAD_MUTEX_INITIALIZER,
	.out_lock = PTHREAD_MUTEX_INITIALIZER,
};

static void deposit(struct acct *a, long v)
{
	pthread_mutex_lock(&a->in_lock);
	a->balance += v;		// RACE(writer) RACE(reader)
	pthread_mutex_unlock(&a->in_lock);
}

static void withdraw(struct acct *a, long v)
{
	pthread_mutex_lock(&a->out_lock);
	a->balance -= v;		// RACE(writer) RACE(reader)
	pthread_mutex_unlock(&a->out_lock);
}

static void *payer(void *arg)
{
	for (int k = 0; k < 100; k++)
		deposit(arg, 10);
	return NULL;
}

static void *spender(void *arg)
{
	for (int k = 0; k < 100; k++)
		withdraw(arg, 3);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = bl_iters(argc, argv), bad = 0;

	for (int i = 0; i < iters; i++) {
		A.balance = 0;
		BL_RUN2(payer, &A, spender, &A);
		bad += A.balance != 700;
	}
	printf("two-mutexes: %d iterations, %d bad balances\n", iters, bad);
	return 0;
}
