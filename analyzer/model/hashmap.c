/* analyzer/model/hashmap.c — open addressing with linear probing, grown at
 * half load (see hashmap.h). */
#include "hashmap.h"
#include "facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* Where a key hashed to H starts its probe: the top bits of a
 * multiplicative hash, since number keys (pairs of small numbers) differ
 * mostly in their low bits. */
static unsigned start_of(uint64_t h, unsigned cap)
{
	return (unsigned)((h * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

/* The slot of (KEY, STR), or the empty slot where it belongs (M has one:
 * it is at most half full). */
static struct hashmap_slot *probe(const struct hashmap *m, uint64_t key, const char *str)
{
	unsigned i = start_of(key, m->cap);

	while (m->slots[i].full) {
		struct hashmap_slot *s = &m->slots[i];

		if (s->key == key && (str ? s->str && strcmp(s->str, str) == 0 : !s->str))
			return s;
		i = (i + 1) & (m->cap - 1);
	}
	return &m->slots[i];
}

static intptr_t *get(const struct hashmap *m, uint64_t key, const char *str)
{
	struct hashmap_slot *s;

	if (!m->cap)
		return NULL;
	s = probe(m, key, str);
	return s->full ? &s->val : NULL;
}

static intptr_t *put(struct hashmap *m, uint64_t key, const char *str, int *added)
{
	struct hashmap_slot *s;

	if (2 * (m->used + 1) > m->cap) {
		struct hashmap old = *m;

		m->cap = m->cap ? m->cap * 2 : 64;
		m->slots = xcalloc(m->cap, sizeof *m->slots);
		for (unsigned i = 0; i < old.cap; i++)
			if (old.slots[i].full)
				*probe(m, old.slots[i].key, old.slots[i].str) = old.slots[i];
		free(old.slots);
	}
	s = probe(m, key, str);
	if (added)
		*added = !s->full;
	if (!s->full) {
		s->full = 1;
		s->key = key;
		s->str = str;
		s->val = 0;
		m->used++;
	}
	return &s->val;
}

intptr_t *hashmap_get(const struct hashmap *m, uint64_t key)
{
	return get(m, key, NULL);
}

intptr_t *hashmap_put(struct hashmap *m, uint64_t key, int *added)
{
	return put(m, key, NULL, added);
}

intptr_t *hashmap_get_str(const struct hashmap *m, const char *key)
{
	return get(m, fnv1a(FNV1A_START, key, strlen(key)), key);
}

intptr_t *hashmap_put_str(struct hashmap *m, const char *key, int *added)
{
	return put(m, fnv1a(FNV1A_START, key, strlen(key)), key, added);
}

void hashmap_free(struct hashmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->used = 0;
}

/* ---- content hashes ---- */

void hash_text(const char *text, size_t len, char *hex)
{
	snprintf(hex, 17, "%016llx",
		 (unsigned long long)fnv1a(FNV1A_START, text, len));
}

int hash_file(const char *path, char *hex)
{
	FILE *f = fopen(path, "rb");
	unsigned char buf[65536];
	uint64_t h = FNV1A_START;
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		h = fnv1a(h, buf, n);
	fclose(f);
	snprintf(hex, 17, "%016llx", (unsigned long long)h);
	return 0;
}
