/*
 * racy.h — the racing accesses of tests/e2e/data/dynamic/hdr/validate/
 * prog.c, in a header that prog.c includes through '../include/', so that
 * the DWARF names it 'validate/../include/racy.h' (relative to the
 * compilation directory), as Concurrency Kit's regressions name
 * '../../../include/ck_stack.h'.  The runtime must report and record the
 * file as include/racy.h, with the line of each access.
 */
extern unsigned long hits;

/* Writer side: a plain increment. */
__attribute__((noinline)) static void racy_bump(void)
{
	hits++;
}

/* Reader side: a plain read. */
__attribute__((noinline)) static unsigned long racy_peek(void)
{
	return hits;
}
