/*
 * timeit.c — helper of bench/runtime-bench.sh: runs one command and writes
 * its wall time, peak RSS and how it ended to a file.
 *
 *   timeit OUT LIMIT CMD [ARGS...]
 *
 * OUT receives one line "SECONDS MAXRSS_KIB STATUS": the wall time from
 * fork to exit (CLOCK_MONOTONIC, nanosecond resolution: GNU time's %e has
 * 10 ms), the command's peak resident set (wait4's ru_maxrss, which counts
 * the command itself and the children it waited for, not this helper), and
 * "ok", "exit:N", "signal:N" or "timeout" (killed after LIMIT seconds).
 * The command inherits stdin, stdout, stderr and the environment: run under
 * `kcsan-scan run`, it sees KCSAN_DB and KCSAN_OPTIONS, and the time is the
 * program's, not that of `kcsan-scan run` around it.
 * Exit status: 0 when OUT was written, 2 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t expired;

static void on_alarm(int sig)
{
	(void)sig;
	expired = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct rusage ru;
	char status[32];
	double t0, t;
	int st = 0;
	pid_t pid;
	FILE *out;

	if (argc < 4) {
		fprintf(stderr, "usage: timeit OUT LIMIT CMD [ARGS...]\n");
		return 2;
	}
	/* No SA_RESTART: the alarm must interrupt wait4. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("timeit: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		perror(argv[3]);
		_exit(127);
	}
	alarm((unsigned)atoi(argv[2]));
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("timeit: wait4");
			return 2;
		}
		if (expired)
			kill(pid, SIGKILL);
	}
	t = now() - t0;
	if (expired)
		snprintf(status, sizeof(status), "timeout");
	else if (WIFSIGNALED(st))
		snprintf(status, sizeof(status), "signal:%d", WTERMSIG(st));
	else if (WEXITSTATUS(st))
		snprintf(status, sizeof(status), "exit:%d", WEXITSTATUS(st));
	else
		snprintf(status, sizeof(status), "ok");
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 2;
	}
	fprintf(out, "%.4f %ld %s\n", t, ru.ru_maxrss, status);
	return fclose(out) ? 2 : 0;
}
