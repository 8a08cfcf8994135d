/* analyzer/model/items.c — reading and writing the small languages inside
 * the facts: dependency items, object keys, argument lists (items.h has
 * their grammar). */
#include "items.h"
#include "facts.h"

#include <stdlib.h>
#include <string.h>

/* ---- dependency lists ---- */

/* The LEN bytes at S as a non-negative decimal number (at most nine
 * digits), or -1 when they are not one. */
static int number(const char *s, size_t len)
{
	long v = 0;

	if (len == 0 || len > 9)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return (int)v;
}

static char *copy(const char *s, size_t len)
{
	return xasprintf("%.*s", (int)len, s);
}

/* ITEM (LEN bytes, escapes already removed) as the source of D.  0 when
 * it follows the grammar. */
static int parse_source(const char *item, size_t len, struct dep_item *d)
{
	const char *colon;

	d->name = NULL;
	d->n = 0;
	d->local = -1;
	d->via = 0;
	if (len == 0)
		return -1;
	switch (item[0]) {
	case '@':
		d->kind = DEP_EVENT;
		return (d->n = number(item + 1, len - 1)) < 0 ? -1 : 0;
	case '$':
		/* "$KEY:N": the key holds ':' itself (path:name), so the
		 * number is after the last one. */
		for (colon = item + len - 1; colon > item && *colon != ':'; colon--)
			;
		if (colon <= item + 1 || (d->n = number(colon + 1, len - (size_t)(colon + 1 - item))) < 0)
			return -1;
		d->kind = DEP_PARAM;
		d->name = copy(item + 1, (size_t)(colon - item - 1));
		break;
	case '!':
		if (len == 4 && memcmp(item, "!new", 4) == 0) {
			d->kind = DEP_NEW;
		} else if (len == 5 && memcmp(item, "!null", 5) == 0) {
			d->kind = DEP_NULL;
		} else if (len == 4 && memcmp(item, "!own", 4) == 0) {
			d->kind = DEP_OWN;
		} else if (len > 8 && memcmp(item, "!reread:", 8) == 0) {
			d->kind = DEP_REREAD;
			return (d->n = number(item + 8, len - 8)) < 0 ? -1 : 0;
		} else if (len == 9 && memcmp(item, "!volatile", 9) == 0) {
			d->kind = DEP_VOLATILE;
		} else if (len == 11 && memcmp(item, "!sharedtype", 11) == 0) {
			d->kind = DEP_SHARED_TYPE;
		} else if (len == 8 && memcmp(item, "!indexed", 8) == 0) {
			d->kind = DEP_INDEXED;
		} else if (len == 4 && memcmp(item, "!tls", 4) == 0) {
			d->kind = DEP_TLS;
		} else if (len > 7 && memcmp(item, "!kept:@", 7) == 0) {
			const char *colon = memchr(item + 7, ':', len - 7);

			d->kind = DEP_KEPT;
			if (!colon || (d->n = number(item + 7, (size_t)(colon - item - 7))) < 0 ||
			    (d->via = number(colon + 1, len - (size_t)(colon + 1 - item))) < 0)
				return -1;
			return 0;
		} else if (len > 8 && memcmp(item, "!newarg:", 8) == 0) {
			d->kind = DEP_NEW_PARAM;
			return (d->n = number(item + 8, len - 8)) < 0 ? -1 : 0;
		} else if (len > 6 && memcmp(item, "!step:", 6) == 0) {
			char digits[24], *end;

			if (len - 6 >= sizeof digits)
				return -1;
			memcpy(digits, item + 6, len - 6);
			digits[len - 6] = '\0';
			d->kind = DEP_STEP;
			d->value = strtoll(digits, &end, 10);
			return end == digits + len - 6 && end != digits ? 0 : -1;
		} else if (len > 5 && memcmp(item, "!new:", 5) == 0) {
			d->kind = DEP_NEW_FROM;
			d->name = copy(item + 5, len - 5);
		} else if (len > 6 && memcmp(item, "!type:", 6) == 0) {
			d->kind = DEP_TYPE;
			d->name = copy(item + 6, len - 6);
		} else {
			return -1;
		}
		break;
	case '%': {
		/* (ITEM is not NUL-terminated: the digits are copied out) */
		char digits[24], *end;

		if (len < 2 || len - 1 >= sizeof digits)
			return -1;
		memcpy(digits, item + 1, len - 1);
		digits[len - 1] = '\0';
		d->kind = DEP_CONST;
		d->value = strtoll(digits, &end, 10);
		return end == digits + len - 1 ? 0 : -1;
	}
	case '~': case '#': case '?': case '^': case '=':
		return -1;
	default:
		d->kind = DEP_LOCAL;
		d->name = copy(item, len);
	}
	return 0;
}

/* ITEM (LEN bytes, escapes removed) into D: 0 when it follows the grammar. */
static int parse_item(const char *item, size_t len, struct dep_item *d)
{
	d->role = DEP_ADDRESS;
	d->arg = 0;
	d->value = 0;
	d->differs = 0;
	d->cmp = 0;
	if (len > 0 && item[0] == '~') {
		d->role = DEP_VALUE;
		item++, len--;
	} else if (len > 0 && item[0] == '=') {
		d->role = DEP_EXPECTED;
		return parse_source(item + 1, len - 1, d) < 0 || d->kind != DEP_CONST ? -1 : 0;
	} else if (len > 0 && item[0] == '#') {
		const char *eq = memchr(item, '=', len);

		if (!eq || (d->arg = number(item + 1, (size_t)(eq - item - 1))) < 0)
			return -1;
		d->role = DEP_ARGUMENT;
		len -= (size_t)(eq + 1 - item);
		item = eq + 1;
	} else if (len > 0 && item[0] == '^') {
		/* "^SoV:SOURCE" */
		const char *colon = memchr(item, ':', len);
		char digits[24], *end;
		size_t k = 1, vlen;

		while (k < len && item[k] >= '0' && item[k] <= '9')
			k++;
		if (k == 1 || k >= len || !colon || colon < item + k + 2 || !strchr("=!<>{}", item[k]) ||
		    (d->arg = number(item + 1, k - 1)) < 0)
			return -1;
		d->cmp = item[k];
		vlen = (size_t)(colon - (item + k + 1));
		if (vlen >= sizeof digits)
			return -1;
		memcpy(digits, item + k + 1, vlen);
		digits[vlen] = '\0';
		strtoll(digits, &end, 10);
		if (end != digits + vlen)
			return -1;
		d->role = DEP_COMPARE;
		if (parse_source(colon + 1, len - (size_t)(colon + 1 - item), d) < 0 ||
		    (d->kind != DEP_EVENT && d->kind != DEP_LOCAL))
			return -1;
		d->value = strtoll(digits, &end, 10);
		return 0;
	} else if (len > 0 && item[0] == '?') {
		size_t k = 1;

		while (k < len && item[k] >= '0' && item[k] <= '9')
			k++;
		if (k == 1 || k >= len || (item[k] != '=' && item[k] != '!') ||
		    (d->arg = number(item + 1, k - 1)) < 0)
			return -1;
		d->role = DEP_GUARD;
		d->differs = item[k] == '!';
		if (parse_source(item + k + 1, len - k - 1, d) < 0 ||
		    (d->kind != DEP_CONST && d->kind != DEP_NULL))
			return -1;
		return 0;
	}
	return parse_source(item, len, d);
}

int dep_list_parse(const char *text, struct dep_list *out)
{
	size_t len;
	char *item;
	int bad = 0, cap = 0;

	out->v = NULL;
	out->n = 0;
	if (!text)
		return 0;       /* most events depend on nothing: no allocation */
	len = strlen(text);
	item = xmalloc(len + 1);
	for (size_t i = 0; i <= len; ) {
		size_t n = 0;

		/* one item, unescaped, up to an unescaped ',' or the end */
		while (i < len && text[i] != ',') {
			if (text[i] == '\\' && i + 1 < len)
				i++;
			item[n++] = text[i++];
		}
		if (n > 0) {
			grow(&out->v, &cap, out->n + 1, sizeof *out->v);
			if (parse_item(item, n, &out->v[out->n]) == 0)
				out->n++;
			else
				bad++;
		}
		i++;          /* past the ',' (or the end) */
	}
	free(item);
	return bad;
}

void dep_list_free(struct dep_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int dep_list_has(const struct dep_list *l, enum dep_role role, enum dep_kind kind)
{
	for (int i = 0; i < l->n; i++)
		if (l->v[i].role == role && l->v[i].kind == kind)
			return 1;
	return 0;
}

int dep_list_has_arg(const struct dep_list *l, int arg, enum dep_kind kind)
{
	for (int i = 0; i < l->n; i++)
		if (l->v[i].role == DEP_ARGUMENT && l->v[i].arg == arg && l->v[i].kind == kind)
			return 1;
	return 0;
}

/* S with ',' and '\' escaped. */
static char *escaped(const char *s)
{
	char *out = xmalloc(2 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == ',' || *s == '\\')
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

char *dep_item_text(const struct dep_item *d)
{
	char *name = d->name ? escaped(d->name) : NULL, *source, *out;

	switch (d->kind) {
	case DEP_EVENT:     source = xasprintf("@%d", d->n); break;
	case DEP_PARAM:     source = xasprintf("$%s:%d", name, d->n); break;
	case DEP_NEW:       source = xstrdup("!new"); break;
	case DEP_NEW_FROM:  source = xasprintf("!new:%s", name); break;
	case DEP_NEW_PARAM: source = xasprintf("!newarg:%d", d->n); break;
	case DEP_NULL:      source = xstrdup("!null"); break;
	case DEP_OWN:       source = xstrdup("!own"); break;
	case DEP_TLS:       source = xstrdup("!tls"); break;
	case DEP_KEPT:      source = xasprintf("!kept:@%d:%d", d->n, d->via); break;
	case DEP_CONST:     source = xasprintf("%%%lld", d->value); break;
	case DEP_STEP:      source = xasprintf("!step:%lld", d->value); break;
	case DEP_VOLATILE:  source = xstrdup("!volatile"); break;
	case DEP_REREAD:    source = xasprintf("!reread:%d", d->n); break;
	case DEP_TYPE:      source = xasprintf("!type:%s", name); break;
	case DEP_SHARED_TYPE: source = xstrdup("!sharedtype"); break;
	case DEP_INDEXED:   source = xstrdup("!indexed"); break;
	default:            source = xstrdup(name ? name : ""); break;
	}
	free(name);
	if (d->role == DEP_GUARD)
		out = xasprintf("?%d%c%s", d->arg, d->differs ? '!' : '=', source);
	else if (d->role == DEP_COMPARE)
		out = xasprintf("^%d%c%lld:%s", d->arg, d->cmp, d->value, source);
	else if (d->role == DEP_EXPECTED)
		out = xasprintf("=%s", source);
	else
		out = dep_item_with_role(source, d->role, d->arg);
	free(source);
	return out;
}

char *dep_source_text(enum dep_kind kind, int n, const char *name)
{
	struct dep_item d = { DEP_ADDRESS, kind, 0, n, (char *)name, -1, 0, 0, 0, 0 };

	return dep_item_text(&d);
}

int dep_text_is(const char *item, enum dep_kind kind)
{
	struct dep_list l;
	int is;

	dep_list_parse(item, &l);
	is = l.n == 1 && l.v[0].kind == kind;
	dep_list_free(&l);
	return is;
}

void dep_list_each(const char *text, void (*fn)(const char *item, void *ctx), void *ctx)
{
	struct dep_list l;

	dep_list_parse(text, &l);
	for (int i = 0; i < l.n; i++) {
		char *t = dep_item_text(&l.v[i]);

		fn(t, ctx);
		free(t);
	}
	dep_list_free(&l);
}

void dep_list_each_value(const char *text, enum dep_role role, int arg,
			 void (*fn)(const char *item, void *ctx), void *ctx)
{
	struct dep_list l;

	dep_list_parse(text, &l);
	for (int i = 0; i < l.n; i++) {
		struct dep_item d = l.v[i];
		char *t;

		if (d.role != DEP_ADDRESS || (d.kind != DEP_LOCAL && d.kind != DEP_EVENT))
			continue;
		d.role = role;
		d.arg = arg;
		t = dep_item_text(&d);
		fn(t, ctx);
		free(t);
	}
	dep_list_free(&l);
}

/* Is the character at P (in TEXT) escaped: an odd number of '\' before it? */
static int escaped_at(const char *text, const char *p)
{
	int n = 0;

	while (p > text && p[-1] == '\\')
		p--, n++;
	return n % 2;
}

int dep_list_text_has(const char *list, const char *item, size_t n)
{
	for (const char *p = list; p && (p = strstr(p, item)) != NULL; p++)
		if (p > list && p[-1] == ',' && !escaped_at(list, p - 1) && p[n] == ',' &&
		    !escaped_at(list, p + n))
			return 1;
	return 0;
}

char *dep_item_with_role(const char *source, enum dep_role role, int arg)
{
	switch (role) {
	case DEP_VALUE:    return xasprintf("~%s", source);
	case DEP_ARGUMENT: return xasprintf("#%d=%s", arg, source);
	default:           return xstrdup(source);
	}
}

/* ---- object keys ---- */

#define SHARED "shared:"

char *object_param_key(const char *fn, int n)
{
	return xasprintf("p:%s:%d", fn, n);
}

#define EXTERNAL_RESULT "c:@F@"

char *object_external_key(const char *name, size_t len, const char *part)
{
	return part ? xasprintf(EXTERNAL_RESULT "%.*s[]@%s", (int)len, name, part)
		    : xasprintf(EXTERNAL_RESULT "%.*s[]", (int)len, name);
}

const char *object_external_name(const char *key, size_t *len)
{
	const char *name = key + strlen(EXTERNAL_RESULT), *end;

	if (strncmp(key, EXTERNAL_RESULT, strlen(EXTERNAL_RESULT)) != 0 || !(end = strstr(name, "[]")) ||
	    memchr(name, '@', (size_t)(end - name)))
		return NULL;
	*len = (size_t)(end - name);
	return name;
}

char *object_function_key(const char *fn)
{
	return xasprintf("f:%s", fn);
}

char *object_shared(const char *key)
{
	return xasprintf(SHARED "%s", key);
}

int object_is_shared(const char *key)
{
	return strncmp(key, SHARED, strlen(SHARED)) == 0;
}

const char *object_unshared(const char *key)
{
	return object_is_shared(key) ? key + strlen(SHARED) : key;
}

void object_ref_parse(const char *key, struct object_ref *out)
{
	const char *k = key, *colon;
	size_t len;

	memset(out, 0, sizeof *out);
	if (!key) {
		out->kind = OBJ_NONE;
		return;
	}
	if (object_is_shared(k)) {
		out->shared = 1;
		k = object_unshared(k);
	}
	len = strlen(k);
	out->elements = len >= 2 && strcmp(k + len - 2, "[]") == 0;
	if (strncmp(k, "c:", 2) == 0) {
		out->kind = OBJ_USR;
		/* "c:@NAME": no '@' or '#' after the first (those are fields,
		 * file-scoped statics and names scoped to a program) */
		out->global = k[2] == '@' && !strchr(k + 3, '@') && !strchr(k + 3, '#');
	} else if (strncmp(k, "p:", 2) == 0 && (colon = strrchr(k, ':')) > k + 2 &&
		   (out->param = number(colon + 1, strlen(colon + 1))) >= 0) {
		out->kind = OBJ_PARAM;
		out->fn_off = (size_t)(k + 2 - key);
		out->fn_len = (size_t)(colon - k - 2);
	} else if (strncmp(k, "l:", 2) == 0) {
		out->kind = OBJ_LOCAL;
	} else if (strncmp(k, "f:", 2) == 0) {
		out->kind = OBJ_FUNCTION;
		out->fn_off = (size_t)(k + 2 - key);
		out->fn_len = strlen(k + 2);
	} else if (strncmp(k, "t:", 2) == 0) {
		out->kind = OBJ_TYPE;
	} else {
		out->kind = OBJ_OTHER;
	}
}

int object_is_param_of(const char *key, const struct object_ref *ref, const char *fn)
{
	return ref->kind == OBJ_PARAM && !ref->shared && strlen(fn) == ref->fn_len &&
	       memcmp(key + ref->fn_off, fn, ref->fn_len) == 0;
}

int object_is_local_of(const char *key, const struct object_ref *ref, const char *fn, const char *name)
{
	size_t fl = strlen(fn);

	/* (a link key may hold ':', path:name for a static function: the
	 * whole of FN, then ':', then NAME, is what extract_pointee.c wrote) */
	return ref->kind == OBJ_LOCAL && !ref->shared && strncmp(key + 2, fn, fl) == 0 && key[2 + fl] == ':' &&
	       strcmp(key + 3 + fl, name) == 0;
}

char *object_function(const char *key, const struct object_ref *ref)
{
	if (ref->kind != OBJ_PARAM && ref->kind != OBJ_FUNCTION)
		return NULL;
	return xasprintf("%.*s", (int)ref->fn_len, key + ref->fn_off);
}

char *object_unscoped(const char *key)
{
	/* the program is an absolute path: "#/" starts it, "[]" may follow */
	const char *scope = key ? strstr(key, "#/") : NULL;
	const char *elements;

	if (!scope)
		return key ? xstrdup(key) : NULL;
	elements = strstr(scope, "[]");
	return xasprintf("%.*s%s", (int)(scope - key), key, elements && elements[2] == '\0' ? elements : "");
}

/* ---- sinks ---- */

enum value_sink value_sink_parse(const char *defines)
{
	if (!defines)
		return SINK_NONE;
	if (defines[0] != '?')
		return SINK_LOCAL;
	if (strcmp(defines, "?test") == 0)
		return SINK_TEST;
	if (strcmp(defines, "?ret") == 0)
		return SINK_RETURN;
	if (strcmp(defines, "?loop") == 0)
		return SINK_LOOP;
	if (strcmp(defines, "?polled") == 0)
		return SINK_POLLED;
	return SINK_NONE;
}

/* ---- argument lists ---- */

#define ARG_SEP '\x1f'

void arg_list_parse(const char *text, struct arg_list *out)
{
	int cap = 0;

	out->v = NULL;
	out->n = 0;
	for (const char *a = text; a; ) {
		const char *end = strchr(a, ARG_SEP);
		size_t n = end ? (size_t)(end - a) : strlen(a);

		grow(&out->v, &cap, out->n + 1, sizeof *out->v);
		out->v[out->n++] = n ? xasprintf("%.*s", (int)n, a) : NULL;
		a = end ? end + 1 : NULL;
	}
	out->ref = out->n ? xcalloc((size_t)out->n, sizeof *out->ref) : NULL;
	for (int i = 0; i < out->n; i++)
		object_ref_parse(out->v[i], &out->ref[i]);
}

void arg_list_add(struct arg_list *l, char *text)
{
	if (text && !*text) {
		free(text);
		text = NULL;
	}
	l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
	l->v[l->n++] = text;
}

char *arg_list_text(const struct arg_list *l)
{
	size_t len = 0;
	char *out, *o;

	if (l->n == 0)
		return NULL;
	for (int i = 0; i < l->n; i++)
		len += (l->v[i] ? strlen(l->v[i]) : 0) + 1;
	out = o = xmalloc(len);
	for (int i = 0; i < l->n; i++) {
		if (i)
			*o++ = ARG_SEP;
		if (l->v[i]) {
			strcpy(o, l->v[i]);
			o += strlen(o);
		}
	}
	*o = '\0';
	return out;
}

void arg_list_free(struct arg_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l->ref);
	l->v = NULL;
	l->ref = NULL;
	l->n = 0;
}
