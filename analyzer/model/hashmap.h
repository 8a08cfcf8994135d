/* analyzer/model/hashmap.h — the analyser's one hash map, and its one hash
 * function.
 *
 * A map from keys to values (intptr_t: a number, an index, a pointer),
 * by open addressing with linear probing, grown at half load.  A map's
 * keys are all 64-bit numbers (below 2^64 - 1; hashmap_pair makes one of
 * two numbers: two events, two objects) or all strings, which the map
 * borrows: they must live as long as the map. */
#ifndef KCSAN_HASHMAP_H
#define KCSAN_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

/* Slot I holds keys[I] (0: empty; a number key is stored plus one, a
 * string's hash with its low bit set: neither is ever 0), vals[I], and
 * for a string map strs[I].  The keys are an array of their own: a probe
 * reads only them, and the analysis' big maps (pairs by the hundred
 * thousand, mostly asked about pairs they do not hold) stay in cache. */
struct hashmap {
	uint64_t *keys;
	intptr_t *vals;
	const char **strs;     /* string maps only */
	unsigned cap, used;
};

/* FNV-1a, 64 bits, of the N bytes at P, continuing from H (start with
 * FNV1A_START). */
#define FNV1A_START 14695981039346656037ULL
uint64_t fnv1a(uint64_t h, const void *p, size_t n);

/* FNV-1a 64 of a file's content as 16 hex digits into HEX (17 bytes);
 * returns -1 if the file cannot be read.  hash_text: the same of LEN bytes
 * of TEXT.  (What an incremental scan compares.) */
int hash_file(const char *path, char *hex);
void hash_text(const char *text, size_t len, char *hex);

/* The number key of the pair (A, B), both non-negative. */
static inline uint64_t hashmap_pair(int a, int b)
{
	return (uint64_t)(unsigned)a << 32 | (unsigned)b;
}

/* The value of number key KEY, or NULL when there is none. */
intptr_t *hashmap_get(const struct hashmap *m, uint64_t key);
/* The value of KEY, added (set to 0, *ADDED to 1 when ADDED is not NULL)
 * when there is none.  The pointer is valid until the next addition. */
intptr_t *hashmap_put(struct hashmap *m, uint64_t key, int *added);

/* The same for string keys. */
intptr_t *hashmap_get_str(const struct hashmap *m, const char *key);
intptr_t *hashmap_put_str(struct hashmap *m, const char *key, int *added);

void hashmap_free(struct hashmap *m);

#endif
