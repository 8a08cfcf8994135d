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

/* The slot of stored key KEY (string STR, NULL for a number key), or the
 * empty slot where it belongs (M has one: it is at most half full). */
static inline __attribute__((always_inline)) unsigned probe(const struct hashmap *m, uint64_t key,
								const char *str)
{
	unsigned i = start_of(key, m->cap);

	/* (always inlined: with STR a constant NULL, the number maps that the
	 * analysis asks by the million get a loop with no string test) */
	while (m->keys[i]) {
		if (m->keys[i] == key && (!str || strcmp(m->strs[i], str) == 0))
			return i;
		i = (i + 1) & (m->cap - 1);
	}
	return i;
}

static inline __attribute__((always_inline)) intptr_t *get(const struct hashmap *m, uint64_t key,
							     const char *str)
{
	unsigned i;

	if (!m->cap)
		return NULL;
	i = probe(m, key, str);
	return m->keys[i] ? &m->vals[i] : NULL;
}

static inline __attribute__((always_inline)) intptr_t *put(struct hashmap *m, uint64_t key, const char *str,
							     int *added)
{
	unsigned i;

	if (2 * (m->used + 1) > m->cap) {
		struct hashmap old = *m;

		m->cap = m->cap ? m->cap * 2 : 64;
		m->keys = xcalloc(m->cap, sizeof *m->keys);
		m->vals = xmalloc(m->cap * sizeof *m->vals);
		m->strs = str || old.strs ? xcalloc(m->cap, sizeof *m->strs) : NULL;
		for (unsigned k = 0; k < old.cap; k++)
			if (old.keys[k]) {
				unsigned to = probe(m, old.keys[k], NULL);   /* no equal key: any slot */

				m->keys[to] = old.keys[k];
				m->vals[to] = old.vals[k];
				if (m->strs)
					m->strs[to] = old.strs ? old.strs[k] : NULL;
			}
		free(old.keys);
		free(old.vals);
		free(old.strs);
	}
	i = probe(m, key, str);
	if (added)
		*added = !m->keys[i];
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->vals[i] = 0;
		if (str)
			m->strs[i] = str;
		m->used++;
	}
	return &m->vals[i];
}

/* The stored forms of the two kinds of key (never 0, never equal to each
 * other's: a map holds one kind of key). */
static uint64_t number_key(uint64_t key)
{
	return key + 1;
}

static uint64_t string_key(const char *s)
{
	return fnv1a(FNV1A_START, s, strlen(s)) | 1;
}

intptr_t *hashmap_get(const struct hashmap *m, uint64_t key)
{
	return get(m, number_key(key), NULL);
}

intptr_t *hashmap_put(struct hashmap *m, uint64_t key, int *added)
{
	return put(m, number_key(key), NULL, added);
}

intptr_t *hashmap_get_str(const struct hashmap *m, const char *key)
{
	return m->strs || !m->cap ? get(m, string_key(key), key) : NULL;
}

intptr_t *hashmap_put_str(struct hashmap *m, const char *key, int *added)
{
	return put(m, string_key(key), key, added);
}

void hashmap_free(struct hashmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->strs);
	m->keys = NULL;
	m->vals = NULL;
	m->strs = NULL;
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
