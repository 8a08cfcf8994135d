/* cli/main.c — the kcsan-scan program: dispatches to one subcommand (or,
 * run as kcsan-cc / kcsan-c++, is that compiler). */
#include <stdio.h>
#include <string.h>

#include "analyzer/driver/hugepages.h"
#include "commands.h"
#include "options.h"

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *summary;
} commands[] = {
	{ "scan",   cmd_scan,   "analyse C sources and record missing-barrier candidates" },
	{ "cc",     cmd_cc,     "compile and link like cc, for the runtime (CC=\"kcsan-scan cc\";\n"
		    "           with KCSAN_COMPILE_DB=FILE it also adds its entries to that compile database)" },
	{ "c++",    cmd_cxx,    "the same for C++ (CXX=\"kcsan-scan c++\"; $KCSAN_CXX, default clang++)" },
	{ "run",    cmd_run,    "run a command built with 'cc', recording races into the database" },
	{ "report", cmd_report, "print the findings as text, JSON or SARIF" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: kcsan-scan COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'kcsan-scan COMMAND --help' describes a command; 'man kcsan-scan' has it all.\n");
}

int main(int argc, char **argv)
{
	const char *self = strrchr(argv[0], '/');

	/* Run through a symlink named kcsan-cc or kcsan-c++: that compiler
	 * (build systems that want CC / CXX to be one word). */
	self = self ? self + 1 : argv[0];
	if (strcmp(self, "kcsan-c++") == 0)
		return cmd_cxx(argc, argv);
	if (strcmp(self, "kcsan-cc") == 0)
		return cmd_cc(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("kcsan-scan %s\n", KCSAN_VERSION);
		return 0;
	}
	/* (only the scan: the programs `run` starts inherit its environment) */
	if (strcmp(argv[1], "scan") == 0)
		scan_prefer_huge_pages(argv);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	kdie(2, NULL, "'%s' is not a command (see 'kcsan-scan --help')", argv[1]);
}
