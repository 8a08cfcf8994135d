/*
 * options.c — runtime options from KCSAN_OPTIONS, sanitizer-style:
 *
 *   KCSAN_OPTIONS=skip_watch=4000:udelay=80:weak_memory=1:log_path=/tmp/k.log
 *
 * The options, their types, defaults and help are the table of
 * options_table.h; this file makes kcsan_opts from it, parses the variable
 * against it and prints it for verbose=1.  The manual page (KCSAN_OPTIONS)
 * says what each option does.
 *
 * Entries are NAME=VALUE separated by ':' (',' and spaces are accepted too).
 * Parsed once, by kcsan_init(), before the runtime enables itself; the
 * values are read-only afterwards, so no synchronisation is needed to read
 * them.  Unknown names and malformed values are reported on stderr, one
 * line each, and ignored: a typo must not change the program's behaviour.
 * No allocation: the first instrumented access of the program (inside
 * malloc, in a signal handler) may be what parses them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kcsan_rt.h"
#include "strbuf.h"

/* The defaults of the table; reports go to stderr until log_path. */
#define KCSAN_OPT_INIT_INT(name, def)	.name = def,
#define KCSAN_OPT_INIT_LONG(name, def)	.name = def,
#define KCSAN_OPT_INIT_ULONG(name, def)	.name = def,
#define KCSAN_OPT_INIT_LOG(name, def)
#define KCSAN_OPT_INIT(name, kind, def, help) KCSAN_OPT_INIT_##kind(name, def)
struct kcsan_options kcsan_opts = {
	KCSAN_OPTION_TABLE(KCSAN_OPT_INIT)
	.log_fd = 2,
};

enum opt_kind { OPT_INT, OPT_LONG, OPT_ULONG, OPT_LOG };

/* Where each option of the table is stored. */
struct opt_def {
	const char *name;
	enum opt_kind kind;
	size_t offset;		/* in struct kcsan_options (not for OPT_LOG) */
};
#define KCSAN_OPT_OFFSET_INT(name)	offsetof(struct kcsan_options, name)
#define KCSAN_OPT_OFFSET_LONG(name)	offsetof(struct kcsan_options, name)
#define KCSAN_OPT_OFFSET_ULONG(name)	offsetof(struct kcsan_options, name)
#define KCSAN_OPT_OFFSET_LOG(name)	offsetof(struct kcsan_options, log_fd)
#define KCSAN_OPT_DEF(name, kind, def, help) \
	{ #name, OPT_##kind, KCSAN_OPT_OFFSET_##kind(name) },
static const struct opt_def defs[] = {
	KCSAN_OPTION_TABLE(KCSAN_OPT_DEF)
};

/* The file name log_path was given, for the verbose line (a copy: the
 * parser's buffer is on its stack). */
static char log_path[256];

static void *field(const struct opt_def *d)
{
	return (char *)&kcsan_opts + d->offset;
}

static int parse_long(const char *name, const char *val, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 0);
	if (errno || end == val || *end || v < 0) {
		fprintf(stderr, "kcsan: KCSAN_OPTIONS: bad value '%s' for %s (ignored)\n",
			val, name);
		return -1;
	}
	*out = v;
	return 0;
}

static void set_log(const char *val)
{
	int fd = open(val, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0) {
		fprintf(stderr, "kcsan: cannot open log_path '%s': %s (using stderr)\n",
			val, strerror(errno));
		return;
	}
	kcsan_opts.log_fd = fd;
	snprintf(log_path, sizeof(log_path), "%s", val);
}

static void set_option(const char *name, const char *val)
{
	const struct opt_def *d = NULL;
	long v;

	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]) && !d; i++)
		if (!strcmp(name, defs[i].name))
			d = &defs[i];
	if (!d) {
		fprintf(stderr, "kcsan: KCSAN_OPTIONS: unknown option '%s' (ignored)\n", name);
		return;
	}
	if (d->kind == OPT_LOG) {
		set_log(val);
		return;
	}
	if (parse_long(name, val, &v) < 0)
		return;
	switch (d->kind) {
	case OPT_INT:
		if (v > 0x7fffffff) {
			fprintf(stderr, "kcsan: KCSAN_OPTIONS: bad value '%s' for %s (ignored)\n",
				val, name);
			return;
		}
		*(int *)field(d) = (int)v;
		break;
	case OPT_LONG:
		*(long *)field(d) = v;
		break;
	case OPT_ULONG:
		*(unsigned long *)field(d) = (unsigned long)v;
		break;
	case OPT_LOG:
		break;
	}
}

void kcsan_parse_options(const char *s)
{
	char buf[1024];
	char *tok, *save = NULL;

	if (!s)
		return;
	/* A copy: strtok_r writes into it, the environment must stay intact. */
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ": ,", &save); tok; tok = strtok_r(NULL, ": ,", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			fprintf(stderr, "kcsan: KCSAN_OPTIONS: '%s' is not NAME=VALUE (ignored)\n",
				tok);
			continue;
		}
		*eq = '\0';
		set_option(tok, eq + 1);
	}
}

void kcsan_print_options(void)
{
	struct rt_buf b = { .n = 0 };

	rt_bprintf(&b, "kcsan: options:");
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		const struct opt_def *d = &defs[i];

		switch (d->kind) {
		case OPT_INT:
			rt_bprintf(&b, " %s=%d", d->name, *(const int *)field(d));
			break;
		case OPT_LONG:
			rt_bprintf(&b, " %s=%ld", d->name, *(const long *)field(d));
			break;
		case OPT_ULONG:
			rt_bprintf(&b, " %s=%lu", d->name, *(const unsigned long *)field(d));
			break;
		case OPT_LOG:
			rt_bprintf(&b, " %s=%s", d->name, log_path);
			break;
		}
	}
	rt_bprintf(&b, "\n");
	if (write(kcsan_opts.log_fd, b.s, b.n) < 0) {
		/* nowhere else to say it */
	}
}
