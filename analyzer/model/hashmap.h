/* analyzer/model/hashmap.h — the analyser's one hash map, and its one hash
 * function.
 *
 * A map from keys to values (intptr_t: a number, an index, a pointer),
 * by open addressing with linear probing, grown at half load.  A key is
 * either a 64-bit number (hashmap_pair makes one of two numbers: two
 * events, two objects) or a string, which the map borrows: it must live
 * as long as the map. */
#ifndef KCSAN_HASHMAP_H
#define KCSAN_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct hashmap_slot {
	uint64_t key;          /* the number, or the string's hash */
	const char *str;       /* the string key, NULL for a number key */
	intptr_t val;
	int full;
};

struct hashmap {
	struct hashmap_slot *slots;
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
