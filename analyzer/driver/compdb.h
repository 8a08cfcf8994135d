/* analyzer/driver/compdb.h — the list of translation units to scan, from
 * compile_commands.json and from paths given on the command line. */
#ifndef KCSAN_COMPDB_H
#define KCSAN_COMPDB_H

#include <stddef.h>

struct tu_spec {
	char *path;        /* absolute, normalised */
	char *directory;   /* where the compiler ran */
	char **args;       /* compiler arguments for libclang (no compiler, -c, -o, source) */
	int nargs;
};

struct tu_list {
	struct tu_spec *tus;
	int n, cap;
};

/* Reads DIR/compile_commands.json.  C sources only; later entries for the
 * same file replace earlier ones.  Of a build with `kcsan-scan cc` (under
 * bear), the wrapper's own entries are taken: the real compiler it runs and
 * the compiler's internal processes (clang -cc1, cc1) are left out.  Returns -1 with a one-line ERR for a
 * missing or malformed file. */
int compdb_load(struct tu_list *l, const char *dir, char *err, size_t errlen);

/* Adds PATH (a C file, or a directory searched recursively for *.c) with
 * CFLAGS.  Files already in the list (from a compile database) keep their
 * own flags.  Returns -1 with ERR when PATH does not exist. */
int compdb_add_path(struct tu_list *l, const char *path, char **cflags, int ncflags,
		    char *err, size_t errlen);

void compdb_free(struct tu_list *l);

/* The current directory, allocated; NULL with errno when it cannot be
 * determined. */
char *current_dir(void);

/* Splits a shell command line into words (quotes and backslashes as the
 * shell does, no expansions).  Returns the count; *OUT is allocated. */
int split_command(const char *cmd, char ***out);

#endif
