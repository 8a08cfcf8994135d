/*
 * linezero.c — the symbolizer on code that the line table gives line 0
 * (docs/limitations.md R4): an inlined function's code merged from two
 * call sites gets line 0 from the compiler, and a race report on it had no
 * file and line (Concurrency Kit's ck_stack_pop_mpmc inlined in mpmc_pair).
 * Such code is not produced on purpose by any compiler flag, so this test
 * makes it with "#line 0" inside an always-inline function: the DWARF is
 * then the real shape -- rows of line 0 inside a DW_TAG_inlined_subroutine
 * whose DW_AT_call_line is the caller's line (addr2line -i prints "put
 * linezero.c:?" then "main linezero.c:202").
 *
 * The code address is taken by a call from that code (grab() keeps its
 * return address); the runtime's kcsan_srcline_inl() must give the line of
 * the call of put() in main, 202, and name put as the inlined function; a
 * call at an ordinary line (203) keeps its own line and no inlined name.
 * Prints "ok" lines, or "FAIL ..." and exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int kcsan_srcline_inl(uintptr_t pc, char *file, size_t fn, int *line, char *inl, size_t inln);

static void *where;
int g;

__attribute__((noinline)) static void grab(void)
{
	where = __builtin_return_address(0);
	__asm__ __volatile__("" ::: "memory");
}

static inline __attribute__((always_inline)) void put(int *p, int v)
{
#line 0
	*p = v; grab();
#line 40
}

static int check(const char *what, void *ret, int want_line, const char *want_inl)
{
	char file[512], inl[128];
	int line = 0, found;
	const char *base;

	found = kcsan_srcline_inl((uintptr_t)ret - 1, file, sizeof file, &line, inl, sizeof inl);
	base = strrchr(file, '/');
	base = base ? base + 1 : file;
	if (!found || line != want_line || strcmp(base, "linezero.c") || strcmp(inl, want_inl)) {
		printf("FAIL %s: found=%d %s:%d inlined '%s' (want linezero.c:%d, inlined '%s')\n",
		       what, found, file, line, inl, want_line, want_inl);
		return 1;
	}
	printf("ok %s: %s:%d%s%s\n", what, base, line, inl[0] ? " inlined " : "", inl);
	return 0;
}

#line 200
int main(void)
{
	put(&g, 1);	/* line 202: the call of the inlined put */
	void *line0 = where; grab();
	return check("line-0 code of inlined put", line0, 202, "put") |
	       check("ordinary line", where, 203, "");
}
