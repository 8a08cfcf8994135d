/*
 * pointer-publish: replace a configuration by publishing a pointer to it.
 *
 * The writer allocates a new struct config, fills it in, and makes it
 * current by storing its address in the global pointer gcfg.  Readers load
 * gcfg and read the fields through it.
 *
 * The writer must publish the pointer with a release: otherwise the store
 * to gcfg may become visible before the stores that fill the structure,
 * and a reader sees a half-initialised config.  The reader side is already
 * correct: every field is read through the loaded pointer, and that address
 * dependency orders the field loads after the pointer load (as with
 * rcu_dereference()), so READ_ONCE(gcfg) is enough there.
 *
 * buggy.c: WRITE_ONCE(gcfg, c), which orders nothing.
 * fixed.c: smp_store_release(&gcfg, c).
 *
 * Usage: ./prog [VERSIONS]   (default 2000)
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcsan/lkmm.h>

struct config {
	int a;
	int b;		/* always a * 10 */
	char name[16];	/* always "cfg-<a>" */
};

struct config *gcfg;	/* the current configuration; NULL before the first */

/* Writer: build version `version` of the configuration and make it current. */
static struct config *config_publish(int version)
{
	struct config *c = malloc(sizeof(*c));
	char name[sizeof(c->name)] = "";
	size_t i;

	if (!c) {
		perror("pointer-publish: malloc");
		exit(1);
	}
	snprintf(name, sizeof(name), "cfg-%d", version);
	c->a = version;				// EXPECT: missing-release
	c->b = version * 10;			// EXPECT: missing-release
	for (i = 0; i < sizeof(c->name); i++)
		c->name[i] = name[i];		// EXPECT: missing-release
	WRITE_ONCE(gcfg, c);
	return c;
}

static int nversions;
static struct config **retired;	/* every published config, freed at exit */

static void *writer_thread(void *arg)
{
	int v;

	(void)arg;
	for (v = 1; v <= nversions; v++) {
		retired[v - 1] = config_publish(v);
		sched_yield();	/* let the reader see this version */
	}
	return NULL;
}

struct reader_stats {
	int seen;	/* distinct versions observed */
	int torn;	/* versions observed half-initialised */
};

static void *reader_thread(void *arg)
{
	struct reader_stats *st = arg;
	int last = 0;

	while (last < nversions) {
		struct config *p = READ_ONCE(gcfg);
		char name[sizeof(p->name)];
		char expect[sizeof(p->name)];
		size_t i;
		int a, b;

		if (!p)
			continue;
		a = p->a;
		b = p->b;
		for (i = 0; i < sizeof(name); i++)
			name[i] = p->name[i];
		if (a == last)
			continue;
		snprintf(expect, sizeof(expect), "cfg-%d", a);
		if (a < 1 || a > nversions || b != a * 10 ||
		    strncmp(name, expect, sizeof(name)) != 0)
			st->torn++;
		st->seen++;
		if (a > last)
			last = a;
	}
	return NULL;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "pointer-publish: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct reader_stats st = { 0, 0 };
	pthread_t writer, reader;
	int v;

	nversions = argc > 1 ? atoi(argv[1]) : 2000;
	retired = calloc(nversions > 0 ? nversions : 1, sizeof(*retired));
	if (!retired) {
		perror("pointer-publish: calloc");
		return 1;
	}
	check(pthread_create(&reader, NULL, reader_thread, &st), "pthread_create");
	check(pthread_create(&writer, NULL, writer_thread, NULL), "pthread_create");
	check(pthread_join(writer, NULL), "pthread_join");
	check(pthread_join(reader, NULL), "pthread_join");
	printf("pointer-publish: %d configs published, reader saw %d of them, %d half-initialised\n",
	       nversions, st.seen, st.torn);
	for (v = 0; v < nversions; v++)
		free(retired[v]);
	free(retired);
	return 0;
}
