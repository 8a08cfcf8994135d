/* analyzer/driver/hashcache.c — a content hash per file per scan (hashcache.h).
 * An open-addressing table keyed by path, grown at half load, behind one
 * mutex: a lookup is short next to the parse it serves, and a file missing
 * from the table is hashed outside the lock. */
#include "hashcache.h"
#include "analyzer/model/facts.h"
#include "analyzer/model/store.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct slot {
	char *path;       /* NULL: empty */
	char hex[17];     /* "" when the file cannot be read */
};

struct hash_cache {
	pthread_mutex_t lock;
	struct slot *slots;
	unsigned cap, used;
};

static unsigned hash_path(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The slot of PATH, or the empty slot where it belongs. */
static struct slot *find(struct slot *slots, unsigned cap, const char *path)
{
	unsigned i = hash_path(path) & (cap - 1);

	while (slots[i].path && strcmp(slots[i].path, path) != 0)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

struct hash_cache *hash_cache_new(void)
{
	struct hash_cache *c = xcalloc(1, sizeof *c);

	pthread_mutex_init(&c->lock, NULL);
	c->cap = 1024;
	c->slots = xcalloc(c->cap, sizeof *c->slots);
	return c;
}

void hash_cache_free(struct hash_cache *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->cap; i++)
		free(c->slots[i].path);
	free(c->slots);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static void insert(struct hash_cache *c, const char *path, const char *hex)
{
	struct slot *s;

	if (2 * (c->used + 1) > c->cap) {
		struct slot *old = c->slots;
		unsigned oldcap = c->cap;

		c->cap *= 2;
		c->slots = xcalloc(c->cap, sizeof *c->slots);
		for (unsigned i = 0; i < oldcap; i++)
			if (old[i].path)
				*find(c->slots, c->cap, old[i].path) = old[i];
		free(old);
	}
	s = find(c->slots, c->cap, path);
	if (s->path)
		return;          /* another thread hashed it meanwhile */
	s->path = xstrdup(path);
	memcpy(s->hex, hex, sizeof s->hex);
	c->used++;
}

int hash_cache_file(struct hash_cache *c, const char *path, char *hex)
{
	struct slot *s;
	char fresh[17] = "";

	pthread_mutex_lock(&c->lock);
	s = find(c->slots, c->cap, path);
	if (s->path) {
		memcpy(hex, s->hex, 17);
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
