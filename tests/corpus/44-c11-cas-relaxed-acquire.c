/*
 * corpus: c11-cas-relaxed-acquire
 * lkmm: race
 * lacks: reader
 * delayed-in-publisher: no
 * about: A C11 lock taken with atomic_compare_exchange_weak_explicit(relaxed, relaxed) and
 *        released with atomic_store_explicit(release). The release has no acquire to
 *        synchronize with, so the next holder's read of the balance races.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define SPIN_LIMIT (1L << 22)
#define ROUNDS 50

struct account {
	atomic_int lock;
	long balance;
};

static struct account acct;

static int lock_account(struct account *a)
{
	long spins = 0;
	int expected = 0;

	while (!atomic_compare_exchange_weak_explicit(&a->lock, &expected, 1,
						       memory_order_relaxed, memory_order_relaxed)) {
		expected = 0;
		if (++spins > SPIN_LIMIT)
			return 0;
		if (!(spins & 127))
			sched_yield();
	}
	return 1;
}

static void *deposit(void *arg)
{
	struct account *a = &acct;
	long amount = *(long *)arg;
	long done = 0;

	for (int i = 0; i < ROUNDS; i++) {
		long b;

		if (!lock_account(a))
			break;
		b = a->balance;		// RACE(reader)
		a->balance = b + amount;		// RACE(writer)
		atomic_store_explicit(&a->lock, 0, memory_order_release);
		done += amount;
	}
	return (void *)done;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int lost = 0;
	long amount = 10;

	for (int i = 0; i < iters; i++) {
		pthread_t a, b;
		void *da, *db;

		acct.balance = 0;
		atomic_store_explicit(&acct.lock, 0, memory_order_relaxed);
		pthread_create(&a, NULL, deposit, &amount);
		pthread_create(&b, NULL, deposit, &amount);
		pthread_join(a, &da);
		pthread_join(b, &db);
		if (acct.balance != (long)da + (long)db)
			lost++;
	}
	printf("c11-cas-relaxed-acquire: %d iterations, %d with lost deposits\n", iters, lost);
	return 0;
}
