/* runtime/dynlib.h — libsqlite3 and libdw, loaded with dlopen on first use.
 *
 * The runtime records races in the database and reads the static pass's
 * candidates from it (libsqlite3), and maps code addresses to source lines
 * (libdw), for the reports and the database.  A program that reports no
 * race and runs without KCSAN_DB needs neither, so neither is linked: each is loaded once, here, for every
 * part of the runtime that uses it, and its functions are called through
 * these tables. */
#ifndef KCSAN_RT_DYNLIB_H
#define KCSAN_RT_DYNLIB_H

#include <elfutils/libdw.h>
#include <sqlite3.h>
#include <stddef.h>

#include "../db/sqlite_fns.h"

struct kcsan_libdw {
	__typeof__(&dwarf_begin) begin;
	__typeof__(&dwarf_end) end;
	__typeof__(&dwarf_nextcu) nextcu;
	__typeof__(&dwarf_offdie) offdie;
	__typeof__(&dwarf_haspc) haspc;
	__typeof__(&dwarf_getsrc_die) getsrc_die;
	__typeof__(&dwarf_getsrclines) getsrclines;
	__typeof__(&dwarf_onesrcline) onesrcline;
	__typeof__(&dwarf_lineaddr) lineaddr;
	__typeof__(&dwarf_lineno) lineno;
	__typeof__(&dwarf_linesrc) linesrc;
	__typeof__(&dwarf_lineendsequence) lineendsequence;
	__typeof__(&dwarf_getfuncs) getfuncs;
	__typeof__(&dwarf_lowpc) lowpc;
	__typeof__(&dwarf_highpc) highpc;
	__typeof__(&dwarf_attr) attr;
	__typeof__(&dwarf_formstring) formstring;
	/* srcline.c's inline chain, for code the line table gives line 0 */
	__typeof__(&dwarf_getscopes) getscopes;
	__typeof__(&dwarf_tag) tag;
	__typeof__(&dwarf_formudata) formudata;
	__typeof__(&dwarf_getsrcfiles) getsrcfiles;
	__typeof__(&dwarf_filesrc) filesrc;
	__typeof__(&dwarf_diename) diename;
};

/* Filled by the loaders below; read only after one returned 0. */
extern struct kdb_sqlite_fns kcsan_sq;	/* the table of db/sqlite_fns.h */
extern struct kcsan_libdw kcsan_dw;

/* Load the library (the first call; later ones only report the outcome).
 * Return 0, or -1 with the reason in WHY (WHY may be NULL).  A call made
 * while another thread is loading it fails rather than waits: the runtime
 * never blocks the program on this (a fork() in the middle of a load
 * would otherwise leave the child waiting forever). */
int kcsan_load_sqlite(char *why, size_t whylen);
int kcsan_load_libdw(char *why, size_t whylen);

#endif
