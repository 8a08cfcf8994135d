/* analyzer/frontend/extract.h — the libclang front end: one translation unit in,
 * facts (functions as CFGs of events) out. */
#ifndef KCSAN_EXTRACT_H
#define KCSAN_EXTRACT_H

#include "analyzer/model/facts.h"
#include "analyzer/model/vocab.h"

/* Parses PATH with compiler ARGS (no compiler name, no -c/-o, no source
 * file) run from DIRECTORY and fills FACTS.  A file that does not parse
 * gets facts->diagnostics set and no functions.  Returns 0, or -1 when
 * libclang could not even start (message in facts->diagnostics).
 * Thread-safe: each call uses its own libclang index. */
int extract_tu(const char *path, const char *directory, char **args, int nargs,
	       const struct vocab *vocab, struct tu_facts *facts);

#endif
