/*
 * dbstress.c — many processes recording races into one database at once
 * (issue 9, item 3): with dedup=0 every report is a database write, and
 * none may be lost to "database is locked".
 *
 *   ./dbstress PROCS REPORTS
 *
 * The parent starts two threads that race on a plain counter (each race
 * reported), then forks PROCS children one after the other while those
 * threads report -- so that a fork may come while a thread of the parent is
 * inside the database code -- and the children run at the same time.  Each
 * child starts its own two racing threads, stops them once it has made
 * REPORTS reports, and prints "reports=N" with the number it made (N >=
 * REPORTS: a report in flight is finished and counted).  The parent stops
 * its threads after the last child has exited and prints its own line.
 * The caller compares the sum of the lines with what the database holds.
 * Exit status 0 unless a fork or a child failed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

unsigned long kcsan_rt_reports(void);

static long counter;		/* the race: plain, unlocked */
static int stop;

__attribute__((noinline)) void bump(void);
__attribute__((noinline)) void bump(void)
{
	counter++;
}

/* Not a busy loop: a few dozen processes share two CPUs with the ones
 * writing to the database.  The other thread's bumps still fall into the
 * watch windows (udelay of a few hundred microseconds). */
static void *racer(void *arg)
{
	struct timespec pause = { 0, 20 * 1000 };
	unsigned int i = 0;

	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		bump();
		if (++i % 8 == 0)
			nanosleep(&pause, NULL);
	}
	return NULL;
}

static void run_racers(unsigned long until, int (*done)(unsigned long))
{
	pthread_t t[2];
	int i;

	__atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, racer, NULL))
			exit(2);
	while (!done(until)) {
		struct timespec ms = { 0, 1000 * 1000 };

		nanosleep(&ms, NULL);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

/* A child inherits the parent's count of reports: its own start there. */
static unsigned long base;

static int enough_reports(unsigned long n)
{
	return kcsan_rt_reports() - base >= n;
}

static pid_t *children;
static int nchildren, child_failed;

/* The parent's "done": forks the children (the racers keep reporting
 * meanwhile), then waits for them all. */
static int children_done(unsigned long reports)
{
	static int forked;
	int st, i;

	if (forked < nchildren) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			child_failed = 1;
			nchildren = forked;
			return 0;
		}
		if (pid == 0) {
			base = kcsan_rt_reports();
			run_racers(reports, enough_reports);
			printf("child: reports=%lu\n", kcsan_rt_reports() - base);
			fflush(stdout);
			_exit(0);
		}
		children[forked++] = pid;
		return 0;
	}
	for (i = 0; i < nchildren; i++) {
		if (waitpid(children[i], &st, 0) != children[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0) {
			fprintf(stderr, "dbstress: child %d failed (status 0x%x)\n", (int)children[i], st);
			child_failed = 1;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long reports;

	if (argc != 3) {
		fprintf(stderr, "usage: dbstress PROCS REPORTS\n");
		return 2;
	}
	nchildren = atoi(argv[1]);
	reports = strtoul(argv[2], NULL, 0);
	children = calloc((size_t)(nchildren > 0 ? nchildren : 1), sizeof(*children));
	if (!children)
		return 2;
	/* The children's output is not buffered twice by fork(). */
	setvbuf(stdout, NULL, _IONBF, 0);
	run_racers(reports, children_done);
	printf("parent: reports=%lu\n", kcsan_rt_reports());
	return child_failed;
}
