/* runtime/dynlib.h — libsqlite3 and libdw, loaded with dlopen on first use.
 *
 * The runtime records races in the database and reads the static pass's
 * candidates from it (libsqlite3), and maps code addresses to source lines
 * (libdw).  A program run without KCSAN_DB, or without debug information,
 * needs neither, so neither is linked: each is loaded once, here, for every
 * part of the runtime that uses it, and its functions are called through
 * these tables. */
#ifndef KCSAN_RT_DYNLIB_H
#define KCSAN_RT_DYNLIB_H

#include <elfutils/libdw.h>
#include <sqlite3.h>
#include <stddef.h>

struct kcsan_sqlite {
	__typeof__(&sqlite3_open_v2) open_v2;
	__typeof__(&sqlite3_busy_timeout) busy_timeout;
	__typeof__(&sqlite3_exec) exec;
	__typeof__(&sqlite3_prepare_v2) prepare_v2;
	__typeof__(&sqlite3_bind_text) bind_text;
	__typeof__(&sqlite3_bind_int64) bind_int64;
	__typeof__(&sqlite3_bind_null) bind_null;
	__typeof__(&sqlite3_step) step;
	__typeof__(&sqlite3_column_text) column_text;
	__typeof__(&sqlite3_column_int) column_int;
	__typeof__(&sqlite3_finalize) finalize;
	__typeof__(&sqlite3_errmsg) errmsg;
	__typeof__(&sqlite3_close) close;
	__typeof__(&sqlite3_get_autocommit) get_autocommit;
};

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
};

/* Filled by the loaders below; read only after one returned 0. */
extern struct kcsan_sqlite kcsan_sq;
extern struct kcsan_libdw kcsan_dw;

/* Load the library (the first call; later ones only report the outcome).
 * Return 0, or -1 with the reason in WHY (WHY may be NULL).  A call made
 * while another thread is loading it fails rather than waits: the runtime
 * never blocks the program on this (a fork() in the middle of a load
 * would otherwise leave the child waiting forever). */
int kcsan_load_sqlite(char *why, size_t whylen);
int kcsan_load_libdw(char *why, size_t whylen);

#endif
