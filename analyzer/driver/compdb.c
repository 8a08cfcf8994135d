/* analyzer/driver/compdb.c — translation units from compile_commands.json and
 * from the command line (see compdb.h).
 *
 * Every path is made absolute here, once: an entry's "directory" against
 * the folder that holds compile_commands.json (as clang's tooling does;
 * against our own working directory it would name another tree), its
 * "file" and path flags against that directory.  No path is copied into a
 * fixed-size buffer: paths come from the input and have no useful limit. */
#include "compdb.h"
#include "analyzer/model/paths.h"
#include "analyzer/model/facts.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int split_command(const char *cmd, char ***out)
{
	char **words = NULL, *w = xmalloc(strlen(cmd) + 1);
	int n = 0, cap = 0;
	size_t len = 0;
	int in_word = 0;

	for (const char *p = cmd;; p++) {
		char c = *p;

		if (c == '\0' || ((c == ' ' || c == '\t' || c == '\n') )) {
			if (in_word) {
				w[len] = '\0';
				grow(&words, &cap, n + 1, sizeof *words);
				words[n++] = xstrdup(w);
				len = 0;
				in_word = 0;
			}
			if (c == '\0')
				break;
			continue;
		}
		in_word = 1;
		if (c == '\\' && p[1]) {
			w[len++] = *++p;
		} else if (c == '\'') {
			while (*++p && *p != '\'')
				w[len++] = *p;
			if (!*p)
				p--;
		} else if (c == '"') {
			while (*++p && *p != '"') {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				w[len++] = *p;
			}
			if (!*p)
				p--;
		} else {
			w[len++] = c;
		}
	}
	free(w);
	*out = words;
	return n;
}

static int is_c_source(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && strcmp(path + n - 2, ".c") == 0;
}

/* PATH made absolute against DIR, without "." and ".." parts. */
static char *absolute(const char *dir, const char *path)
{
	char *joined = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", dir, path);
	char *out = path_normalized(joined);

	free(joined);
	return out;
}

static struct tu_spec *find(struct tu_list *l, const char *path)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->tus[i].path, path) == 0)
			return &l->tus[i];
	return NULL;
}

static void spec_free(struct tu_spec *t)
{
	for (int i = 0; i < t->nargs; i++)
		free(t->args[i]);
	free(t->args);
	free(t->path);
	free(t->directory);
}

static struct tu_spec *add(struct tu_list *l, const char *path)
{
	struct tu_spec *t = find(l, path);

	if (t) {
		spec_free(t);
	} else {
		grow(&l->tus, &l->cap, l->n + 1, sizeof *l->tus);
		t = &l->tus[l->n++];
	}
	memset(t, 0, sizeof *t);
	t->path = xstrdup(path);
	return t;
}

static void push_arg(struct tu_spec *t, int *cap, const char *a)
{
	grow(&t->args, cap, t->nargs + 1, sizeof *t->args);
	t->args[t->nargs++] = xstrdup(a);
}

/* Keeps the flags that matter for parsing; paths in them are made
 * absolute because libclang resolves them against our own directory. */
static void filter_args(struct tu_spec *t, char **words, int n, const char *file_as_written)
{
	int cap = 0;
	static const char *const path_flags[] = { "-I", "-isystem", "-iquote", "-include", "-idirafter", NULL };

	for (int i = 1; i < n; i++) {   /* words[0] is the compiler */
		const char *a = words[i];
		int handled = 0;

		if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0)
			continue;
		if (strcmp(a, "-o") == 0 || strcmp(a, "-MF") == 0 || strcmp(a, "-MT") == 0 || strcmp(a, "-MQ") == 0) {
			i++;
			continue;
		}
		if (strncmp(a, "-M", 2) == 0 || strncmp(a, "-o", 2) == 0 || strncmp(a, "-W", 2) == 0)
			continue;   /* dependency output, output file, warnings */
		if (strcmp(a, file_as_written) == 0 || is_c_source(a))
			continue;
		for (int p = 0; path_flags[p]; p++) {
			size_t fl = strlen(path_flags[p]);

			if (strncmp(a, path_flags[p], fl) != 0)
				continue;
			const char *val = a[fl] ? a + fl : (i + 1 < n ? words[++i] : NULL);
			if (val) {
				char *abs = absolute(t->directory, val);

				/* -include FILE: the compiler looks in its working
				 * directory, then along the -I chain (already made
				 * absolute): keep FILE as written unless it is
				 * there (autotools' -I../include -include config.h). */
				if (strcmp(path_flags[p], "-include") == 0 && val[0] != '/' &&
				    access(abs, F_OK) != 0) {
					free(abs);
					abs = xstrdup(val);
				}
				push_arg(t, &cap, path_flags[p]);
				push_arg(t, &cap, abs);
				free(abs);
			}
			handled = 1;
			break;
		}
		if (!handled)
			push_arg(t, &cap, a);
	}
}

/* The current directory, allocated (NULL, errno set, if it cannot be
 * determined). */
char *current_dir(void)
{
	return getcwd(NULL, 0);
}

/*
 * What an entry is.  A build run under bear with CC="kcsan-scan cc" records
 * every compiler process it sees for one file: the wrapper's own command
 * (the build's: its flags are the project's), the real compiler the wrapper
 * runs (the same flags and the wrapper's instrumentation flags), and, when
 * the compiler runs its front end as a separate process, that process
 * (clang -cc1, gcc's cc1), whose flags only the compiler proper takes
 * (libclang rejects -mrelocation-model).  The wrapper's entry is the one to
 * scan; the compiler's internal entries never are.
 */
enum entry_kind {
	ENTRY_COMPILER,		/* an ordinary compiler command */
	ENTRY_WRAPPER,		/* kcsan-scan cc|c++ ..., kcsan-cc / kcsan-c++ ... */
	ENTRY_INNER,		/* the real compiler as the wrapper runs it */
	ENTRY_INTERNAL,		/* clang -cc1 / -cc1as, cc1, cc1plus */
};

static const char *base_name(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? slash + 1 : p;
}

/* The kind of the command WORDS; *COMPILER is the index of the word that
 * stands for the compiler (for `kcsan-scan cc`, "cc"). */
static enum entry_kind entry_kind(char **words, int n, int *compiler)
{
	const char *b = n > 0 ? base_name(words[0]) : "";

	*compiler = 0;
	if (strcmp(b, "kcsan-scan") == 0 && n > 1 &&
	    (strcmp(words[1], "cc") == 0 || strcmp(words[1], "c++") == 0)) {
		*compiler = 1;
		return ENTRY_WRAPPER;
	}
	if (strcmp(b, "kcsan-cc") == 0 || strcmp(b, "kcsan-c++") == 0)
		return ENTRY_WRAPPER;
	if (strcmp(b, "cc1") == 0 || strcmp(b, "cc1plus") == 0 || strcmp(b, "cc1obj") == 0)
		return ENTRY_INTERNAL;
	for (int i = 1; i < n; i++)
		if (strcmp(words[i], "-cc1") == 0 || strcmp(words[i], "-cc1as") == 0)
			return ENTRY_INTERNAL;
	/* The flag cli/cc.c adds for either compiler, and nobody else. */
	for (int i = 1; i < n; i++)
		if (strcmp(words[i], "-tsan-distinguish-volatile=1") == 0 ||
		    strcmp(words[i], "--param=tsan-distinguish-volatile=1") == 0)
			return ENTRY_INNER;
	return ENTRY_COMPILER;
}

/* One C source entry of the database, parsed. */
struct raw_entry {
	char *abs, *dir, **words;
	const char *file;	/* as written, in the JSON */
	int n, compiler;
	enum entry_kind kind;
};

static void raw_free(struct raw_entry *r)
{
	for (int q = 0; q < r->n; q++)
		free(r->words[q]);
	free(r->words);
	free(r->abs);
	free(r->dir);
}

/* Does a wrapper entry exist for the file of entry I?  (Linear, as add()
 * is: databases are read once per scan.) */
static int has_wrapper(const struct raw_entry *r, int n, int i)
{
	for (int k = 0; k < n; k++)
		if (r[k].kind == ENTRY_WRAPPER && strcmp(r[k].abs, r[i].abs) == 0)
			return 1;
	return 0;
}

int compdb_load(struct tu_list *l, const char *dir, char *err, size_t errlen)
{
	char *path = xasprintf("%s/compile_commands.json", dir);
	char *cwd, *db_dir;
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	struct raw_entry *raw = NULL;
	int nraw = 0, capraw = 0;
	size_t i;
	json_t *entry;

	if (!root) {
		if (access(path, F_OK) != 0)
			snprintf(err, errlen, "no compile_commands.json in '%s'", dir);
		else
			snprintf(err, errlen, "%s:%d: malformed compile database: %s", path, jerr.line, jerr.text);
		free(path);
		return -1;
	}
	cwd = current_dir();
	if (!cwd) {
		snprintf(err, errlen, "cannot determine the current directory: %s", strerror(errno));
		json_decref(root);
		free(path);
		return -1;
	}
	db_dir = absolute(cwd, dir);
	free(cwd);
	if (!json_is_array(root)) {
		snprintf(err, errlen, "%s: malformed compile database: expected a JSON array", path);
		goto fail;
	}
	json_array_foreach(root, i, entry) {
		json_t *jd = json_object_get(entry, "directory"), *jf = json_object_get(entry, "file");
		json_t *jc = json_object_get(entry, "command"), *ja = json_object_get(entry, "arguments");
		char **words = NULL, *abs, *entry_dir;
		int n = 0;
		struct raw_entry *r;

		if (!json_is_object(entry) || !json_is_string(jd) || !json_is_string(jf) ||
		    !(json_is_string(jc) || json_is_array(ja))) {
			snprintf(err, errlen, "%s: malformed compile database: entry %zu needs \"directory\", \"file\" and \"command\" or \"arguments\"",
				 path, i + 1);
			goto fail;
		}
		entry_dir = absolute(db_dir, json_string_value(jd));
		abs = absolute(entry_dir, json_string_value(jf));
		if (!is_c_source(abs)) {
			free(abs);
			free(entry_dir);
			continue;
		}
		if (json_is_array(ja)) {
			size_t k;
			json_t *w;

			words = xcalloc(json_array_size(ja) + 1, sizeof *words);
			json_array_foreach(ja, k, w) {
				if (!json_is_string(w)) {
					snprintf(err, errlen, "%s: malformed compile database: entry %zu has a non-string argument",
						 path, i + 1);
					for (int q = 0; q < n; q++)
						free(words[q]);
					free(words);
					free(abs);
					free(entry_dir);
					goto fail;
				}
				words[n++] = xstrdup(json_string_value(w));
			}
		} else {
			n = split_command(json_string_value(jc), &words);
		}
		grow(&raw, &capraw, nraw + 1, sizeof *raw);
		r = &raw[nraw++];
		*r = (struct raw_entry){ .abs = abs, .dir = entry_dir, .words = words, .n = n,
					 .file = json_string_value(jf) };
		r->kind = entry_kind(words, n, &r->compiler);
	}
	/* The compiler's internal entries never; a file the wrapper compiled,
	 * from the wrapper's entries only; later entries replace earlier. */
	for (int k = 0; k < nraw; k++) {
		struct raw_entry *r = &raw[k];
		struct tu_spec *t;

		if (r->kind == ENTRY_INTERNAL ||
		    (r->kind != ENTRY_WRAPPER && has_wrapper(raw, nraw, k)))
			continue;
		t = add(l, r->abs);
		t->directory = xstrdup(r->dir);
		filter_args(t, r->words + r->compiler, r->n - r->compiler, r->file);
	}
	for (int k = 0; k < nraw; k++)
		raw_free(&raw[k]);
	free(raw);
	json_decref(root);
	free(db_dir);
	free(path);
	return 0;
fail:
	for (int k = 0; k < nraw; k++)
		raw_free(&raw[k]);
	free(raw);
	json_decref(root);
	free(db_dir);
	free(path);
	return -1;
}

static int add_file(struct tu_list *l, const char *abs, char **cflags, int ncflags)
{
	struct tu_spec *t;
	int cap = 0;
	char *slash;

	if (find(l, abs))
		return 0;       /* the compile database's flags win */
	t = add(l, abs);
	t->directory = xstrdup(abs);
	slash = strrchr(t->directory, '/');
	if (slash)
		*(slash == t->directory ? slash + 1 : slash) = '\0';
	for (int i = 0; i < ncflags; i++)
		push_arg(t, &cap, cflags[i]);
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_dir(struct tu_list *l, const char *dir, char **cflags, int ncflags, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	int n = 0, cap = 0;

	if (!d || depth > 64) {
		if (d)
			closedir(d);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;     /* ., .., and hidden directories such as .git */
		grow(&names, &cap, n + 1, sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, name_cmp);   /* a stable scan order */
	for (int i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		struct stat st;

		if (lstat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				add_dir(l, p, cflags, ncflags, depth + 1);
			else if (S_ISREG(st.st_mode) && is_c_source(p))
				add_file(l, p, cflags, ncflags);
		}
		free(p);
		free(names[i]);
	}
	free(names);
}

int compdb_add_path(struct tu_list *l, const char *path, char **cflags, int ncflags,
		    char *err, size_t errlen)
{
	char *cwd = current_dir();
	char *abs;
	struct stat st;

	if (!cwd) {
		snprintf(err, errlen, "cannot determine the current directory: %s", strerror(errno));
		return -1;
	}
	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		free(cwd);
		return -1;
	}
	abs = absolute(cwd, path);
	free(cwd);
	if (S_ISDIR(st.st_mode))
		add_dir(l, abs, cflags, ncflags, 0);
	else if (S_ISREG(st.st_mode))
		add_file(l, abs, cflags, ncflags);
	else {
		snprintf(err, errlen, "'%s' is neither a file nor a directory", path);
		free(abs);
		return -1;
	}
	free(abs);
	return 0;
}

void compdb_free(struct tu_list *l)
{
	for (int i = 0; i < l->n; i++)
		spec_free(&l->tus[i]);
	free(l->tus);
	memset(l, 0, sizeof *l);
}
