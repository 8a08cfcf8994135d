/*
 * tests/header/mp_thread.c — two-thread smoke tests of kcsan/lkmm.h: the
 * orderings must hold for real, so the reader always sees the data.
 *
 *   mp_release_acquire  plain data, smp_store_release / smp_load_acquire flag
 *   mp_wmb_rmb          plain data, smp_wmb + WRITE_ONCE / READ_ONCE + smp_rmb
 *   lock_cmpxchg        cmpxchg_acquire / smp_store_release spin lock
 *   lock_bit            test_and_set_bit_lock / clear_bit_unlock bit lock
 *   atomic_counter      atomic_inc_return / atomic_fetch_add from two threads
 *   store_buffering     smp_store_mb + READ_ONCE: never both reads see 0
 *
 * Each message-passing round is a ping-pong: the writer fills the data and
 * raises the flag, the reader checks the data and hands the slot back.
 * Prints one line per test and "N passed, M failed" last; exits 1 on failure.
 * Usage: mp_thread [ROUNDS]   (default 20000)
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <kcsan/lkmm.h>

static long rounds = 20000;

/* Spin politely: yield now and then so that one CPU is enough. */
#define SPIN_UNTIL(cond)							\
	do {									\
		unsigned int spins_ = 0;					\
		while (!(cond)) {						\
			if (++spins_ % 256 == 0)				\
				sched_yield();					\
			else							\
				cpu_relax();					\
		}								\
	} while (0)

struct msg {
	long a, b, c, d;
};

/* ---------------- message passing: release / acquire ---------------- */

static struct msg ra_data;
static long ra_flag;		/* round number published, 0: slot free */
static long ra_bad;

static void *ra_writer(void *arg)
{
	long i;

	(void)arg;
	for (i = 1; i <= rounds; i++) {
		SPIN_UNTIL(smp_load_acquire(&ra_flag) == 0);
		ra_data.a = i;
		ra_data.b = 2 * i;
		ra_data.c = 3 * i;
		ra_data.d = -i;
		smp_store_release(&ra_flag, i);
	}
	return NULL;
}

static void *ra_reader(void *arg)
{
	long i;

	(void)arg;
	for (i = 1; i <= rounds; i++) {
		SPIN_UNTIL(smp_load_acquire(&ra_flag) == i);
		if (ra_data.a != i || ra_data.b != 2 * i || ra_data.c != 3 * i || ra_data.d != -i)
			ra_bad++;
		smp_store_release(&ra_flag, 0);
	}
	return NULL;
}

/* ---------------- message passing: wmb / rmb ---------------- */

static struct msg wr_data;
static long wr_flag;
static long wr_bad;

static void *wr_writer(void *arg)
{
	long i;

	(void)arg;
	for (i = 1; i <= rounds; i++) {
		SPIN_UNTIL(READ_ONCE(wr_flag) == 0);
		smp_mb();	/* the reader's data reads before our overwrite */
		wr_data.a = i;
		wr_data.b = 2 * i;
		wr_data.c = 3 * i;
		wr_data.d = -i;
		smp_wmb();
		WRITE_ONCE(wr_flag, i);
	}
	return NULL;
}

static void *wr_reader(void *arg)
{
	long i;

	(void)arg;
	for (i = 1; i <= rounds; i++) {
		SPIN_UNTIL(READ_ONCE(wr_flag) == i);
		smp_rmb();
		if (wr_data.a != i || wr_data.b != 2 * i || wr_data.c != 3 * i || wr_data.d != -i)
			wr_bad++;
		smp_mb();	/* finish reading before handing the slot back */
		WRITE_ONCE(wr_flag, 0);
	}
	return NULL;
}

/* ---------------- locks ---------------- */

static int cx_lock;
static long cx_counter;		/* plain, protected by cx_lock */

static void *cx_worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		SPIN_UNTIL(cmpxchg_acquire(&cx_lock, 0, 1) == 0);
		cx_counter++;
		smp_store_release(&cx_lock, 0);
	}
	return NULL;
}

static unsigned long bit_lock[1];
static long bit_counter;	/* plain, protected by bit 5 of bit_lock */

static void *bit_worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		SPIN_UNTIL(!test_and_set_bit_lock(5, bit_lock));
		bit_counter++;
		clear_bit_unlock(5, bit_lock);
	}
	return NULL;
}

/* ---------------- atomic_t ---------------- */

static atomic_t ctr = ATOMIC_INIT(0);

static void *ctr_worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		if (i % 2)
			atomic_inc_return(&ctr);
		else
			atomic_fetch_add(1, &ctr);
	}
	return NULL;
}

/* ---------------- store buffering: full barriers ---------------- */

/* Both threads meet at a rendezvous before the stores, then each stores
 * its variable and loads the other's: with full barriers between store and
 * load, at least one of them sees the other's store. */
static int sb_x, sb_y, sb_r0, sb_r1;
static atomic_t sb_meet = ATOMIC_INIT(0);
static long sb_bad;

/* Rendezvous number n of the two threads (every round uses 3 of them). */
static void sb_rendezvous(long n)
{
	atomic_inc_return(&sb_meet);
	SPIN_UNTIL(atomic_read_acquire(&sb_meet) >= 2 * n);
}

static void *sb_t0(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds / 2; i++) {
		sb_rendezvous(3 * i + 1);
		smp_store_mb(sb_x, 1);
		sb_r0 = READ_ONCE(sb_y);
		sb_rendezvous(3 * i + 2);
		if (sb_r0 == 0 && sb_r1 == 0)
			sb_bad++;
		sb_x = sb_y = 0;
		sb_rendezvous(3 * i + 3);
	}
	return NULL;
}

static void *sb_t1(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds / 2; i++) {
		sb_rendezvous(3 * i + 1);
		WRITE_ONCE(sb_y, 1);
		smp_mb();
		sb_r1 = READ_ONCE(sb_x);
		sb_rendezvous(3 * i + 2);
		sb_rendezvous(3 * i + 3);
	}
	return NULL;
}

/* ---------------- driver ---------------- */

static int passed, failed;

static void run(const char *name, void *(*a)(void *), void *(*b)(void *), void *(*c)(void *))
{
	pthread_t ta, tb, tc;

	if (pthread_create(&ta, NULL, a, NULL) || pthread_create(&tb, NULL, b, NULL) ||
	    (c && pthread_create(&tc, NULL, c, NULL))) {
		printf("FAIL %s: pthread_create\n", name);
		exit(1);
	}
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	if (c)
		pthread_join(tc, NULL);
}

static void report(const char *name, int ok, long got, long want)
{
	if (ok) {
		passed++;
		printf("ok   %s\n", name);
	} else {
		failed++;
		printf("FAIL %s: got %ld, expected %ld\n", name, got, want);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1)
		rounds = atol(argv[1]);
	if (rounds < 10)
		rounds = 10;

	run("mp_release_acquire", ra_writer, ra_reader, NULL);
	report("mp_release_acquire: reader saw all data", ra_bad == 0, ra_bad, 0);

	run("mp_wmb_rmb", wr_writer, wr_reader, NULL);
	report("mp_wmb_rmb: reader saw all data", wr_bad == 0, wr_bad, 0);

	run("lock_cmpxchg", cx_worker, cx_worker, NULL);
	report("lock_cmpxchg: no lost update", cx_counter == 2 * rounds, cx_counter, 2 * rounds);

	run("lock_bit", bit_worker, bit_worker, NULL);
	report("lock_bit: no lost update", bit_counter == 2 * rounds, bit_counter, 2 * rounds);

	run("atomic_counter", ctr_worker, ctr_worker, NULL);
	report("atomic_counter: no lost update", atomic_read(&ctr) == 2 * rounds,
	       atomic_read(&ctr), 2 * rounds);

	run("store_buffering", sb_t0, sb_t1, NULL);
	report("store_buffering: never r0 == r1 == 0", sb_bad == 0, sb_bad, 0);

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
