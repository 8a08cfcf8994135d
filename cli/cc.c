/*
 * cli/cc.c — `kcsan-scan cc [COMPILER ARGS...]`: a drop-in C compiler
 * (CC="kcsan-scan cc" make) that builds programs for the kcsan-scan runtime;
 * `kcsan-scan c++` is the same for C++ (CXX="kcsan-scan c++"), also run as
 * kcsan-c++ through a symlink (cli/main.c).
 *
 * The real compiler is $KCSAN_CC (may carry words: "ccache gcc"), else
 * clang, else clang-14; for c++, $KCSAN_CXX, else clang++, else clang++-14
 * (g++ works too).  C++ needs nothing else: the instrumentation calls the
 * same __tsan_* entry points (plus __tsan_vptr_*, runtime/tsan_access.c),
 * and the runtime, plain C, needs no libstdc++ of its own (the C++ driver
 * links the program's).  What is added depends on what the invocation does:
 *
 *   preprocess (-E, -M, -MM), compile (-c, -S, -fsyntax-only):
 *       the instrumentation flags, -g (line numbers for reports),
 *       -fno-omit-frame-pointer, and -I for <kcsan/lkmm.h> (last, so that
 *       the project's own -I directories win).  -E gets them too: lkmm.h
 *       expands differently under -fsanitize=thread.  A clang compile
 *       also loads the inline-asm barrier plugin (plugin/kcsan_asm.cpp:
 *       -fpass-plugin, and $KCSAN_ASM_BARRIERS, the profiles' names with
 *       their orderings), when there is one of clang's LLVM version.
 *   link (inputs given, none of the above):
 *       the runtime (--whole-archive, -rdynamic, -lpthread -ldl -latomic),
 *       but never libtsan.  -shared links no runtime: a shared library's
 *       __tsan_* references bind to the executable's runtime.
 *   no inputs (--version, -print-*): passed through untouched.
 *
 * With $KCSAN_COMPILE_DB set, a compiling invocation also adds its sources
 * to that compile database (cc_compdb.c), for `kcsan-scan scan -p`.
 *
 * clang compiles and links in one invocation with -fno-sanitize-link-runtime.
 * gcc has no such switch (-fsanitize=thread at link time adds libtsan), so a
 * gcc invocation that both compiles and links is split: each source is
 * compiled with -c into a temporary directory, then the objects are linked
 * (and the temporary directory removed, so this one waits for the compiler).
 * Otherwise the compiler is exec()ed, so its exit status is ours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/driver/scan.h"
#include "cc_compdb.h"
#include "analyzer/model/vocab.h"
#include "commands.h"
#include "options.h"

#ifndef KCSAN_INSTALLED_LIB_DIR
#define KCSAN_INSTALLED_LIB_DIR "/usr/local/lib/kcsan-scan"
#endif

enum family { FAM_CLANG, FAM_GCC };

/* "cc" or "c++": the subcommand, for messages. */
static const char *tool = "cc";
static int cxx;		/* kcsan-scan c++: $KCSAN_CXX, default clang++ */

/* A growable argv. */
struct argv {
	char **v;
	int n, cap;
};

static void push(struct argv *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->v = realloc(a->v, (size_t)a->cap * sizeof *a->v);
		if (!a->v)
			kdie(2, tool, "out of memory");
	}
	a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
}

static void push_all(struct argv *a, const struct argv *b)
{
	for (int i = 0; i < b->n; i++)
		push(a, b->v[i]);
}

/* Options whose value is the next argument (so that it is not taken for an
 * input file). */
static int takes_value(const char *a)
{
	static const char *const names[] = {
		"-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
		"-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
		"-isysroot", "-imultilib", "-x", "-MF", "-MT", "-MQ", "-L", "-l",
		"-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xclang", "-mllvm",
		"-arch", "-target", "--param", "-T", "-u", "-z", "-e", "-aux-info",
		"-dumpbase", "-dumpdir", "--sysroot", "-G", "-A", "-wrapper",
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(a, names[i]) == 0)
			return 1;
	return 0;
}

/* Is input PATH (compiled as language LANG, NULL: by suffix) something the
 * compiler compiles, rather than hands to the linker? */
static int is_source(const char *path, const char *lang)
{
	static const char *const sfx[] = {
		".c", ".i", ".h", ".s", ".S", ".sx", ".cc", ".cp", ".cpp", ".cxx",
		".c++", ".C", ".ii", ".m",
	};
	const char *dot;

	if (lang && strcmp(lang, "none") != 0)
		return 1;
	if (strcmp(path, "-") == 0)
		return 1;
	dot = strrchr(path, '.');
	if (!dot || strchr(dot, '/'))
		return 0;
	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
		if (strcmp(dot, sfx[i]) == 0)
			return 1;
	return 0;
}

/* PROG found in $PATH (or PROG itself when it holds a slash)? */
static int in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof buf, "%.*s/%s", (int)len, len ? path : ".", prog);
		if (access(buf, X_OK) == 0)
			return 1;
		path += len;
		if (*path == ':')
			path++;
	}
	return 0;
}

/* The compiler command, split into words, into CMD. */
static void compiler_command(struct argv *cmd)
{
	const char *var = cxx ? "KCSAN_CXX" : "KCSAN_CC";
	const char *env = getenv(var);
	const char *dflt = cxx ? "clang++" : "clang", *dflt14 = cxx ? "clang++-14" : "clang-14";
	char *copy, *tok, *save = NULL;

	if (!env || !*env) {
		push(cmd, in_path(dflt) || !in_path(dflt14) ? dflt : dflt14);
	} else {
		copy = strdup(env);
		if (!copy)
			kdie(2, tool, "out of memory");
		for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
			push(cmd, tok);
		if (cmd->n == 0)
			kdie(2, tool, "%s holds no compiler name", var);
	}
	if (!in_path(cmd->v[0]))
		kdie(2, tool, "compiler '%s' not found (install it or set %s to the %s compiler to use)",
		     cmd->v[0], var, cxx ? "C++" : "C");
}

/* The standard output of CMD ARG (at most SIZE - 1 bytes) into OUT. */
static void capture(const struct argv *cmd, const char *arg, char *out, size_t size)
{
	int fds[2], status;
	ssize_t got = 0, r;
	pid_t pid;

	if (pipe(fds) < 0)
		kdie(2, tool, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		kdie(2, tool, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct argv v = { 0 };

		push_all(&v, cmd);
		push(&v, arg);
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp(v.v[0], v.v);
		_exit(127);
	}
	close(fds[1]);
	while (got < (ssize_t)size - 1 &&
	       ((r = read(fds[0], out + got, size - 1 - (size_t)got)) > 0 || (r < 0 && errno == EINTR)))
		if (r > 0)
			got += r;
	out[got] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* clang or gcc?  By name when it says so, else by asking the compiler. */
static enum family compiler_family(const struct argv *cmd)
{
	const char *name = cmd->v[cmd->n - 1], *slash = strrchr(name, '/');
	char out[4096];

	if (slash)
		name = slash + 1;
	if (strstr(name, "clang"))
		return FAM_CLANG;
	if (strstr(name, "gcc") || strstr(name, "g++"))
		return FAM_GCC;
	capture(cmd, "--version", out, sizeof out);
	return strstr(out, "clang") ? FAM_CLANG : FAM_GCC;
}

/* Directory of this executable, or "" when unknown. */
static const char *exe_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof dir - 1);
	if (n <= 0)
		return dir[0] = '\0', dir;
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return dir;
}

/* The runtime archive: build tree (build/runtime/ beside build/kcsan-scan),
 * installed tree (BIN/../lib/kcsan-scan/), then the configured PREFIX. */
static const char *runtime_lib(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("KCSAN_RUNTIME");
	static const char *const where[] = {
		"%s/runtime/libkcsan_rt.a", "%s/../lib/kcsan-scan/libkcsan_rt.a",
	};

	if (env && *env)
		return env;
	for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
		if (snprintf(path, sizeof path, where[i], exe_dir()) < (int)sizeof path &&
		    access(path, R_OK) == 0)
			return path;
	if (snprintf(path, sizeof path, "%s/libkcsan_rt.a", KCSAN_INSTALLED_LIB_DIR) < (int)sizeof path &&
	    access(path, R_OK) == 0)
		return path;
	kdie(2, tool, "cannot find the runtime libkcsan_rt.a (looked beside %s and in %s; set KCSAN_RUNTIME)",
	     exe_dir(), KCSAN_INSTALLED_LIB_DIR);
}

/*
 * The inline-asm barrier plugin (plugin/kcsan_asm.cpp, docs/design.md §5):
 * $KCSAN_ASM_PLUGIN (empty: none), else beside this program, the installed
 * tree, the configured PREFIX.  Loaded only into a clang of the LLVM
 * version it was built for (a plugin of another version does not load, and
 * the compile would fail); NULL when there is none to load.
 */
static const char *asm_plugin(const struct argv *cmd)
{
#ifdef KCSAN_PLUGIN_LLVM_MAJOR
	static char path[PATH_MAX];
	static const char *const where[] = {
		"%s/kcsan-asm.so", "%s/../lib/kcsan-scan/kcsan-asm.so",
	};
	const char *env = getenv("KCSAN_ASM_PLUGIN"), *found = NULL;
	char version[256];

	if (env)
		found = *env ? env : NULL;
	for (size_t i = 0; !env && !found && i < sizeof where / sizeof where[0]; i++)
		if (snprintf(path, sizeof path, where[i], exe_dir()) < (int)sizeof path &&
		    access(path, R_OK) == 0)
			found = path;
	if (!env && !found &&
	    snprintf(path, sizeof path, "%s/kcsan-asm.so", KCSAN_INSTALLED_LIB_DIR) < (int)sizeof path &&
	    access(path, R_OK) == 0)
		found = path;
	if (!found)
		return NULL;
	capture(cmd, "-dumpversion", version, sizeof version);
	if (atoi(version) != KCSAN_PLUGIN_LLVM_MAJOR) {
		if (getenv("KCSAN_CC_VERBOSE"))
			fprintf(stderr, "kcsan-scan %s: not loading %s (LLVM %d) into clang %s",
				tool, found, KCSAN_PLUGIN_LLVM_MAJOR, version);
		return NULL;
	}
	return found;
#else
	(void)cmd;
	return NULL;	/* built without llvm-14-dev's headers */
#endif
}

/* The plugin's kind for an ordering of the vocabulary, or NULL: not a
 * barrier the runtime applies (acquire, relaxed, an order given as an
 * argument -- the plugin then looks at the instruction). */
static const char *asm_kind(const struct vocab_entry *e)
{
	switch (e->ord) {
	case ORD_FULL:
	case ORD_BEFORE_RMW:
	case ORD_AFTER_RMW:
		return "mb";
	case ORD_RELEASE:
	case ORD_ACQ_REL:
		return "release";
	case ORD_WMB:
		return "wmb";
	case ORD_RMB:
		return "rmb";
	case ORD_ARG:
		return NULL;
	default:
		return "none";
	}
}

/*
 * $KCSAN_ASM_BARRIERS for the plugin: "name=kind,..." for every name of the
 * profiles -- the built-in ones, then those of $KCSAN_PROFILE (NAME|FILE
 * separated by ':', as `scan --profile` takes them): an asm statement in a
 * function of that name has the profile's ordering.
 */
static void asm_barrier_names(void)
{
	static const char *const builtin[] = { "lkmm", "c11", "gnu", "pthread", "libc" };
	struct vocab v = { 0 };
	const char *env = getenv("KCSAN_PROFILE");
	char err[512], *list = NULL, *tok, *save = NULL, *out = NULL;
	size_t len = 0;
	FILE *f;

	for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
		if (vocab_load(&v, builtin[i], NULL, err, sizeof err) < 0)
			kdie(2, tool, "%s", err);
	if (env && *env) {
		list = strdup(env);
		if (!list)
			kdie(2, tool, "out of memory");
		for (tok = strtok_r(list, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
			if (vocab_load(&v, tok, NULL, err, sizeof err) < 0)
				kdie(2, tool, "KCSAN_PROFILE: %s", err);
	}
	f = open_memstream(&out, &len);
	if (!f)
		kdie(2, tool, "out of memory");
	for (size_t i = 0; i < v.count; i++) {
		const char *k = asm_kind(&v.entries[i]);

		if (k)
			fprintf(f, "%s%s=%s", ftell(f) ? "," : "", v.entries[i].name, k);
	}
	fclose(f);
	setenv("KCSAN_ASM_BARRIERS", out ? out : "", 1);
	free(out);
	free(list);
	vocab_free(&v);
}

static void compile_flags(struct argv *a, enum family fam, const char *plugin)
{
	push(a, "-fsanitize=thread");
	if (fam == FAM_CLANG) {
		push(a, "-mllvm");
		push(a, "-tsan-distinguish-volatile=1");
	} else {
		push(a, "--param=tsan-distinguish-volatile=1");
		/* gcc warns that it cannot instrument atomic_thread_fence; the
		 * runtime sees lkmm.h's fences through its own markers. */
		push(a, "-Wno-tsan");
	}
	push(a, "-g");
	push(a, "-fno-omit-frame-pointer");
	if (plugin) {
		static char flag[PATH_MAX + 32];

		snprintf(flag, sizeof flag, "-fpass-plugin=%s", plugin);
		push(a, flag);
		asm_barrier_names();
	}
}

static void include_flags(struct argv *a)
{
	push(a, "-I");
	push(a, kcsan_include_dir());
}

static void link_flags(struct argv *a)
{
	static char whole[PATH_MAX + 32];

	if (snprintf(whole, sizeof whole, "-Wl,--whole-archive,%s,--no-whole-archive",
		     runtime_lib()) >= (int)sizeof whole)
		kdie(2, tool, "the runtime's path is too long");
	push(a, whole);
	push(a, "-rdynamic");
	push(a, "-lpthread");
	push(a, "-ldl");
	push(a, "-latomic");
}

static int compiler_driver(int argc, char **argv, int is_cxx);

static int run_wait(const struct argv *a)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		kdie(2, tool, "fork: %s", strerror(errno));
	if (pid == 0) {
		execvp(a->v[0], a->v);
		fprintf(stderr, "kcsan-scan %s: cannot run '%s': %s\n", tool, a->v[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			kdie(2, tool, "waitpid: %s", strerror(errno));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static void remove_dir(const char *dir, const struct argv *files)
{
	for (int i = 0; i < files->n; i++)
		unlink(files->v[i]);
	rmdir(dir);
}

/*
 * gcc, compile and link: compile each source of USER (argv without the
 * compiler) to an object in a temporary directory, then link those objects
 * in place of the sources.  Returns the exit status.
 */
static int gcc_split(const struct argv *cmd, char **user, int nuser, int shared)
{
	char tmpl[PATH_MAX];
	const char *tmp = getenv("TMPDIR"), *lang = NULL;
	struct argv common = { 0 }, objs = { 0 }, link = { 0 };
	int status = 0, nobj = 0;

	snprintf(tmpl, sizeof tmpl, "%s/kcsan-cc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpl))
		kdie(2, tool, "cannot create a temporary directory: %s", strerror(errno));

	/* The options every per-source compile shares: all but -o, -x and
	 * the inputs (the language of each source is given with it). */
	for (int i = 0; i < nuser; i++) {
		const char *a = user[i];

		if (strcmp(a, "-o") == 0 || strcmp(a, "-x") == 0) {
			i++;
			continue;
		}
		if (strncmp(a, "-x", 2) == 0)
			continue;
		if (a[0] == '-' && a[1]) {
			push(&common, a);
			if (takes_value(a) && i + 1 < nuser)
				push(&common, user[++i]);
		}
	}

	push_all(&link, cmd);
	for (int i = 0; i < nuser && status == 0; i++) {
		const char *a = user[i];

		if (strcmp(a, "-x") == 0 && i + 1 < nuser) {
			lang = user[i + 1];
		} else if (strncmp(a, "-x", 2) == 0 && a[2]) {
			lang = a + 2;
		}
		if (a[0] == '-' && a[1]) {
			push(&link, a);
			if (takes_value(a) && i + 1 < nuser)
				push(&link, user[++i]);
			continue;
		}
		if (!is_source(a, lang)) {
			push(&link, a);
			continue;
		}
		{
			struct argv c = { 0 };
			const char *base = strrchr(a, '/');
			char *obj;

			base = base ? base + 1 : a;
			if (asprintf(&obj, "%s/%d-%s.o", tmpl, nobj++, base) < 0)
				kdie(2, tool, "out of memory");
			push(&objs, obj);
			push_all(&c, cmd);
			compile_flags(&c, FAM_GCC, NULL);
			push_all(&c, &common);
			include_flags(&c);
			push(&c, "-c");
			push(&c, "-o");
			push(&c, obj);
			if (lang) {
				push(&c, "-x");
				push(&c, lang);
			}
			push(&c, a);
			status = run_wait(&c);
			free(c.v);
			/* The object is linked as an object, whatever -x says. */
			if (lang) {
				push(&link, "-x");
				push(&link, "none");
			}
			push(&link, obj);
			if (lang && strcmp(lang, "none") != 0) {
				push(&link, "-x");
				push(&link, lang);
			}
		}
	}
	if (status == 0) {
		if (!shared)
			link_flags(&link);
		status = run_wait(&link);
	}
	remove_dir(tmpl, &objs);
	for (int i = 0; i < objs.n; i++)
		free(objs.v[i]);
	free(objs.v);
	free(common.v);
	free(link.v);
	return status;
}

int cmd_cc(int argc, char **argv)
{
	return compiler_driver(argc, argv, 0);
}

int cmd_cxx(int argc, char **argv)
{
	return compiler_driver(argc, argv, 1);
}

static int compiler_driver(int argc, char **argv, int is_cxx)
{
	struct argv cmd = { 0 }, out = { 0 };
	char **user = argv + 1;
	int nuser = argc - 1;
	int preprocess = 0, compile = 0, shared = 0, inputs = 0, sources = 0;
	const char *lang = NULL, *output = NULL;
	const char **srcs = calloc((size_t)argc, sizeof(*srcs));
	enum family fam;

	if (!srcs)
		kdie(2, is_cxx ? "c++" : "cc", "out of memory");
	cxx = is_cxx;
	tool = is_cxx ? "c++" : "cc";
	/* What does this invocation do? */
	for (int i = 0; i < nuser; i++) {
		const char *a = user[i];

		if (strcmp(a, "-E") == 0 || strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0)
			preprocess = 1;
		else if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-fsyntax-only") == 0)
			compile = 1;
		else if (strcmp(a, "-shared") == 0)
			shared = 1;
		else if (strcmp(a, "-x") == 0 && i + 1 < nuser)
			lang = user[i + 1];
		else if (strncmp(a, "-x", 2) == 0 && a[2])
			lang = a + 2;
		else if (strcmp(a, "-o") == 0 && i + 1 < nuser)
			output = user[i + 1];
		if (a[0] == '-' && a[1]) {
			if (takes_value(a))
				i++;
			continue;
		}
		inputs++;
		if (is_source(a, lang) && strcmp(a, "-") != 0)
			srcs[sources] = a;
		sources += is_source(a, lang);
	}
	/* $KCSAN_COMPILE_DB: this invocation's sources into the build's
	 * compile database (cc_compdb.c); not for -E/-M alone. */
	if (!preprocess) {
		int n = 0;

		for (int i = 0; i < sources; i++)
			if (srcs[i])
				srcs[n++] = srcs[i];
		cc_compdb_record(tool, user, nuser, srcs, n, output);
	}
	free(srcs);

	compiler_command(&cmd);
	if (inputs == 0) {
		/* --version, -print-file-name=..., -dumpmachine: untouched. */
		push_all(&out, &cmd);
		for (int i = 0; i < nuser; i++)
			push(&out, user[i]);
		goto exec;
	}
	fam = compiler_family(&cmd);
	if (!preprocess && !compile && sources > 0 && fam == FAM_GCC)
		return gcc_split(&cmd, user, nuser, shared);

	push_all(&out, &cmd);
	/* The plugin runs in the compiler proper: not for -E alone. */
	if (preprocess || compile || sources > 0)
		compile_flags(&out, fam,
			      fam == FAM_CLANG && !preprocess ? asm_plugin(&cmd) : NULL);
	for (int i = 0; i < nuser; i++)
		push(&out, user[i]);
	if (preprocess || compile || sources > 0)
		include_flags(&out);
	if (!preprocess && !compile) {
		if (fam == FAM_CLANG && sources > 0)
			push(&out, "-fno-sanitize-link-runtime");
		if (!shared)
			link_flags(&out);
	}
exec:
	if (getenv("KCSAN_CC_VERBOSE")) {
		for (int i = 0; i < out.n; i++)
			fprintf(stderr, "%s%s", i ? " " : "", out.v[i]);
		fputc('\n', stderr);
	}
	execvp(out.v[0], out.v);
	kdie(2, tool, "cannot run '%s': %s", out.v[0], strerror(errno));
}
