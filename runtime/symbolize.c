/*
 * symbolize.c — code address to "function+offset" and "module+offset".
 *
 * dladdr() finds the module and, for exported symbols (-rdynamic, shared
 * libraries), the function.  Static functions, and every function of an
 * executable linked without -rdynamic, are only in the ELF .symtab: for
 * those the module file is mapped read-only and its .symtab searched for the
 * STT_FUNC symbol containing the address.  Reports are rare, so there is no
 * cache: open, mmap, search, unmap, each time.  Only syscalls and reads of a
 * private mapping: usable from any thread; a stripped or unreadable module
 * just gives module+offset (which `addr2line -e module offset` resolves).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kcsan_rt.h"

/* Search the .symtab of the ELF file at path for addr (a link-time
 * address).  Returns 1 and fills func/off if found. */
static int elf_lookup(const char *path, uintptr_t addr, char *func, size_t fn,
		      uintptr_t *off)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;
	const ElfW(Ehdr) *eh;
	const ElfW(Shdr) *sh;
	struct stat st;
	void *map;
	size_t i;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
		close(fd);
		return 0;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	eh = map;
	/* Validate everything read from the file: it may be anything. */
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(ElfW(Shdr)) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > (size_t)st.st_size)
		goto out;
	sh = (const ElfW(Shdr) *)((const char *)map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum && !found; i++) {
		const ElfW(Shdr) *strsh;
		const ElfW(Sym) *sym;
		const char *strtab;
		size_t n, j;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		strsh = &sh[sh[i].sh_link];
		if (sh[i].sh_offset + sh[i].sh_size > (size_t)st.st_size ||
		    strsh->sh_offset + strsh->sh_size > (size_t)st.st_size)
			continue;
		sym = (const ElfW(Sym) *)((const char *)map + sh[i].sh_offset);
		strtab = (const char *)map + strsh->sh_offset;
		n = sh[i].sh_size / sizeof(ElfW(Sym));
		for (j = 0; j < n; j++) {
			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || !sym[j].st_value ||
			    addr < sym[j].st_value || addr >= sym[j].st_value + sym[j].st_size ||
			    sym[j].st_name >= strsh->sh_size)
				continue;
			snprintf(func, fn, "%.*s", (int)(strsh->sh_size - sym[j].st_name),
				 strtab + sym[j].st_name);
			*off = addr - sym[j].st_value;
			found = 1;
			break;
		}
	}
out:
	munmap(map, (size_t)st.st_size);
	return found;
}

int kcsan_symbolize(uintptr_t pc, char *func, size_t fn, uintptr_t *func_off,
		    const char **module, uintptr_t *mod_off)
{
	Dl_info di;
	int have_func = 0;

	func[0] = '\0';
	*module = NULL;
	if (!pc || !dladdr((void *)pc, &di) || !di.dli_fname)
		return 0;
	*module = di.dli_fname;
	*mod_off = pc - (uintptr_t)di.dli_fbase;
	if (di.dli_sname && di.dli_saddr) {
		snprintf(func, fn, "%s", di.dli_sname);
		*func_off = pc - (uintptr_t)di.dli_saddr;
		return 1;
	}
	{
		const ElfW(Ehdr) *eh = di.dli_fbase;
		/* Link-time address: relative to the base for PIE and shared
		 * objects (ET_DYN), absolute for fixed executables. */
		uintptr_t addr = eh->e_type == ET_DYN ? *mod_off : pc;

		/* The main program's dli_fname is argv[0]-like (maybe relative,
		 * maybe empty): /proc/self/exe is the file itself. */
		if (di.dli_fname[0])
			have_func = elf_lookup(di.dli_fname, addr, func, fn, func_off);
		if (!have_func)
			have_func = elf_lookup("/proc/self/exe", addr, func, fn, func_off);
	}
	return have_func;
}
