/* analyzer/driver/hashcache.h — content hashes of the files one scan reads, each
 * file hashed once.
 *
 * Every translation unit records the hash of every header it read (for
 * incremental rescans), and a tree's TUs read mostly the same headers:
 * hashing them again per TU was a large part of storing, done while the
 * database lock is held.  The cache assumes that files do not change
 * while the scan runs, which is also what the parse assumes.  It is safe
 * to use from several threads at once. */
#ifndef KCSAN_HASHCACHE_H
#define KCSAN_HASHCACHE_H

struct hash_cache;

struct hash_cache *hash_cache_new(void);
void hash_cache_free(struct hash_cache *c);

/* Writes the 16-hex-digit content hash of PATH (hash_file in model/hashmap.h)
 * into HEX (17 bytes) and returns 0, or returns -1 when PATH cannot be
 * read (remembered too). */
int hash_cache_file(struct hash_cache *c, const char *path, char *hex);

#endif
