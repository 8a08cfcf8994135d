/*
 * stress.c — the runtime under less friendly conditions (issue item 8):
 *
 *   ./stress threads N SECS buggy|fixed   N threads (N/2 message-passing
 *         pairs, all data on one page: watchpoint slots contend); buggy
 *         pairs (WRITE_ONCE/READ_ONCE) must report, fixed ones
 *         (release/acquire) never.
 *   ./stress fork SECS     busy fixed pairs in the parent; fork while they
 *         run; a child running buggy pairs must report, one running fixed
 *         pairs must not, the parent must not.  Exit status 1 otherwise.
 *   ./stress unmap SECS    a delayed plain write whose page is freed
 *         (replaced by an inaccessible mapping) before it is re-checked (marked writes, plain accesses and the
 *         function's exit follow): no crash, no report (each thread only
 *         touches its own pages).
 *   ./stress signals SECS  a thread bombards the main thread with SIGUSR1,
 *         whose handler raises SIGUSR2 (a handler nested in a handler);
 *         both touch the main thread's plain data while its access is
 *         delayed: never a report (one thread does not race with itself),
 *         nesting seen at depth 2 and undone afterwards.
 * Prints one line ending in "reports=N" (fork: "... ok"/"... FAILED").
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kcsan/lkmm.h>

#include "../../runtime/kcsan_rt.h"
#include "harness.h"

/* ---- message-passing pairs ------------------------------------------- */
struct pair {
	int data;
	int flag;
	int seen;
};
static struct pair pairs[128];
static int buggy;

__attribute__((noinline)) void pair_write(struct pair *p, int v)
{
	p->data = v;
	if (buggy)
		WRITE_ONCE(p->flag, 1);
	else
		smp_store_release(&p->flag, 1);
}

__attribute__((noinline)) void pair_read(struct pair *p)
{
	p->seen = p->data;
	if (buggy)
		WRITE_ONCE(p->flag, 0);
	else
		smp_store_release(&p->flag, 0);
}

static int wait_flag(struct pair *p, int want)
{
	long spins = 0;

	while ((buggy ? READ_ONCE(p->flag) : smp_load_acquire(&p->flag)) != want) {
		if (harness_stop())
			return 0;
		if (++spins % 64 == 0)
			sched_yield();
	}
	return 1;
}

static void *pair_thread(void *arg)
{
	long i = (long)arg;
	struct pair *p = &pairs[i / 2];
	int v = 0;

	while (wait_flag(p, i % 2 ? 1 : 0)) {
		if (i % 2)
			pair_read(p);
		else
			pair_write(p, ++v);
	}
	return NULL;
}

/* ---- unmapped delayed access ------------------------------------------ */
static int marked_sink;
static long plain_sink[64];

__attribute__((noinline)) void write_then_unmap(long *page, long i)
{
	page[0] = i;				/* watched, then delayed */
	/* Free the page but keep its address reserved (PROT_NONE): reading
	 * it now faults, and no other thread's mapping can land there (a
	 * plain munmap would let another thread's mmap take the address). */
	mmap(page, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
	     -1, 0);				/* not a barrier for the model */
	WRITE_ONCE(marked_sink, (int)i);	/* publication: next re-check watched */
	plain_sink[i % 64] = i;			/* re-check of page[0] */
	WRITE_ONCE(marked_sink, (int)i + 1);
}						/* last re-check at exit */

static void *unmap_thread(void *arg)
{
	long *region = mmap(NULL, 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long i = (long)arg * 1000000;

	if (region == MAP_FAILED)
		return NULL;
	while (!harness_stop()) {
		/* Re-map our own first page each time: nobody else maps there. */
		long *p = mmap(region, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

		if (p == MAP_FAILED)
			break;
		write_then_unmap(p, ++i);
	}
	return NULL;
}

/* ---- nested signal handlers ------------------------------------------- */
static long mine[4];
static int handled1, handled2, max_nested;
static pthread_t main_thread;

static void note_nesting(void)
{
	int n = kcsan_get_ctx()->nested;

	if (n > max_nested)
		max_nested = n;
}

static void on_usr2(int sig)
{
	(void)sig;
	note_nesting();
	mine[2]++;
	handled2++;
}

static void on_usr1(int sig)
{
	(void)sig;
	note_nesting();
	mine[0] = mine[1] + 1;
	raise(SIGUSR2);
	smp_mb();
	handled1++;
}

__attribute__((noinline)) void main_work(long i)
{
	mine[0] = i;		/* delayed while the handlers run */
	WRITE_ONCE(marked_sink, (int)i);
	mine[1] = mine[0] + mine[2];
}

static void *bombard(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 };

	(void)arg;
	while (!harness_stop()) {
		pthread_kill(main_thread, SIGUSR1);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static int run_signals(double secs)
{
	struct sigaction sa;
	pthread_t t;
	struct timespec start, now;
	long i = 0;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	main_thread = pthread_self();
	pthread_create(&t, NULL, bombard, NULL);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		main_work(++i);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < secs);
	__atomic_store_n(&harness_stop_flag, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	signal(SIGUSR1, SIG_IGN);
	printf("signals: handled=%d nested=%d max_nesting=%d now=%d reports=%lu\n",
	       READ_ONCE(handled1), READ_ONCE(handled2), READ_ONCE(max_nested),
	       kcsan_get_ctx()->nested, kcsan_rt_reports());
	return 0;
}

/* ---- fork --------------------------------------------------------------- */
static int child(int bug, double secs)
{
	unsigned long n;

	buggy = bug;
	memset(pairs, 0, sizeof(pairs));
	n = harness_run(4, pair_thread, secs);
	_exit(bug ? n == 0 : n != 0);
}

static int run_fork(double secs)
{
	pthread_t t[8];
	int st[2] = { -1, -1 }, k, i;

	buggy = 0;
	for (i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, pair_thread, (void *)(long)(i + 16));
	for (k = 0; k < 2; k++) {
		pid_t pid = fork();

		if (pid == 0)
			child(k == 0, k == 0 ? secs : 2);
		if (pid < 0 || waitpid(pid, &st[k], 0) < 0)
			st[k] = -1;
	}
	__atomic_store_n(&harness_stop_flag, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	k = st[0] == 0 && st[1] == 0 && kcsan_rt_reports() == 0;
	printf("fork: buggy child %s, fixed child %s, parent reports=%lu: %s\n",
	       st[0] == 0 ? "reported" : "FAILED", st[1] == 0 ? "silent" : "FAILED",
	       kcsan_rt_reports(), k ? "ok" : "FAILED");
	return !k;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "threads";

	if (!strcmp(mode, "threads")) {
		int n = argc > 2 ? atoi(argv[2]) : 40;
		unsigned long r;

		buggy = argc > 4 && !strcmp(argv[4], "buggy");
		r = harness_run(n & ~1, pair_thread, harness_seconds(argc, argv, 3, 20));
		printf("threads: %d threads, reports=%lu\n", n & ~1, r);
		return 0;
	}
	if (!strcmp(mode, "fork"))
		return run_fork(harness_seconds(argc, argv, 2, 20));
	if (!strcmp(mode, "unmap")) {
		unsigned long r = harness_run(4, unmap_thread, harness_seconds(argc, argv, 2, 2));

		printf("unmap: reports=%lu\n", r);
		return 0;
	}
	if (!strcmp(mode, "signals"))
		return run_signals(harness_seconds(argc, argv, 2, 2));
	fprintf(stderr, "usage: stress threads|fork|unmap|signals ...\n");
	return 2;
}
