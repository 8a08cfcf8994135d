/* analyzer/analysis/caps.c — counting the analysis's iteration caps (see
 * caps.h).  The counts are process-wide: the analysis runs once per scan.
 * Its follower threads (split.c) repeat the leader's runs and are muted,
 * so that each cap is counted once and by one thread. */
#include "caps.h"

static unsigned long hits[ANALYSIS_NCAPS];
static _Thread_local int muted;

static const char *const names[ANALYSIS_NCAPS] = {
	[CAP_DERIVED] = "local-derivation",
	[CAP_PRE_SPAWN] = "pre-spawn",
	[CAP_FUNCTION] = "function-solver",
	[CAP_INSTANCES] = "thread-instances",
	[CAP_ENTRIES] = "callee-entries",
	[CAP_SUMMARY] = "recursive-summaries",
};

void analysis_cap_hit(enum analysis_cap cap)
{
	if ((unsigned)cap < ANALYSIS_NCAPS && !muted)
		hits[cap]++;
}

void analysis_caps_mute(void)
{
	muted = 1;
}

void analysis_caps_reset(void)
{
	for (int i = 0; i < ANALYSIS_NCAPS; i++)
		hits[i] = 0;
}

unsigned long analysis_cap_count(enum analysis_cap cap)
{
	return (unsigned)cap < ANALYSIS_NCAPS ? hits[cap] : 0;
}

int analysis_caps_hit(void)
{
	int n = 0;

	for (int i = 0; i < ANALYSIS_NCAPS; i++)
		n += hits[i] != 0;
	return n;
}

int analysis_caps_print(FILE *out)
{
	int n = 0;

	fputs("iteration caps hit:", out);
	for (int i = 0; i < ANALYSIS_NCAPS; i++)
		if (hits[i]) {
			fprintf(out, "%s %s %lu", n ? "," : "", names[i], hits[i]);
			n++;
		}
	fputs(n ? "\n" : " none\n", out);
	return n;
}
