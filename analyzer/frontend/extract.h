/* analyzer/frontend/extract.h — the libclang front end: one translation unit in,
 * facts (functions as CFGs of events) out. */
#ifndef KCSAN_EXTRACT_H
#define KCSAN_EXTRACT_H

#include "analyzer/model/facts.h"
#include "analyzer/model/vocab.h"

/* One copy of each header function per tree.  A static inline function
 * of a header is the same function in every TU that includes it, and the
 * analysis reads one copy of it (the one of the TU whose path sorts
 * first: db/facts.c); a tree's headers hold most of its functions, and
 * walking and storing them once per including TU was half of a scan's
 * time.  STORED_BEFORE(ARG, LINK_KEY, FILE, TU_PATH) says whether a TU
 * whose path sorts before TU_PATH has stored function LINK_KEY of header
 * FILE: then this TU does not walk it and lists it in facts->skipped
 * instead.  It may err towards 0 (an extra copy is stored); a 1 that
 * turns out wrong (that copy vanished) is the scan's to repair
 * (scan.c). */
struct header_copies {
	int (*stored_before)(void *arg, const char *link_key, const char *file, const char *tu_path);
	void *arg;
};

/* Parses PATH with compiler ARGS (no compiler name, no -c/-o, no source
 * file) run from DIRECTORY and fills FACTS.  A file that does not parse
 * gets facts->diagnostics set and no functions.  With COPIES, a function
 * defined in a header is skipped when COPIES says another TU stored it
 * (never one of a header in which this TU defines main(): each TU of such
 * a harness header keeps its own copy); NULL walks every function.
 * Returns 0, or -1 when libclang could not even start (message in
 * facts->diagnostics).  Thread-safe: each call uses its own libclang
 * index. */
int extract_tu(const char *path, const char *directory, char **args, int nargs,
	       const struct vocab *vocab, const struct header_copies *copies, struct tu_facts *facts);

#endif
