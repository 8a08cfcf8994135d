/* analyzer/driver/scan.h — the whole static scan: gather translation units, parse
 * the changed ones in parallel, store their facts, analyse the tree, store
 * the findings. */
#ifndef KCSAN_SCAN_H
#define KCSAN_SCAN_H

struct scan_options {
	const char *db_path;
	const char *build_dir;       /* -p: directory with compile_commands.json */
	int jobs;                    /* worker processes parsing at once, and the
					threads of the whole-tree analysis; >= 1 */
	const char **profiles;       /* extra profiles, names or files */
	int nprofiles;
	char **paths;
	int npaths;
	char **cflags;               /* after "--" */
	int ncflags;
	const char *command_json;    /* the command line, for the scans table */
	int quiet;
	int times;                  /* print the time each phase took */
	/* The caller exits right after: the whole tree's facts and analysis
	 * are left to the end of the process rather than freed one by one
	 * (millions of small blocks: a third of a second on Open vSwitch). */
	int exiting;
};

/* Runs the scan.  Returns the exit status: 0 done, 1 done but some files
 * did not parse, 2 bad input (message already printed). */
int scan_run(const struct scan_options *o);

/* The directory that holds kcsan/lkmm.h for this installation. */
const char *kcsan_include_dir(void);

#endif
