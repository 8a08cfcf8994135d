/* runtime/dynlib.c — loading libsqlite3 and libdw on first use (dynlib.h). */
#define _GNU_SOURCE
#include "dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

struct kdb_sqlite_fns kcsan_sq;
struct kcsan_libdw kcsan_dw;

/* A library's loading: 0 not tried, 1 being loaded, 2 loaded, 3 failed
 * (then WHY says why). */
struct lib {
	int state;
	char why[160];
};

static struct lib sqlite_lib, libdw_lib;

/* Fills TABLE's N entries from the library SONAME, symbol names PREFIX +
 * NAMES[i]. */
static int load(struct lib *lib, const char *soname, const char *prefix,
		const char *const *names, void **table, size_t n)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(lib->why, sizeof lib->why, "cannot load %s: %s", soname, dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char sym[64];

		snprintf(sym, sizeof sym, "%s%s", prefix, names[i]);
		if (!(table[i] = dlsym(h, sym))) {
			snprintf(lib->why, sizeof lib->why, "%s has no %s", soname, sym);
			return -1;
		}
	}
	return 0;
}

static int load_once(struct lib *lib, const char *soname, const char *prefix,
		     const char *const *names, void **table, size_t n, char *why, size_t whylen)
{
	int expected = 0, st;

	if (__atomic_compare_exchange_n(&lib->state, &expected, 1, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		st = load(lib, soname, prefix, names, table, n) == 0 ? 2 : 3;
		__atomic_store_n(&lib->state, st, __ATOMIC_RELEASE);
	} else {
		st = expected;
	}
	if (st == 2)
		return 0;
	if (why)
		snprintf(why, whylen, "%s", st == 1 ? "being loaded by another thread" : lib->why);
	return -1;
}

/* The names, in the order of the fields of struct kdb_sqlite_fns / kcsan_libdw
 * (each table is filled as an array of pointers). */
static const char *const sqlite_names[] = {
	"open_v2", "busy_timeout", "exec", "prepare_v2", "bind_text", "bind_int64",
	"bind_null", "step", "reset", "column_text", "column_int", "column_int64", "finalize",
	"errmsg", "close", "get_autocommit",
};
static const char *const libdw_names[] = {
	"begin", "end", "nextcu", "offdie", "haspc", "getsrc_die", "getsrclines",
	"onesrcline", "lineaddr", "lineno", "linesrc", "lineendsequence", "getfuncs",
	"lowpc", "highpc", "attr", "formstring", "getscopes", "tag", "formudata",
	"getsrcfiles", "filesrc", "diename",
};

_Static_assert(sizeof kcsan_sq == sizeof sqlite_names / sizeof *sqlite_names * sizeof(void *),
	       "sqlite_names must list every field of struct kdb_sqlite_fns");
_Static_assert(sizeof kcsan_dw == sizeof libdw_names / sizeof *libdw_names * sizeof(void *),
	       "libdw_names must list every field of struct kcsan_libdw");

int kcsan_load_sqlite(char *why, size_t whylen)
{
	return load_once(&sqlite_lib, "libsqlite3.so.0", "sqlite3_", sqlite_names, (void **)&kcsan_sq,
			 sizeof sqlite_names / sizeof *sqlite_names, why, whylen);
}

int kcsan_load_libdw(char *why, size_t whylen)
{
	return load_once(&libdw_lib, "libdw.so.1", "dwarf_", libdw_names, (void **)&kcsan_dw,
			 sizeof libdw_names / sizeof *libdw_names, why, whylen);
}
