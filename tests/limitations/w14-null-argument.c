/*
 * limitation: W14 (docs/limitations.md)
 * lkmm: no-race
 * about: end(r, s) returns early when s == NULL, before delref(r, s). The writer passes NULL,
 *        so only the reader touches 'count'; delref()'s access is still
 *        attributed to the writer's call, and paired with 'readers'.
 */
#include <kcsan/lkmm.h>
#include <pthread.h>
#include <stddef.h>

struct section { int bucket; };
struct record { int active; int count[4]; };
static struct record rec;
static int readers;

static void delref(struct record *r, struct section *s) { r->count[s->bucket]--; }
static inline void end(struct record *r, struct section *s)
{ smp_store_release(&r->active, 0); if (s == NULL) return; delref(r, s); }
static void *reader(void *a) { struct section s = { 0 }; rec.count[0]++; WRITE_ONCE(readers, 1); end(&rec, &s); return a; }
static void *writer(void *a) { while (READ_ONCE(readers) == 0) ; end(&rec, NULL); return a; }

int main(void)
{
	pthread_t t[2];
	pthread_create(&t[0], 0, reader, 0);
	pthread_create(&t[1], 0, writer, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
