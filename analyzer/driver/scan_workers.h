/* analyzer/driver/scan_workers.h — parsing and storing translation units in
 * worker processes, so that a file that crashes libclang (or us) fails
 * alone instead of taking the whole scan down (see scan_workers.c). */
#ifndef KCSAN_SCAN_WORKERS_H
#define KCSAN_SCAN_WORKERS_H

#include "compdb.h"
#include "analyzer/model/vocab.h"

struct scan_job {
	struct tu_spec *spec;
	char **args;             /* what libclang gets (scan.c, build_args) */
	int nargs;
	char *args_json;
	char flags_hash[17];
	int store_all;           /* walk and store every function, leaving no
				    header function to another TU's copy */
};

struct scan_counts {
	int parsed, failed, store_errors;
};

/* Parses JOBS[0..NJOBS) with up to NWORKERS worker processes, each storing
 * its TUs into the database at DB_PATH (scan SCAN_ID) in a transaction per
 * TU.  A TU that does not parse, cannot be read, nests too deep, or whose
 * worker died is stored with status 'error' and named on stderr.  The
 * caller must hold no open connection to the database: an SQLite
 * connection must not cross fork(). */
void scan_workers_run(struct scan_job *jobs, int njobs, int nworkers, const char *db_path,
		      const struct vocab *vocab, long long scan_id, struct scan_counts *counts);

#endif
