/* cli/scan.c — `kcsan-scan scan`: options in, analyzer/driver/scan.c does the work. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analyzer/frontend/libclang.h"
#include "analyzer/driver/scan.h"
#include "commands.h"
#include "options.h"

static const char usage[] =
	"[--db FILE] [-p BUILD_DIR] [-j N] [--profile NAME|FILE]... [-q] [--times] [PATH...] [-- CFLAGS...]";

int cmd_scan(int argc, char **argv)
{
	const char *db = "kcsan.db", *build_dir = NULL;
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), quiet = 0, times = 0;
	struct kopt_list profiles = { 0 };
	const struct kopt opts[] = {
		{ "db", 0, KOPT_STRING, &db, "FILE", "database to write (default ./kcsan.db)" },
		{ "build-dir", 'p', KOPT_STRING, &build_dir, "DIR", "read DIR/compile_commands.json" },
		{ "jobs", 'j', KOPT_INT, &jobs, "N", "parse N translation units at once, then load and analyse the tree in up to N threads (default: cores)" },
		{ "profile", 0, KOPT_LIST, &profiles, "NAME|FILE", "add a vocabulary profile (repeatable)" },
		{ "quiet", 'q', KOPT_FLAG, &quiet, NULL, "do not print the summary line" },
		{ "times", 0, KOPT_FLAG, &times, NULL, "print the time each phase took" },
		{ 0 },
	};
	char **paths, **rest;
	int npaths, nrest;
	struct scan_options o = { 0 };
	json_t *cmd = json_array();
	int status;

	kopt_parse("scan", usage, opts, argc, argv, &paths, &npaths, &rest, &nrest);
	if (jobs < 1)
		kdie(2, "scan", "-j needs at least 1");
	/* An empty name would give SQLite a temporary database that vanishes
	 * with the scan, and a scan whose results are lost is no success. */
	if (!*db)
		kdie(2, "scan", "--db needs a file name");
	/* Before anything is written: without libclang nothing can be
	 * scanned (one line, exit status 2; analyzer/frontend/libclang.c). */
	kcsan_libclang_load();
	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	o.db_path = db;
	o.build_dir = build_dir;
	o.jobs = jobs;
	o.profiles = profiles.items;
	o.nprofiles = profiles.count;
	o.paths = paths;
	o.npaths = npaths;
	o.cflags = rest;
	o.ncflags = nrest;
	o.command_json = json_dumps(cmd, JSON_COMPACT);
	o.quiet = quiet;
	o.times = times;
	/* (the sanitizer build frees all the same: its leak check is how the
	 * tests know that everything has an owner) */
#ifndef KCSAN_DEBUG
	o.exiting = 1;
#endif
	status = scan_run(&o);
	free((char *)o.command_json);
	json_decref(cmd);
	free(paths);
	free(profiles.items);
	return status;
}
