/* cli/cc_compdb.h — `kcsan-scan cc` adding its entries to the compile
 * database named by $KCSAN_COMPILE_DB (cc_compdb.c). */
#ifndef KCSAN_CLI_CC_COMPDB_H
#define KCSAN_CLI_CC_COMPDB_H

/* When $KCSAN_COMPILE_DB is set: one entry per source of this invocation
 * (tool: "cc" or "c++"; user: the arguments the build gave the wrapper;
 * output: the -o argument, or NULL), added under a lock.  Never fails the
 * build: problems are warnings on stderr. */
void cc_compdb_record(const char *tool, char **user, int nuser,
		      const char *const *sources, int nsources, const char *output);

#endif
