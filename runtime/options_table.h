/* runtime/options_table.h — the runtime's options and the environment it
 * reads, each defined once, here.
 *
 * KCSAN_OPTION_TABLE(X) calls X(NAME, KIND, DEFAULT, HELP) for every
 * option of KCSAN_OPTIONS=NAME=VALUE:...; from it come the fields of
 * struct kcsan_options and their defaults (kcsan_rt.h, options.c), the
 * parser and the verbose=1 line (options.c), and the list that
 * `kcsan-scan run --help` prints (cli/run.c).  The manual page's
 * KCSAN_OPTIONS entry says more about each; tests/e2e/runtime-options.sh
 * checks that it names the same options with the same defaults, and that
 * the runtime parses every one of them.
 *
 * KIND is the C type of the field and how a value is read:
 *   INT, LONG, ULONG  a whole number >= 0 (decimal, 0x hex or 0 octal)
 *                     into an int, long or unsigned long
 *   LOG               a file name: reports are appended to it (the field
 *                     is the descriptor, kcsan_opts.log_fd); no default
 * This header is plain data for the preprocessor: the CLI includes it
 * without any of the runtime.
 */
#ifndef KCSAN_RT_OPTIONS_TABLE_H
#define KCSAN_RT_OPTIONS_TABLE_H

/* The kernel's defaults, except udelay (user space wakes up more slowly
 * than a kernel busy-wait; the delay is a nanosleep, see core.c). */
#define KCSAN_OPTION_TABLE(X) \
	X(enabled, INT, 1, \
	  "0: every entry point is a no-op (atomics still do their operation)") \
	X(skip_watch, LONG, 4000, \
	  "plain accesses skipped between two watchpoints") \
	X(skip_watch_rand, INT, 1, \
	  "skip a random count in [1, skip_watch]; a new thread starts in [0, skip_watch]") \
	X(udelay, ULONG, 80, \
	  "watch window of a watchpoint, microseconds") \
	X(udelay_rand, INT, 1, \
	  "a random window in [udelay/2, udelay]") \
	X(weak_memory, INT, 1, \
	  "simulate delayed plain accesses (reordering)") \
	X(report_unknown_origin, INT, 1, \
	  "report a watched value changed by a writer that was not seen") \
	X(dedup, INT, 1, \
	  "report each pair of code locations once per process") \
	X(verbose, INT, 0, \
	  "1: print the options at start and counts at exit") \
	X(log_path, LOG, , \
	  "append reports to FILE instead of standard error") \
	X(focus, INT, 1, \
	  "watch the static candidates of KCSAN_DB first (--no-focus: 0)") \
	X(focus_burst, LONG, 64, \
	  "a candidate's first executions all watched") \
	X(focus_pace, LONG, 2000, \
	  "then about one watchpoint per this many microseconds") \
	X(max_delay_pct, INT, 10, \
	  "watch windows (sampled, focused, re-checks) take at most this % of the time (0: no cap)") \
	X(handle_segv, INT, 1, \
	  "say so on stderr when SIGSEGV/SIGBUS kills the program (0: signals untouched)") \
	X(db_wait, LONG, 600, \
	  "seconds a report waits for a busy database (0: no limit)")

/* What a value of each KIND looks like, for help texts. */
#define KCSAN_OPT_METAVAR_INT   "N"
#define KCSAN_OPT_METAVAR_LONG  "N"
#define KCSAN_OPT_METAVAR_ULONG "N"
#define KCSAN_OPT_METAVAR_LOG   "FILE"

/* One option as text: name, metavar, default ("" when none), help. */
struct kcsan_option_doc {
	const char *name, *metavar, *def, *help;
};
/* X for KCSAN_OPTION_TABLE: one initialiser of struct kcsan_option_doc. */
#define KCSAN_OPTION_DOC(name, kind, def, help) \
	{ #name, KCSAN_OPT_METAVAR_##kind, #def, help },

/* The environment variables the runtime reads, all set by `kcsan-scan
 * run`: KCSAN_ENV_TABLE(X) calls X(MACRO, HELP) and MACRO is the name. */
#define KCSAN_ENV_DB      "KCSAN_DB"
#define KCSAN_ENV_RUN_ID  "KCSAN_RUN_ID"
#define KCSAN_ENV_OPTIONS "KCSAN_OPTIONS"
#define KCSAN_ENV_FOCUS_SITES "KCSAN_FOCUS_SITES"
#define KCSAN_ENV_TABLE(X) \
	X(KCSAN_ENV_DB, "the database races are recorded into and candidates read from") \
	X(KCSAN_ENV_RUN_ID, "the runs row the races belong to") \
	X(KCSAN_ENV_OPTIONS, "the options above, NAME=VALUE separated by ':' (the user's; --no-focus adds focus=0)") \
	X(KCSAN_ENV_FOCUS_SITES, "the candidates and barriers of KCSAN_DB, read once by run for all processes (a temporary file)")

#endif
