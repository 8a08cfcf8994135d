/* analyzer/model/pairset.c — open addressing on a 64-bit key, grown at half load
 * (see pairset.h). */
#include "pairset.h"
#include "facts.h"

#include <stdlib.h>

static unsigned long long key_of(int a, int b)
{
	return ((unsigned long long)(unsigned)a << 32 | (unsigned)b) + 1;   /* never 0 */
}

static unsigned slot_of(unsigned long long key, int cap)
{
	return (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (unsigned)(cap - 1);
}

int pairset_get(const struct pairset *s, int a, int b)
{
	unsigned long long key = key_of(a, b);

	if (!s->cap)
		return -1;
	for (unsigned h = slot_of(key, s->cap); s->keys[h]; h = (h + 1) & (unsigned)(s->cap - 1))
		if (s->keys[h] == key)
			return s->vals[h];
	return -1;
}

void pairset_put(struct pairset *s, int a, int b, int val)
{
	unsigned long long key = key_of(a, b);
	unsigned h;

	if (2 * (s->used + 1) > s->cap) {
		struct pairset old = *s;

		s->cap = s->cap ? s->cap * 2 : 1024;
		s->keys = xcalloc(s->cap, sizeof *s->keys);
		s->vals = xcalloc(s->cap, sizeof *s->vals);
		s->used = 0;
		for (int i = 0; i < old.cap; i++)
			if (old.keys[i]) {
				for (h = slot_of(old.keys[i], s->cap); s->keys[h]; h = (h + 1) & (unsigned)(s->cap - 1))
					;
				s->keys[h] = old.keys[i];
				s->vals[h] = old.vals[i];
				s->used++;
			}
		free(old.keys);
		free(old.vals);
	}
	for (h = slot_of(key, s->cap); s->keys[h]; h = (h + 1) & (unsigned)(s->cap - 1))
		if (s->keys[h] == key) {
			s->vals[h] = val;
			return;
		}
	s->keys[h] = key;
	s->vals[h] = val;
	s->used++;
}

void pairset_free(struct pairset *s)
{
	free(s->keys);
	free(s->vals);
	s->keys = NULL;
	s->vals = NULL;
	s->cap = s->used = 0;
}
