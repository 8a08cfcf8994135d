/* cli/options.c — shared option parsing for the subcommands (see options.h). */
#include "options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kdie(int status, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kcsan-scan%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static void (*help_more)(void);

void kopt_help_more(void (*print)(void))
{
	help_more = print;
}

void kopt_help(const char *cmd, const char *usage, const struct kopt *opts)
{
	printf("usage: kcsan-scan %s %s\n\noptions:\n", cmd, usage);
	for (const struct kopt *o = opts; o->long_name; o++) {
		char left[64];
		int n = 0;

		if (o->short_name)
			n = snprintf(left, sizeof left, "-%c, ", o->short_name);
		else
			n = snprintf(left, sizeof left, "    ");
		snprintf(left + n, sizeof left - n, "--%s%s%s", o->long_name,
			 o->arg_name ? " " : "", o->arg_name ? o->arg_name : "");
		printf("  %-26s %s\n", left, o->help);
	}
	printf("  %-26s %s\n", "-h, --help", "show this help and exit");
	if (help_more)
		help_more();
}

static const struct kopt *find_long(const struct kopt *opts, const char *name, size_t len)
{
	for (const struct kopt *o = opts; o->long_name; o++)
		if (strlen(o->long_name) == len && strncmp(o->long_name, name, len) == 0)
			return o;
	return NULL;
}

static const struct kopt *find_short(const struct kopt *opts, char c)
{
	for (const struct kopt *o = opts; o->long_name; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

static void store(const char *cmd, const struct kopt *o, const char *value)
{
	switch (o->type) {
	case KOPT_FLAG:
		*(int *)o->dest = 1;
		break;
	case KOPT_STRING:
		*(const char **)o->dest = value;
		break;
	case KOPT_INT: {
		char *end;
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || *value == '\0' || *end != '\0' || v < 0 || v > 1000000)
			kdie(2, cmd, "option '--%s' needs a whole number, not '%s'", o->long_name, value);
		*(int *)o->dest = (int)v;
		break;
	}
	case KOPT_LIST: {
		struct kopt_list *l = o->dest;

		l->items = realloc(l->items, (l->count + 1) * sizeof *l->items);
		if (!l->items)
			kdie(2, cmd, "out of memory");
		l->items[l->count++] = value;
		break;
	}
	}
}

void kopt_parse(const char *cmd, const char *usage, const struct kopt *opts,
		int argc, char **argv, char ***operands, int *noperands,
		char ***rest, int *nrest)
{
	char **ops = calloc(argc + 1, sizeof *ops);
	int nops = 0;

	if (!ops)
		kdie(2, cmd, "out of memory");
	if (rest) {
		*rest = NULL;
		*nrest = 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct kopt *o;
		const char *value = NULL;

		if (strcmp(a, "--") == 0) {
			if (rest) {
				*rest = argv + i + 1;
				*nrest = argc - i - 1;
			} else {
				while (++i < argc)
					ops[nops++] = argv[i];
			}
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			kopt_help(cmd, usage, opts);
			exit(0);
		}
		if (a[0] != '-' || a[1] == '\0') {
			ops[nops++] = argv[i];
			continue;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);

			o = find_long(opts, a + 2, len);
			if (!o)
				kdie(2, cmd, "unknown option '%.*s' (see 'kcsan-scan %s --help')",
				     (int)len + 2, a, cmd);
			if (eq)
				value = eq + 1;
			if (o->type == KOPT_FLAG && value)
				kdie(2, cmd, "option '--%s' takes no value", o->long_name);
		} else {
			o = find_short(opts, a[1]);
			if (!o)
				kdie(2, cmd, "unknown option '-%c' (see 'kcsan-scan %s --help')", a[1], cmd);
			if (a[2])
				value = a + 2;   /* -j4 */
			if (o->type == KOPT_FLAG && value)
				kdie(2, cmd, "option '-%c' takes no value", a[1]);
		}
		if (o->type != KOPT_FLAG && !value) {
			if (i + 1 >= argc)
				kdie(2, cmd, "option '--%s' needs a value (%s)", o->long_name,
				     o->arg_name ? o->arg_name : "VALUE");
			value = argv[++i];
		}
		store(cmd, o, value);
	}
	*operands = ops;
	*noperands = nops;
}
