/* analyzer/driver/hashcache.c — a content hash per file per scan (hashcache.h).
 * The hash map (model/hashmap.h) from path to entry, behind one mutex: a
 * lookup is short next to the parse it serves, and a file missing from
 * the map is hashed outside the lock. */
#include "hashcache.h"
#include "analyzer/model/facts.h"
#include "analyzer/model/hashmap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	char *path;       /* the map's key */
	char hex[17];     /* "" when the file cannot be read */
};

struct hash_cache {
	pthread_mutex_t lock;
	struct hashmap by_path;   /* path -> struct entry * */
	struct entry **entries;
	int n, cap;
};

struct hash_cache *hash_cache_new(void)
{
	struct hash_cache *c = xcalloc(1, sizeof *c);

	pthread_mutex_init(&c->lock, NULL);
	return c;
}

void hash_cache_free(struct hash_cache *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		free(c->entries[i]->path);
		free(c->entries[i]);
	}
	free(c->entries);
	hashmap_free(&c->by_path);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* The entry of PATH, or NULL; under the lock. */
static struct entry *lookup(struct hash_cache *c, const char *path)
{
	intptr_t *v = hashmap_get_str(&c->by_path, path);

	return v ? (struct entry *)*v : NULL;
}

/* Adds PATH's hash HEX unless another thread did meanwhile; under the
 * lock. */
static void insert(struct hash_cache *c, const char *path, const char *hex)
{
	struct entry *e;

	if (lookup(c, path))
		return;
	e = xcalloc(1, sizeof *e);
	e->path = xstrdup(path);
	memcpy(e->hex, hex, sizeof e->hex);
	grow(&c->entries, &c->cap, c->n + 1, sizeof *c->entries);
	c->entries[c->n++] = e;
	*hashmap_put_str(&c->by_path, e->path, NULL) = (intptr_t)e;
}

int hash_cache_file(struct hash_cache *c, const char *path, char *hex)
{
	struct entry *e;
	char fresh[17] = "";

	pthread_mutex_lock(&c->lock);
	e = lookup(c, path);
	if (e) {
		memcpy(hex, e->hex, 17);
		pthread_mutex_unlock(&c->lock);
		return hex[0] ? 0 : -1;
	}
	pthread_mutex_unlock(&c->lock);
	if (hash_file(path, fresh) < 0)
		fresh[0] = '\0';
	pthread_mutex_lock(&c->lock);
	insert(c, path, fresh);
	pthread_mutex_unlock(&c->lock);
	memcpy(hex, fresh, 17);
	return hex[0] ? 0 : -1;
}
