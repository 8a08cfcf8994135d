/*
 * focus_db.c — the static pass's sites for focus: from the list `kcsan-scan
 * run` wrote for the run ($KCSAN_FOCUS_SITES), else from $KCSAN_DB itself.
 *
 * db/focus_sites.c owns the query (which sites, and why) and the list's
 * format.  The list is what makes a process's start cheap: the query costs
 * 15-40 ms on a large tree's database, through a fresh SQLite connection,
 * at the start of every instrumented process of a run; reading the list
 * costs a read() of a few kilobytes, and libsqlite3 is not even loaded.
 * A list that is missing, damaged or made for another database is ignored
 * and the database queried, as for a program started without `run`.
 *
 * The database is opened read-only, with libsqlite3 loaded by dlopen
 * (dynlib.c, as dbwrite.c does: programs run without a database never
 * load it), and closed before returning: no connection survives into a
 * fork()ed child.  Runs once, from kcsan_init(), with the runtime still
 * disabled.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../db/focus_sites.h"
#include "dynlib.h"
#include "focus.h"

static void site_of_row(int kind, const char *what, struct kcsan_focus_site *s)
{
	what = what ? what : "";
	if (kind == KDB_FOCUS_PLAIN) {
		if (!strcmp(what, "read"))
			s->flags = KCSAN_FOCUS_READ;
		else if (!strcmp(what, "write"))
			s->flags = KCSAN_FOCUS_WRITE;
		else
			s->flags = KCSAN_FOCUS_READ | KCSAN_FOCUS_WRITE;
		return;
	}
	if (kind == KDB_FOCUS_MARKED) {
		s->flags = KCSAN_FOCUS_MARKED;
		return;
	}
	s->flags = KCSAN_FOCUS_BARRIER;
	if (!strcmp(what, "full"))
		s->barrier = KCSAN_BARRIER_MB;
	else if (!strcmp(what, "wmb"))
		s->barrier = KCSAN_BARRIER_WMB;
	else if (!strcmp(what, "rmb"))
		s->barrier = KCSAN_BARRIER_RMB;
	else
		s->barrier = KCSAN_BARRIER_RELEASE;
}

/* The sites being collected: file names in one growing block, each site
 * holding its name's offset until the block no longer moves. */
struct collect {
	struct kcsan_focus_sites *out;
	size_t cap, scap, slen;
	size_t *offs;
};

static int add_site(void *arg, int kind, const char *file, int line, const char *what)
{
	struct collect *c = arg;
	struct kcsan_focus_sites *out = c->out;
	struct kcsan_focus_site s = { .line = line };
	size_t fl = strlen(file) + 1;

	site_of_row(kind, what, &s);
	if (out->n == c->cap) {
		void *nv = realloc(out->v, (c->cap ? 2 * c->cap : 64) * sizeof(*out->v));
		void *no;

		if (!nv)
			return 1;
		out->v = nv;
		if (!(no = realloc(c->offs, (c->cap ? 2 * c->cap : 64) * sizeof(*c->offs))))
			return 1;
		c->offs = no;
		c->cap = c->cap ? 2 * c->cap : 64;
	}
	if (c->slen + fl > c->scap) {
		size_t ncap = c->scap;
		char *ns;

		while (c->slen + fl > ncap)
			ncap = ncap ? 2 * ncap : 4096;
		if (!(ns = realloc(out->strings, ncap)))
			return 1;
		out->strings = ns;
		c->scap = ncap;
	}
	memcpy(out->strings + c->slen, file, fl);
	c->offs[out->n] = c->slen;
	c->slen += fl;
	out->v[out->n++] = s;
	return 0;
}

/* The whole of the file at path in a malloc'ed block (*len bytes), or NULL. */
static char *read_all(const char *path, size_t *len)
{
	struct stat sb;
	char *buf = NULL;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) == 0 && sb.st_size > 0 && (buf = malloc((size_t)sb.st_size))) {
		while (got < (size_t)sb.st_size) {
			ssize_t r = read(fd, buf + got, (size_t)sb.st_size - got);

			if (r <= 0)
				break;
			got += (size_t)r;
		}
		if (got < (size_t)sb.st_size) {
			free(buf);
			buf = NULL;
		}
	}
	close(fd);
	*len = got;
	return buf;
}

/* The run's list at list_path, made for the database db_path: 0 with the
 * sites collected, or -1 (nothing collected) when it cannot be used. */
static int read_list(const char *list_path, const char *db_path, struct collect *c)
{
	size_t len;
	char *buf = read_all(list_path, &len);
	int r;

	if (!buf)
		return -1;
	r = kdb_focus_sites_parse(buf, len, db_path, add_site, c);
	free(buf);
	return r ? -1 : 0;
}

static int read_db(const char *path, struct collect *c, char *why, size_t whylen)
{
	sqlite3 *db = NULL;
	int rc = -1, r;

	if (kcsan_load_sqlite(why, whylen))
		return -1;
	if (kcsan_sq.open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(why, whylen, "cannot open %s: %s", path, db ? kcsan_sq.errmsg(db) : "?");
		goto out;
	}
	kcsan_sq.busy_timeout(db, 5000);
	r = kdb_focus_sites_query(&kcsan_sq, db, add_site, c);
	if (r < 0)
		snprintf(why, whylen, "%s: %s", path, kcsan_sq.errmsg(db));
	else if (r)
		snprintf(why, whylen, "out of memory");
	else
		rc = 0;
out:
	if (db)
		kcsan_sq.close(db);
	return rc;
}

int kcsan_focus_read_db(const char *path, const char *list, struct kcsan_focus_sites *out,
			int *from_list, char *why, size_t whylen)
{
	struct collect c = { .out = out };
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	*from_list = 0;
	if (list && *list && read_list(list, path, &c) == 0) {
		*from_list = 1;
		rc = 0;
	} else {
		/* Whatever a failed list left behind. */
		kcsan_focus_free_sites(out);
		free(c.offs);
		c = (struct collect){ .out = out };
		rc = read_db(path, &c, why, whylen);
	}
	if (rc == 0)	/* The block no longer moves: point the sites at their names. */
		for (i = 0; i < out->n; i++)
			out->v[i].file = out->strings + c.offs[i];
	free(c.offs);
	if (rc)
		kcsan_focus_free_sites(out);
	return rc;
}

void kcsan_focus_free_sites(struct kcsan_focus_sites *s)
{
	free(s->v);
	free(s->strings);
	memset(s, 0, sizeof(*s));
}
