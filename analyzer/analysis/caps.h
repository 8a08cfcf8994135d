/* analyzer/analysis/caps.h — the iteration caps of the analysis, counted.
 *
 * Every fixpoint of the analysis stops after a fixed number of rounds, so
 * that a pathological program cannot make the scan run for ever.  A cap
 * that is hit means a result that may be incomplete (a dependency or a
 * summary not fully propagated); it must never pass silently.  Each loop
 * reports a hit here; `scan --times` prints the counts. */
#ifndef KCSAN_CAPS_H
#define KCSAN_CAPS_H

#include <stdio.h>

enum analysis_cap {
	CAP_DERIVED,    /* which marked reads a local's value comes from (per function) */
	CAP_PRE_SPAWN,  /* code before the first thread creation (per function) */
	CAP_FUNCTION,   /* the per-function solver over its blocks */
	CAP_INSTANCES,  /* how many instances of each thread start */
	CAP_ENTRIES,    /* callee entry states weakened from their call sites */
	CAP_SUMMARY,    /* summaries of a recursive component of the call graph */
	ANALYSIS_NCAPS
};

/* Counts one loop that stopped at its cap with work left. */
void analysis_cap_hit(enum analysis_cap cap);

/* The calling thread's hits are not counted from now on (a thread that
 * repeats another's work). */
void analysis_caps_mute(void);
/* Sets every count to 0 (at the start of an analysis). */
void analysis_caps_reset(void);

/* How often CAP was hit since the last reset. */
unsigned long analysis_cap_count(enum analysis_cap cap);

/* How many caps were hit at least once since the last reset. */
int analysis_caps_hit(void);

/* Writes "iteration caps hit: none" or "iteration caps hit: NAME N, ..."
 * and a newline to OUT; returns how many caps were hit. */
int analysis_caps_print(FILE *out);

#endif
