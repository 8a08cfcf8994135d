/*
 * options.c — runtime options from KCSAN_OPTIONS, sanitizer-style:
 *
 *   KCSAN_OPTIONS=skip_watch=4000:udelay=80:weak_memory=1:log_path=/tmp/k.log
 *
 * Entries are NAME=VALUE separated by ':' (',' and spaces are accepted too).
 * Parsed once, by kcsan_init(), before the runtime enables itself; the
 * values are read-only afterwards, so no synchronisation is needed to read
 * them.  Unknown names and malformed values are reported on stderr and
 * ignored: a typo must not change the program's behaviour.
 *
 *   enabled=1               0 makes every entry point a no-op (atomics still
 *                           perform their operation)
 *   skip_watch=4000         plain accesses skipped between two watchpoints
 *                           (the kernel's kcsan.skip_watch)
 *   skip_watch_rand=1       skip a random count in [1, skip_watch] instead
 *   udelay=80               delay window of a watchpoint, microseconds
 *   udelay_rand=1           delay a random time in [udelay/2, udelay]
 *   weak_memory=1           model reordering of plain accesses (docs/design.md §5)
 *   report_unknown_origin=1 report a watched value that changed although no
 *                           instrumented access was seen (uninstrumented
 *                           writer)
 *   dedup=1                 report each pair of code locations only once
 *   verbose=0               1: print the options at start and a count at exit
 *   log_path=               append reports to this file instead of stderr
 *   focus=1                 watch the static candidates of $KCSAN_DB far
 *                           more often and apply the static pass's barriers
 *                           (focus.c); `kcsan-scan run --no-focus` sets 0
 *   focus_burst=64          a focused site (a finding's candidate's code) is
 *                           watched at each of its first focus_burst
 *                           executions ...
 *   focus_pace=2000         ... then about once per focus_pace microseconds
 *                           (at least one tick of the coarse clock, 1-4 ms):
 *                           a site run now and then at every execution, a
 *                           hot one at a bounded cost
 *   max_delay_pct=10        a thread's ordinarily sampled watchpoints wait
 *                           (udelay) at most this percentage of the time
 *                           since the thread started, and all threads'
 *                           together at most this percentage of the time
 *                           since the first of them: a sampled access
 *                           past the budget is not watched.  Focused
 *                           accesses and the re-check of a delayed access
 *                           right after a publication are never held back.
 *                           0: no cap (the kernel's behaviour)
 *   handle_segv=1           a program killed by SIGSEGV or SIGBUS says so
 *                           on stderr, a stack overflow as such (alternate
 *                           signal stacks, overflow.c); it still dies of
 *                           the signal.  A handler the program installs
 *                           itself takes over.  0: the signals untouched
 *   db_wait=600             seconds a report waits for the database of
 *                           KCSAN_DB while other processes keep it busy
 *                           (it is tried again until then: none is lost to
 *                           a busy database); 0: no limit
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kcsan_rt.h"

/* The kernel's defaults, except udelay (user space wakes up more slowly
 * than a kernel busy-wait, the delay is a nanosleep, see core.c). */
struct kcsan_options kcsan_opts = {
	.enabled = 1,
	.skip_watch = 4000,
	.skip_watch_rand = 1,
	.udelay = 80,
	.udelay_rand = 1,
	.weak_memory = 1,
	.report_unknown_origin = 1,
	.dedup = 1,
	.verbose = 0,
	.focus = 1,
	.focus_burst = 64,
	.focus_pace = 2000,
	.max_delay_pct = 10,
	.handle_segv = 1,
	.db_wait = 600,
	.log_fd = 2,
};

static int parse_long(const char *name, const char *val, long min, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 0);
	if (errno || end == val || *end || v < min) {
		fprintf(stderr, "kcsan: KCSAN_OPTIONS: bad value '%s' for %s (ignored)\n",
			val, name);
		return -1;
	}
	*out = v;
	return 0;
}

static void set_option(const char *name, const char *val)
{
	static const struct {
		const char *name;
		int *ival;	/* boolean / small int option */
		long min;
	} ints[] = {
		{ "enabled", &kcsan_opts.enabled, 0 },
		{ "skip_watch_rand", &kcsan_opts.skip_watch_rand, 0 },
		{ "udelay_rand", &kcsan_opts.udelay_rand, 0 },
		{ "weak_memory", &kcsan_opts.weak_memory, 0 },
		{ "report_unknown_origin", &kcsan_opts.report_unknown_origin, 0 },
		{ "dedup", &kcsan_opts.dedup, 0 },
		{ "verbose", &kcsan_opts.verbose, 0 },
		{ "focus", &kcsan_opts.focus, 0 },
		{ "max_delay_pct", &kcsan_opts.max_delay_pct, 0 },
		{ "handle_segv", &kcsan_opts.handle_segv, 0 },
	};
	long v;
	size_t i;

	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (strcmp(name, ints[i].name))
			continue;
		if (!parse_long(name, val, ints[i].min, &v))
			*ints[i].ival = (int)v;
		return;
	}
	if (!strcmp(name, "skip_watch")) {
		if (!parse_long(name, val, 0, &v))
			kcsan_opts.skip_watch = v;
	} else if (!strcmp(name, "focus_burst")) {
		if (!parse_long(name, val, 0, &v))
			kcsan_opts.focus_burst = v;
	} else if (!strcmp(name, "db_wait")) {
		if (!parse_long(name, val, 0, &v))
			kcsan_opts.db_wait = v;
	} else if (!strcmp(name, "focus_pace")) {
		if (!parse_long(name, val, 0, &v))
			kcsan_opts.focus_pace = v;
	} else if (!strcmp(name, "udelay")) {
		if (!parse_long(name, val, 0, &v))
			kcsan_opts.udelay = (unsigned long)v;
	} else if (!strcmp(name, "log_path")) {
		int fd = open(val, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		if (fd < 0)
			fprintf(stderr, "kcsan: cannot open log_path '%s': %s (using stderr)\n",
				val, strerror(errno));
		else
			kcsan_opts.log_fd = fd;
	} else {
		fprintf(stderr, "kcsan: KCSAN_OPTIONS: unknown option '%s' (ignored)\n",
			name);
	}
}

void kcsan_parse_options(const char *s)
{
	char buf[1024];
	char *tok, *save = NULL;

	if (!s)
		return;
	/* A copy: strtok_r writes into it, the environment must stay intact. */
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ": ,", &save); tok; tok = strtok_r(NULL, ": ,", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			fprintf(stderr, "kcsan: KCSAN_OPTIONS: '%s' is not NAME=VALUE (ignored)\n",
				tok);
			continue;
		}
		*eq = '\0';
		set_option(tok, eq + 1);
	}
}
