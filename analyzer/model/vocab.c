/* analyzer/model/vocab.c — loading and looking up vocabulary profiles (vocab.h). */
#include "vocab.h"
#include "facts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct builtin_profile { const char *name; const char *text; };
extern const struct builtin_profile builtin_profiles[];

static const char *const ord_names[] = {
	[ORD_NONE] = "none", [ORD_RELAXED] = "relaxed", [ORD_ACQUIRE] = "acquire",
	[ORD_RELEASE] = "release", [ORD_ACQ_REL] = "acq_rel", [ORD_FULL] = "full",
	[ORD_WMB] = "wmb", [ORD_RMB] = "rmb", [ORD_ARG] = "arg",
	[ORD_BEFORE_RMW] = "before_rmw", [ORD_AFTER_RMW] = "after_rmw",
	[ORD_CONSUME] = "consume", [ORD_GRACE] = "grace",
};

const char *ord_name(enum ord o)
{
	return ord_names[o];
}

int ord_parse(const char *s, enum ord *out)
{
	for (size_t i = 0; i < sizeof ord_names / sizeof ord_names[0]; i++)
		if (strcmp(s, ord_names[i]) == 0) {
			*out = (enum ord)i;
			return 0;
		}
	return -1;
}

enum ord ord_from_memory_order(const char *t)
{
	/* Order matters: "acq_rel" contains "acq", "seq_cst" is the default. */
	if (strstr(t, "relaxed") || strstr(t, "RELAXED") || strcmp(t, "0") == 0)
		return ORD_RELAXED;
	if (strstr(t, "acq_rel") || strstr(t, "ACQ_REL") || strcmp(t, "4") == 0)
		return ORD_ACQ_REL;
	if (strstr(t, "consume") || strstr(t, "CONSUME") || strcmp(t, "1") == 0)
		return ORD_ACQUIRE;
	if (strstr(t, "acquire") || strstr(t, "ACQUIRE") || strcmp(t, "2") == 0)
		return ORD_ACQUIRE;
	if (strstr(t, "release") || strstr(t, "RELEASE") || strcmp(t, "3") == 0)
		return ORD_RELEASE;
	return ORD_FULL;
}

int is_seq_cst_order(const char *t)
{
	return ((strstr(t, "seq_cst") || strstr(t, "SEQ_CST")) && !strstr(t, "FENCE")) || strcmp(t, "5") == 0;
}

int is_c11_atomic(const char *n)
{
	return n && (strncmp(n, "__atomic", 8) == 0 || strncmp(n, "__c11_atomic_", 13) == 0 ||
		     strncmp(n, "atomic_load", 11) == 0 || strstr(n, "_explicit") || strcmp(n, "_Atomic") == 0);
}

static const struct { const char *name; enum op op; } op_names[] = {
	{ "read", OP_READ }, { "write", OP_WRITE }, { "rmw", OP_RMW },
	{ "barrier", OP_BARRIER }, { "lock", OP_LOCK }, { "unlock", OP_UNLOCK },
	{ "ignore", OP_IGNORE }, { "access", OP_ACCESS }, { "writer", OP_WRITER },
	{ "fork_child", OP_FORK_CHILD }, { "owner", OP_OWNER }, { "alloc", OP_ALLOC },
	{ "exclusive", OP_EXCLUSIVE }, { "external", OP_EXTERNAL },
};

/* A function's contract rather than a primitive (vocab_find_contract). */
static int is_contract(enum op op)
{
	return op == OP_WRITER || op == OP_FORK_CHILD || op == OP_OWNER || op == OP_ALLOC || op == OP_EXCLUSIVE ||
	       op == OP_EXTERNAL;
}

static const char *op_name(enum op op)
{
	for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
		if (op_names[i].op == op)
			return op_names[i].name;
	return "?";
}

static void entry_free(struct vocab_entry *e)
{
	free(e->origin);
	free(e->name);
	free(e->release_fix);
	free(e->acquire_fix);
	free(e->header);
	free(e->group);
}

/* Reads the next whitespace-separated field of *P; a value in double quotes
 * (after key=) may contain spaces.  Returns NULL at the end of the line. */
static char *next_field(char **p)
{
	char *s = *p, *start, *out;
	int quoted = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0' || *s == '#')
		return NULL;
	start = out = s;
	while (*s && (quoted || (*s != ' ' && *s != '\t'))) {
		if (*s == '"') {
			quoted = !quoted;
			s++;
			continue;
		}
		*out++ = *s++;
	}
	if (*s)
		s++;
	*out = '\0';
	*p = s;
	return start;
}

/* obj=TEXT: "none", a parameter N, or a list N,M,... (the contracts
 * that name parameters: bits of obj_mask, the first in obj_arg).  -1 when
 * TEXT is none of those. */
static int parse_obj(struct vocab_entry *e, const char *text)
{
	const char *s = text;

	e->obj_mask = 0;
	if (strcmp(text, "none") == 0) {
		e->obj_arg = -1;
		return 0;
	}
	for (;;) {
		char *end;
		long n = strtol(s, &end, 10);

		if (end == s || n < 0 || n > 1000)
			return -1;
		if (s == text)
			e->obj_arg = (int)n;
		if (n < 32)
			e->obj_mask |= 1u << n;
		else if (s != text)
			return -1;       /* (only a lone obj= names a parameter past 31) */
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

static int parse_line(struct vocab_entry *e, char *line, const char *origin, int lineno,
		      char *err, size_t errlen)
{
	char *p = line, *name, *op, *ord, *kv;
	size_t i;

	memset(e, 0, sizeof *e);
	e->obj_arg = 0;
	e->src_arg = -1;
	e->val_arg = -1;
	e->cmp_arg = -1;
	e->order_arg = -1;
	e->dflt = ORD_FULL;
	name = next_field(&p);
	if (!name)
		return 1;   /* blank or comment */
	op = next_field(&p);
	ord = next_field(&p);
	if (!op || !ord) {
		snprintf(err, errlen, "%s:%d: expected 'NAME OP ORDER [key=value...]'", origin, lineno);
		return -1;
	}
	for (i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
		if (strcmp(op, op_names[i].name) == 0)
			break;
	if (i == sizeof op_names / sizeof op_names[0]) {
		snprintf(err, errlen, "%s:%d: unknown operation '%s' (read, write, rmw, barrier, lock, unlock, ignore, access, writer, fork_child, owner, alloc, exclusive, external)",
			 origin, lineno, op);
		return -1;
	}
	e->op = op_names[i].op;
	if (ord_parse(ord, &e->ord) < 0) {
		snprintf(err, errlen, "%s:%d: unknown order '%s'", origin, lineno, ord);
		return -1;
	}
	if (e->op == OP_BARRIER || e->op == OP_IGNORE || is_contract(e->op))
		e->obj_arg = -1;
	while ((kv = next_field(&p))) {
		char *eq = strchr(kv, '=');

		if (!eq) {
			snprintf(err, errlen, "%s:%d: expected key=value, got '%s'", origin, lineno, kv);
			return -1;
		}
		*eq++ = '\0';
		if (strcmp(kv, "obj") == 0) {
			if (parse_obj(e, eq) < 0) {
				snprintf(err, errlen, "%s:%d: obj=%s: expected none, N, or N,M,... (parameters 0 to 31)",
					 origin, lineno, eq);
				entry_free(e);
				return -1;
			}
		}
		else if (strcmp(kv, "lvalue") == 0)
			e->lvalue = atoi(eq);
		else if (strcmp(kv, "plain") == 0)
			e->plain = atoi(eq);
		else if (strcmp(kv, "src") == 0 || strcmp(kv, "val") == 0 || strcmp(kv, "cmp") == 0) {
			char *end;
			long n = strtol(eq, &end, 10);

			if (end == eq || *end || n < 0 || n > 31) {
				snprintf(err, errlen, "%s:%d: %s=%s: expected the number of an argument (0 to 31)",
					 origin, lineno, kv, eq);
				entry_free(e);
				return -1;
			}
			*(kv[0] == 's' ? &e->src_arg : kv[0] == 'v' ? &e->val_arg : &e->cmp_arg) = (int)n;
		}
		else if (strcmp(kv, "shared") == 0)
			e->shared = atoi(eq);
		else if (strcmp(kv, "order-arg") == 0)
			e->order_arg = atoi(eq);
		else if (strcmp(kv, "default") == 0) {
			if (ord_parse(eq, &e->dflt) < 0 || e->dflt == ORD_ARG) {
				snprintf(err, errlen, "%s:%d: unknown order '%s'", origin, lineno, eq);
				entry_free(e);
				return -1;
			}
		} else if (strcmp(kv, "then") == 0) {
			if (ord_parse(eq, &e->then) < 0) {
				snprintf(err, errlen, "%s:%d: unknown order '%s'", origin, lineno, eq);
				return -1;
			}
		} else if (strcmp(kv, "release-fix") == 0)
			e->release_fix = xstrdup(eq);
		else if (strcmp(kv, "acquire-fix") == 0)
			e->acquire_fix = xstrdup(eq);
		else if (strcmp(kv, "header") == 0)
			e->header = xstrdup(eq);
		else if (strcmp(kv, "group") == 0 && e->op == OP_WRITER)
			e->group = xstrdup(eq);
		else {
			snprintf(err, errlen, "%s:%d: unknown key '%s'", origin, lineno, kv);
			entry_free(e);
			return -1;
		}
	}
	if (e->src_arg >= 0 && (!e->plain || e->src_arg == e->obj_arg)) {
		snprintf(err, errlen, "%s:%d: src=N needs plain=1 and an argument other than obj", origin, lineno);
		entry_free(e);
		return -1;
	}
	if (e->val_arg >= 0 && (e->plain || (e->op != OP_WRITE && e->op != OP_RMW) || e->val_arg == e->obj_arg ||
				e->val_arg == e->order_arg)) {
		snprintf(err, errlen, "%s:%d: val=N needs a marked write or rmw and an argument other than obj and order-arg",
			 origin, lineno);
		entry_free(e);
		return -1;
	}
	if (e->cmp_arg >= 0 && (e->plain || e->op != OP_RMW || e->cmp_arg == e->obj_arg ||
				e->cmp_arg == e->order_arg || e->cmp_arg == e->val_arg)) {
		snprintf(err, errlen, "%s:%d: cmp=N needs a marked rmw and an argument other than obj, val and order-arg",
			 origin, lineno);
		entry_free(e);
		return -1;
	}
	if (e->ord == ORD_ARG && e->order_arg < 0) {
		snprintf(err, errlen, "%s:%d: order 'arg' needs order-arg=N", origin, lineno);
		entry_free(e);
		return -1;
	}
	if (e->op == OP_WRITER && !e->group)
		e->group = xstrdup("writer");
	if (e->op == OP_OWNER && !e->obj_mask) {
		snprintf(err, errlen, "%s:%d: 'owner' needs obj=N, the parameter (0 to 31) that is the caller's own", origin, lineno);
		entry_free(e);
		return -1;
	}
	if (e->op == OP_EXTERNAL && (e->ord != ORD_NONE || e->obj_arg >= 0 || e->obj_mask)) {
		snprintf(err, errlen, "%s:%d: 'external' takes order none and no obj=N: NAME is the memory (a type, TYPE.FIELD, a variable or a function returning it)",
			 origin, lineno);
		entry_free(e);
		return -1;
	}
	if (e->op == OP_EXCLUSIVE && !e->obj_mask) {
		snprintf(err, errlen, "%s:%d: 'exclusive' needs obj=N[,M...], the parameters (0 to 31) whose instances the caller has to itself",
			 origin, lineno);
		entry_free(e);
		return -1;
	}
	e->name = xstrdup(name);
	e->origin = xstrdup(origin);
	e->line = lineno;
	return 0;
}

int vocab_parse(struct vocab *v, const char *text, const char *origin, char *err, size_t errlen)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	int lineno = 0, rc = 0;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct vocab_entry e;
		int r;

		lineno++;
		r = parse_line(&e, line, origin, lineno, err, errlen);
		if (r < 0) {
			rc = -1;
			break;
		}
		if (r > 0)
			continue;
		if (v->count == v->cap) {
			v->cap = v->cap ? v->cap * 2 : 64;
			v->entries = realloc(v->entries, v->cap * sizeof *v->entries);
			if (!v->entries) {
				fputs("kcsan-scan: out of memory\n", stderr);
				exit(2);
			}
		}
		v->entries[v->count++] = e;
		v->sorted = 0;
	}
	free(copy);
	return rc;
}

int vocab_load(struct vocab *v, const char *name, char **text_out, char *err, size_t errlen)
{
	FILE *f;
	char *text;
	int rc;

	if (text_out)
		*text_out = NULL;
	for (const struct builtin_profile *b = builtin_profiles; b->name; b++)
		if (strcmp(b->name, name) == 0)
		{
			size_t first = v->count;
			int rc = vocab_parse(v, b->text, name, err, errlen);

			for (size_t i = first; i < v->count; i++)
				v->entries[i].builtin = 1;
			return rc;
		}
	f = fopen(name, "r");
	if (!f) {
		snprintf(err, errlen, "profile '%s' is neither a built-in profile (lkmm, c11, gnu, pthread, libc) nor a readable file", name);
		return -1;
	}
	text = read_stream(f, NULL);
	fclose(f);
	if (!text) {
		snprintf(err, errlen, "cannot read profile '%s'", name);
		return -1;
	}
	rc = vocab_parse(v, text, name, err, errlen);
	if (text_out && rc == 0)
		*text_out = text;
	else
		free(text);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct vocab_entry *)a)->name, ((const struct vocab_entry *)b)->name);
}

static int same_header(const struct vocab_entry *a, const struct vocab_entry *b)
{
	if (!a->header || !b->header)
		return a->header == b->header;
	return strcmp(a->header, b->header) == 0;
}

/* Do A and B mean the same (what the analysis reads of an entry)? */
static int same_meaning(const struct vocab_entry *a, const struct vocab_entry *b)
{
	return a->op == b->op && a->ord == b->ord && a->then == b->then && a->obj_arg == b->obj_arg &&
	       a->obj_mask == b->obj_mask &&
	       a->lvalue == b->lvalue && a->plain == b->plain && a->src_arg == b->src_arg && a->val_arg == b->val_arg && a->cmp_arg == b->cmp_arg && a->shared == b->shared &&
	       a->order_arg == b->order_arg && a->dflt == b->dflt;
}

void vocab_finish(struct vocab *v, FILE *warn)
{
	size_t out = 0;

	/* A stable sort keeps definition order among equal names; the last
	 * definition wins, so user profiles can override built-in ones. */
	for (size_t i = 0; i < v->count; i++)
		for (size_t j = i; j > 0 && by_name(&v->entries[j - 1], &v->entries[j]) > 0; j--) {
			struct vocab_entry t = v->entries[j];
			v->entries[j] = v->entries[j - 1];
			v->entries[j - 1] = t;
		}
	for (size_t i = 0; i < v->count; i++) {
		size_t j = i + 1;

		/* Is there a later definition of the same name and header? */
		while (j < v->count && strcmp(v->entries[i].name, v->entries[j].name) == 0 &&
		       !same_header(&v->entries[i], &v->entries[j]))
			j++;
		if (j < v->count && strcmp(v->entries[i].name, v->entries[j].name) == 0) {
			const struct vocab_entry *old = &v->entries[i], *new = &v->entries[j];

			if (warn && old->builtin && !new->builtin && !same_meaning(old, new))
				fprintf(warn, "kcsan-scan: warning: %s:%d: '%s' replaces the built-in %s entry "
					"(%s %s) with another meaning (%s %s)\n", new->origin, new->line, new->name,
					old->origin, op_name(old->op), ord_name(old->ord), op_name(new->op),
					ord_name(new->ord));
			entry_free(&v->entries[i]);
			continue;
		}
		v->entries[out++] = v->entries[i];
	}
	v->count = out;
	v->sorted = 1;
}

/* Is FILE (a path) a file called one of the names of HEADER ("a.h" or
 * "a.h,sub/b.h": a comma-separated list), a whole trailing part of it? */
static int header_matches(const char *header, const char *file)
{
	size_t fl;

	if (!file)
		return 0;
	fl = strlen(file);
	for (const char *h = header; *h;) {
		size_t hl = strcspn(h, ",");

		if (hl > 0 && fl >= hl && strncmp(file + fl - hl, h, hl) == 0 &&
		    (fl == hl || file[fl - hl - 1] == '/'))
			return 1;
		h += hl;
		h += *h == ',';
	}
	return 0;
}

/* The entry for NAME defined in DEFINED_IN, writer operations included. */
static const struct vocab_entry *find_entry(const struct vocab *v, const char *name,
					    const char *defined_in)
{
	struct vocab_entry key = { .name = (char *)name };
	const struct vocab_entry *e, *best = NULL;

	if (!v->sorted)
		return NULL;
	e = bsearch(&key, v->entries, v->count, sizeof key, by_name);
	if (!e)
		return NULL;
	while (e > v->entries && strcmp(e[-1].name, name) == 0)
		e--;
	for (; e < v->entries + v->count && strcmp(e->name, name) == 0; e++) {
		if (e->header && header_matches(e->header, defined_in))
			return e;
		if (!e->header && !best)
			best = e;
	}
	return best;
}

/* The length of NAME without the size suffix of a GNU atomic builtin's
 * sized form (__sync_bool_compare_and_swap_8, __atomic_load_4: what clang
 * calls the builtin a macro expands to), or 0 when it has none. */
static size_t unsized_builtin(const char *name)
{
	static const char *const sizes[] = { "_1", "_2", "_4", "_8", "_16" };
	size_t n = strlen(name);

	if (strncmp(name, "__sync_", 7) != 0 && strncmp(name, "__atomic_", 9) != 0)
		return 0;
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		size_t k = strlen(sizes[i]);

		if (n > k + 9 && strcmp(name + n - k, sizes[i]) == 0)
			return n - k;
	}
	return 0;
}

/* The Linux name of the processors' barrier that NAME ends in, after a
 * project's prefix ("rte_smp_wmb": "smp_wmb"), or NULL.  A portable code
 * base names its barriers so and defines them per architecture: on x86,
 * DPDK's rte_smp_wmb() is a compiler barrier (stores are not reordered
 * there), dmb ishst on arm64.  The scan reads the x86 headers, but the
 * name says what the code needs on every processor. */
static const char *smp_barrier_suffix(const char *name)
{
	static const char *const names[] = { "smp_mb", "smp_wmb", "smp_rmb" };
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		size_t k = strlen(names[i]);

		if (n > k + 1 && name[n - k - 1] == '_' && strcmp(name + n - k, names[i]) == 0)
			return names[i];
	}
	return NULL;
}

const struct vocab_entry *vocab_find(const struct vocab *v, const char *name,
				     const char *defined_in)
{
	const struct vocab_entry *e = find_entry(v, name, defined_in);
	const char *barrier;
	size_t base;

	if (!e && name && (base = unsized_builtin(name)) > 0) {
		char *unsized = xstrdup(name);

		unsized[base] = '\0';
		e = find_entry(v, unsized, defined_in);
		free(unsized);
	}
	if (!e && name && (barrier = smp_barrier_suffix(name)) != NULL)
		e = find_entry(v, barrier, defined_in);
	return e && !is_contract(e->op) ? e : NULL;
}

const struct vocab_entry *vocab_find_contract(const struct vocab *v, const char *name,
					      const char *defined_in, enum op op)
{
	const struct vocab_entry *e = find_entry(v, name, defined_in);

	return e && e->op == op ? e : NULL;
}

void vocab_free(struct vocab *v)
{
	for (size_t i = 0; i < v->count; i++)
		entry_free(&v->entries[i]);
	free(v->entries);
	memset(v, 0, sizeof *v);
}
