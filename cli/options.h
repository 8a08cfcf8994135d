/* cli/options.h — the option parser every subcommand shares.
 *
 * A subcommand describes its options in a table of struct kopt and calls
 * kopt_parse().  Options may come before, between or after operands;
 * "--" ends option parsing (the rest is left to the subcommand).  Errors
 * print one line "kcsan-scan CMD: ..." and exit with status 2, as the spec
 * requires for usage errors; --help prints the usage and exits 0.
 */
#ifndef KCSAN_CLI_OPTIONS_H
#define KCSAN_CLI_OPTIONS_H

enum kopt_type {
	KOPT_FLAG,      /* int *: set to 1 */
	KOPT_STRING,    /* const char **: last one wins */
	KOPT_INT,       /* int *: a non-negative decimal number */
	KOPT_LIST,      /* struct kopt_list *: every occurrence appended */
};

struct kopt_list {
	const char **items;
	int count;
};

struct kopt {
	const char *long_name;  /* without the leading "--" */
	char short_name;        /* 0 if none */
	enum kopt_type type;
	void *dest;
	const char *arg_name;   /* shown in help, e.g. "FILE" */
	const char *help;
};

/* Parses ARGV[1..ARGC-1] of subcommand CMD.  Operands are collected, in
 * order, into OPERANDS (allocated; *NOPERANDS set).  If STOP_AT_DASHDASH,
 * everything after "--" goes to REST and NREST (else "--" just ends
 * options and what follows are operands).  USAGE is the synopsis line. */
void kopt_parse(const char *cmd, const char *usage, const struct kopt *opts,
		int argc, char **argv, char ***operands, int *noperands,
		char ***rest, int *nrest);

/* Prints the usage line and the option table of CMD to stdout, then what
 * the function given to kopt_help_more() prints, if any. */
void kopt_help(const char *cmd, const char *usage, const struct kopt *opts);

/* Sets what --help prints after the option table (a subcommand's other
 * settings: run lists the runtime's options); NULL for nothing. */
void kopt_help_more(void (*print)(void));

/* Prints "kcsan-scan CMD: MESSAGE" to stderr and exits with STATUS. */
void kdie(int status, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

#endif
