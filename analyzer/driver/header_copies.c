/* analyzer/driver/header_copies.c — a worker's knowledge of the header
 * functions stored already (see header_copies.h). */
#include "header_copies.h"
#include "analyzer/model/hashmap.h"
#include "db/facts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* "LINK_KEY\nFILE" -> the path of the first TU known to store that
 * function (both strings owned by the map's user: freed with it). */
struct copies_known {
	sqlite3 *db;
	struct hashmap first;
};

struct copies_known *copies_known_new(sqlite3 *db)
{
	struct copies_known *k = xcalloc(1, sizeof *k);

	k->db = db;
	return k;
}

void copies_known_free(struct copies_known *k)
{
	if (!k)
		return;
	for (unsigned i = 0; i < k->first.cap; i++)
		if (k->first.keys[i]) {
			free((char *)k->first.strs[i]);
			free((char *)k->first.vals[i]);
		}
	hashmap_free(&k->first);
	free(k);
}

/* The answer may be stale (another worker stores an earlier copy while
 * this one runs, or the copy found is about to be replaced by a TU parsed
 * again in this scan): an earlier copy missed costs one extra copy, and a
 * copy that vanishes is found by the scan afterwards
 * (store_orphaned_tus), which parses the TU again. */
static int stored_before(void *arg, const char *link_key, const char *file, const char *tu_path)
{
	struct copies_known *k = arg;
	char *key = xasprintf("%s\n%s", link_key, file), *first;
	int added;
	intptr_t *slot = hashmap_put_str(&k->first, key, &added);

	if (!added) {
		free(key);
		first = (char *)*slot;
	} else {
		first = store_first_copy(k->db, link_key, file);
		*slot = (intptr_t)first;
	}
	if (first && strcmp(first, tu_path) < 0)
		return 1;
	/* This TU stores it: the first copy from now on. */
	free(first);
	*slot = (intptr_t)xstrdup(tu_path);
	return 0;
}

struct header_copies copies_known_oracle(struct copies_known *k)
{
	struct header_copies h = { stored_before, k };

	return h;
}
