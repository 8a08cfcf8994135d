/*
 * overflow.c — an instrumented program that crashes (issue 9, item 2): the
 * runtime must say why on stderr and the program must still die of the
 * signal; a SIGSEGV handler of the program's own must still be the one
 * that runs.
 *
 *   ./overflow main     unbounded recursion in the main thread
 *   ./overflow thread   the same in a second thread
 *   ./overflow null     a store through a null pointer
 *   ./overflow own      the program's own SIGSEGV handler (on its own
 *                       alternate stack) catches the overflow: it prints
 *                       "own handler" and exits with status 42
 *   ./overflow reset    the old action of SIGSEGV reads SIG_DFL; the
 *                       program sets a handler, then SIG_DFL again, then
 *                       overflows: the runtime's message again
 * Prints "start" (stdout, flushed) before crashing.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long recurse(volatile long *depth);

/* Instrumented (a plain access per frame) and not a tail call. */
__attribute__((noinline)) long recurse(volatile long *depth)
{
	volatile char frame[256];

	frame[0] = (char)*depth;
	(*depth)++;
	return recurse(depth) + frame[0];
}

static void *thread_main(void *arg)
{
	static volatile long depth;

	(void)arg;
	return (void *)recurse(&depth);
}

static void own_handler(int sig)
{
	static const char msg[] = "own handler\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(43);
	_exit(42);
}

static void dummy_handler(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	static volatile long depth;

	puts("start");
	fflush(stdout);
	if (!strcmp(mode, "main")) {
		return (int)recurse(&depth);
	} else if (!strcmp(mode, "thread")) {
		pthread_t t;
		void *r;

		if (pthread_create(&t, NULL, thread_main, NULL))
			return 2;
		pthread_join(t, &r);
		return (int)(long)r;
	} else if (!strcmp(mode, "null")) {
		volatile long *volatile p = NULL;

		*p = 1;
		return 0;
	} else if (!strcmp(mode, "own")) {
		stack_t ss = { .ss_sp = malloc(1 << 16), .ss_size = 1 << 16 };
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = own_handler;
		sa.sa_flags = SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		if (!ss.ss_sp || sigaltstack(&ss, NULL) || sigaction(SIGSEGV, &sa, NULL))
			return 2;
		return (int)recurse(&depth);
	} else if (!strcmp(mode, "reset")) {
		struct sigaction old;

		if (sigaction(SIGSEGV, NULL, &old) || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO)) {
			puts("old action of SIGSEGV is not SIG_DFL");
			return 3;
		}
		if (signal(SIGSEGV, dummy_handler) != SIG_DFL ||
		    signal(SIGSEGV, SIG_DFL) != dummy_handler ||
		    signal(SIGSEGV, SIG_DFL) != SIG_DFL) {
			puts("signal() returned the wrong old handler");
			return 4;
		}
		return (int)recurse(&depth);
	}
	fprintf(stderr, "usage: overflow main|thread|null|own|reset\n");
	return 2;
}
