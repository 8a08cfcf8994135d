/*
 * srcline.c — code address to source file and line, for the text report
 * and the database.
 *
 * The DWARF line table is read with elfutils' libdw, loaded with dlopen
 * (dynlib.c) on the first use: programs that report no race (and read no
 * candidates) neither link nor load it, and a machine without libdw still
 * gets reports, only without file:line (function+offset and module+offset
 * in the text report).  Reports are rare; each module's Dwarf handle is
 * opened once and kept.  The CU containing the address is found by walking the CUs and
 * asking each whether it covers the address (dwarf_haspc), which works with
 * or without .debug_aranges (clang emits none).
 *
 * Called by report.c (the text report's file:line) and dbwrite.c (the
 * database's, under db_lock), from any thread: libdw and the module table
 * are not thread-safe, so lookups are serialised by srcline_lock, which is
 * held for nothing else (no lock of the runtime is taken under it:
 * dbwrite.c's db_lock -> srcline_lock is the only order, and report.c
 * holds none).  Never from a nested context (a signal
 * handler may have interrupted this thread's lookup, holding the lock, and
 * libdw allocates): those reports keep function+offset.  A fork() taken
 * while another thread looked up leaves the child with libdw's state half
 * updated, so that child gives up lines altogether (srcline_broken)
 * rather than wait for a lock nobody will release.
 *
 * File names are made absolute with the compilation unit's DW_AT_comp_dir
 * when relative, and normalised lexically (kdb_path_normalize): an
 * #include through 'dir/../' must not give a second name to one file.
 * Line 0 (code the compiler attributes to no line: an inlined function's
 * code merged from two call sites) gives the line of the call in the
 * caller, from the DWARF inline chain (inline_call_site), and the inlined
 * function's name for the text report; unknown only when that fails too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../db/races.h"

#include "dynlib.h"
#include "kcsan_rt.h"

static pthread_mutex_t srcline_lock = PTHREAD_MUTEX_INITIALIZER;
static int srcline_busy;	/* a lookup holds srcline_lock */
static int srcline_broken;	/* forked during another thread's lookup */

static void srcline_child_after_fork(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

	if (srcline_busy)
		srcline_broken = 1;
	srcline_busy = 0;
	memcpy(&srcline_lock, &fresh, sizeof(fresh));
}

__attribute__((constructor)) static void srcline_register_fork(void)
{
	pthread_atfork(NULL, NULL, srcline_child_after_fork);
}


#define MAX_MODULES 32
static struct {
	char path[256];
	Dwarf *dbg;	/* NULL: no debug information */
} modules[MAX_MODULES];
static int nmodules;

static Dwarf *module_dwarf(const char *path)
{
	int i, fd;

	for (i = 0; i < nmodules; i++)
		if (!strcmp(modules[i].path, path))
			return modules[i].dbg;
	if (nmodules == MAX_MODULES)
		return NULL;
	snprintf(modules[nmodules].path, sizeof(modules[0].path), "%s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	/* The fd stays open as long as the handle (libdw reads lazily). */
	modules[nmodules].dbg = fd >= 0 ? kcsan_dw.begin(fd, DWARF_C_READ) : NULL;
	if (fd >= 0 && !modules[nmodules].dbg)
		close(fd);
	return modules[nmodules++].dbg;
}

/* FILE (fn bytes) := SRC, made absolute with the CU's compilation
 * directory when relative, normalised.  gcc names a file compiled by a
 * relative path relative to the compilation directory: recorded absolute,
 * as the scan does, so that it means the same file wherever the database
 * is read. */
static void absolute_src(Dwarf_Die *cu, const char *src, char *file, size_t fn)
{
	Dwarf_Attribute at;
	const char *dir = NULL;

	if (src[0] != '/' && kcsan_dw.attr(cu, DW_AT_comp_dir, &at))
		dir = kcsan_dw.formstring(&at);
	if (dir)
		snprintf(file, fn, "%s/%s", dir, src);
	else
		snprintf(file, fn, "%s", src);
	kdb_path_normalize(file);
}

/*
 * Code the line table gives line 0: the compiler merged the code of an
 * inlined function from two call sites (or made it up), and no line of
 * that function is right.  The inline chain still says where it was
 * inlined: the innermost DW_TAG_inlined_subroutine holding addr has the
 * call's file and line in its caller (what `addr2line -i` prints as the
 * second frame) -- a real line of the frame the report names.  The
 * inlined function's name goes to inl (inln bytes) when asked.  1 if found.
 */
static int inline_call_site(Dwarf_Die *cu, Dwarf_Addr addr, char *file, size_t fn, int *line,
			    char *inl, size_t inln)
{
	Dwarf_Die *scopes = NULL;
	int n = kcsan_dw.getscopes(cu, addr, &scopes), found = 0;

	for (int i = 0; i < n && !found; i++) {
		Dwarf_Attribute at;
		Dwarf_Word call_line, call_file;
		Dwarf_Files *files;
		size_t nfiles;
		const char *src, *name;

		if (kcsan_dw.tag(&scopes[i]) != DW_TAG_inlined_subroutine ||
		    !kcsan_dw.attr(&scopes[i], DW_AT_call_line, &at) ||
		    kcsan_dw.formudata(&at, &call_line) || call_line == 0 ||
		    !kcsan_dw.attr(&scopes[i], DW_AT_call_file, &at) ||
		    kcsan_dw.formudata(&at, &call_file) ||
		    kcsan_dw.getsrcfiles(cu, &files, &nfiles) || call_file >= nfiles ||
		    !(src = kcsan_dw.filesrc(files, call_file, NULL, NULL)))
			continue;
		absolute_src(cu, src, file, fn);
		*line = call_line > (Dwarf_Word)__INT_MAX__ ? 0 : (int)call_line;
		if (inl && inln) {
			name = kcsan_dw.diename(&scopes[i]);
			snprintf(inl, inln, "%s", name ? name : "?");
		}
		found = *line > 0;
	}
	free(scopes);
	return found;
}

static int lookup(uintptr_t pc, char *file, size_t fn, int *line, char *inl, size_t inln)
{
	Dl_info di;
	const ElfW(Ehdr) *eh;
	const char *path, *src;
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Addr addr;
	Dwarf *dbg;

	file[0] = '\0';
	*line = 0;
	if (!pc || kcsan_load_libdw(NULL, 0) || !dladdr((void *)pc, &di) || !di.dli_fbase)
		return 0;
	eh = di.dli_fbase;
	/* Link-time address: base-relative for PIE and shared objects. */
	addr = eh->e_type == ET_DYN ? pc - (uintptr_t)di.dli_fbase : pc;
	/* The main program's dli_fname may be relative or empty. */
	path = di.dli_fname && di.dli_fname[0] == '/' ? di.dli_fname : NULL;
	if (!path) {
		static char exe[256];
		ssize_t n;

		/* Only the main program has a non-absolute name. */
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return 0;
		exe[n] = '\0';
		path = exe;
	}
	dbg = module_dwarf(path);
	if (!dbg)
		return 0;
	while (kcsan_dw.nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Line *l;

		if (kcsan_dw.offdie(dbg, off + hsize, &cu) && kcsan_dw.haspc(&cu, addr) > 0 &&
		    (l = kcsan_dw.getsrc_die(&cu, addr)) && kcsan_dw.lineno(l, line) == 0 &&
		    (src = kcsan_dw.linesrc(l, NULL, NULL))) {
			absolute_src(&cu, src, file, fn);
			if (*line > 0)
				return 1;
			return inline_call_site(&cu, addr, file, fn, line, inl, inln);
		}
		off = next;
	}
	*line = 0;
	return 0;
}

int kcsan_srcline_inl(uintptr_t pc, char *file, size_t fn, int *line, char *inl, size_t inln)
{
	int found = 0;

	file[0] = '\0';
	*line = 0;
	if (inl && inln)
		inl[0] = '\0';
	if (kcsan_get_ctx()->nested || __atomic_load_n(&srcline_broken, __ATOMIC_RELAXED))
		return 0;
	pthread_mutex_lock(&srcline_lock);
	__atomic_store_n(&srcline_busy, 1, __ATOMIC_RELAXED);
	found = lookup(pc, file, fn, line, inl, inln);
	if (!found) {
		/* Line 0, or nothing: no half answer (a file without a line). */
		file[0] = '\0';
		*line = 0;
		if (inl && inln)
			inl[0] = '\0';
	}
	__atomic_store_n(&srcline_busy, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&srcline_lock);
	return found;
}

int kcsan_srcline(uintptr_t pc, char *file, size_t fn, int *line)
{
	return kcsan_srcline_inl(pc, file, fn, line, NULL, 0);
}
