/*
 * cli/cc_compdb.c — `kcsan-scan cc` writing the compile database itself:
 * with $KCSAN_COMPILE_DB naming a compile_commands.json, every compiling
 * invocation of the wrapper adds one entry per source (directory,
 * arguments, file, output), so that `kcsan-scan scan -p DIR` can read an
 * instrumented build without Bear (issue 13 item 3).
 *
 * The arguments are the wrapper's own command line -- `kcsan-scan cc`
 * followed by what the build gave it --, not the real compiler's: they
 * are the project's flags, which the scan understands (compdb.c takes a
 * wrapper entry as the build's own and drops the wrapper's words).
 *
 * make -j runs many compilers at once, each adding its entry to the same
 * file.  A writer holds an exclusive flock() on FILE.lock for its whole
 * read-modify-write, and replaces FILE by rename() of a complete new copy,
 * so that the file is valid JSON at every moment (a reader never sees half
 * a write; a killed writer leaves the old file).  An entry for the same
 * directory, file and output replaces the earlier one: a rebuild does not
 * grow the file.  A file that is not a JSON array is left alone, with a
 * warning: a database the user cares about is never overwritten, and the
 * compile goes on either way (a build must not fail for its by-product).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cc_compdb.h"

static void warn(const char *tool, const char *db, const char *what)
{
	fprintf(stderr, "kcsan-scan %s: KCSAN_COMPILE_DB=%s: %s; entry not written\n",
		tool, db, what);
}

/* Same directory, file and output (absent counts as equal to absent). */
static int same_entry(json_t *e, const char *dir, const char *file, const char *output)
{
	const char *d = json_string_value(json_object_get(e, "directory"));
	const char *f = json_string_value(json_object_get(e, "file"));
	const char *o = json_string_value(json_object_get(e, "output"));

	return d && f && !strcmp(d, dir) && !strcmp(f, file) &&
	       ((!o && !output) || (o && output && !strcmp(o, output)));
}

/* The entry for one source: file made absolute against dir (what CMake
 * writes; the arguments keep the build's own spelling). */
static json_t *make_entry(const char *dir, const char *self, const char *tool,
			  char **user, int nuser, const char *file, const char *output)
{
	json_t *e = json_object(), *args = json_array();

	json_array_append_new(args, json_string(self));
	json_array_append_new(args, json_string(tool));
	for (int i = 0; i < nuser; i++)
		json_array_append_new(args, json_string(user[i]));
	json_object_set_new(e, "directory", json_string(dir));
	json_object_set_new(e, "arguments", args);
	json_object_set_new(e, "file", json_string(file));
	if (output)
		json_object_set_new(e, "output", json_string(output));
	return e;
}

static char *absolute(const char *dir, const char *path)
{
	char *out;

	if (path[0] == '/')
		return strdup(path);
	if (asprintf(&out, "%s/%s", dir, path) < 0)
		return NULL;
	return out;
}

void cc_compdb_record(const char *tool, char **user, int nuser,
		      const char *const *sources, int nsources, const char *output)
{
	const char *db = getenv("KCSAN_COMPILE_DB");
	char dir[PATH_MAX], self[PATH_MAX], *lock = NULL, *tmp = NULL;
	json_t *root = NULL;
	json_error_t err;
	ssize_t n;
	int fd = -1;

	if (!db || !*db || nsources == 0)
		return;
	if (!getcwd(dir, sizeof dir))
		return warn(tool, db, "cannot read the current directory");
	/* The program's absolute path: the build may run it by a relative
	 * name, or from another directory than the scan. */
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		snprintf(self, sizeof self, "kcsan-scan");
	else
		self[n] = '\0';
	if (asprintf(&lock, "%s.lock", db) < 0 || asprintf(&tmp, "%s.tmp.%ld", db, (long)getpid()) < 0)
		goto out;
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		warn(tool, db, strerror(errno));
		goto out;
	}
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			warn(tool, db, strerror(errno));
			goto out;
		}
	if (access(db, F_OK) == 0) {
		root = json_load_file(db, 0, &err);
		if (!root || !json_is_array(root)) {
			warn(tool, db, "not a JSON array (a compile database)");
			goto out;
		}
	} else {
		root = json_array();
	}
	for (int s = 0; s < nsources; s++) {
		char *file = absolute(dir, sources[s]);
		size_t i = 0;

		if (!file)
			goto out;
		while (i < json_array_size(root)) {
			if (same_entry(json_array_get(root, i), dir, file, output))
				json_array_remove(root, i);
			else
				i++;
		}
		json_array_append_new(root, make_entry(dir, self, tool, user, nuser, file, output));
		free(file);
	}
	if (json_dump_file(root, tmp, JSON_INDENT(2)) < 0) {
		warn(tool, db, "cannot write its new copy");
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, db) < 0) {
		warn(tool, db, strerror(errno));
		unlink(tmp);
	}
out:
	/* Closing the descriptor releases the lock. */
	if (fd >= 0)
		close(fd);
	json_decref(root);
	free(lock);
	free(tmp);
}
