/* analyzer/driver/scan_workers.c — parsing translation units in worker processes
 * (see scan_workers.h).
 *
 * Why processes.  A file can crash libclang itself (clang's recursive
 * parser overflows its stack on 20,000 nested brackets or a 10,000-long
 * else-if chain; `clang -fsyntax-only` crashes on them too), and nothing
 * in-process recovers reliably from a SIGSEGV in someone else's library.
 * So each worker is a process: when one dies, the parent knows which TU it
 * held (it hands out one TU at a time), records that TU as failed with a
 * one-line reason, starts a new worker, and the scan goes on.
 *
 * Cost.  One fork per worker, not per TU: a worker takes TU after TU over
 * a pipe (4 bytes each way and the diagnostics) until the parent closes
 * it, so a tree of small files costs -j forks, not one per file.  Each
 * worker writes its TUs' facts to the database itself, one transaction
 * per TU (BEGIN IMMEDIATE, so two workers storing at once take turns
 * through SQLite's busy timeout): no facts are serialised between
 * processes, and a worker that dies inside a transaction leaves nothing
 * behind, SQLite rolling the transaction back.  The content-hash cache is
 * per worker (a header read by TUs of two workers is hashed twice), and so
 * is the knowledge of which header functions are stored (header_copies.h).
 *
 * Defence in depth.  Our own walks over the AST recurse once per level of
 * the code's nesting; they give up past MAX_NESTING levels (extract_int.h)
 * and the TU fails cleanly.  The worker runs them on a thread whose stack
 * (WALK_STACK) is far larger than MAX_NESTING levels need, and libclang
 * queries on deep trees (the extent of a 12,000-term sum recurses through
 * every term) get the same room.  libclang parses on a thread of its own.
 *
 * The parent holds no database connection while workers run (SQLite
 * connections must not cross fork()); it opens one afterwards to record
 * the TUs whose worker died. */
#define _GNU_SOURCE    /* pipe2 */
#include "scan_workers.h"
#include "db.h"
#include "analyzer/frontend/extract.h"
#include "hashcache.h"
#include "header_copies.h"
#include "db/facts.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The walk thread's stack: address space, touched only as deep as a walk
 * goes.  MAX_NESTING levels take a few tens of megabytes at most. */
#define WALK_STACK ((size_t)512 << 20)

enum outcome { TU_PARSED, TU_FAILED };

/* What a worker sends back for each TU, followed by DLEN bytes of
 * diagnostics and SLEN bytes of a storing error. */
struct reply {
	int job;
	int outcome;
	int own_reason;
	unsigned dlen, slen;
};

struct worker {
	pid_t pid;          /* 0: not running */
	int to, from;       /* job numbers out, replies in */
	int job;            /* the TU it is working on, -1 when idle */
};

struct worker_args {
	struct scan_job *jobs;
	const char *db_path;
	const struct vocab *vocab;
	long long scan_id;
	int in, out;
};

/* Reads exactly N bytes; 0 at a clean end of file, -1 on a short read or
 * an error (a worker that died mid-reply). */
static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got == 0 && r == 0 ? 0 : -1;
		got += (size_t)r;
	}
	return 1;
}

static int write_full(int fd, const void *buf, size_t n)
{
	size_t put = 0;

	while (put < n) {
		ssize_t w = write(fd, (const char *)buf + put, n - put);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		put += (size_t)w;
	}
	return 0;
}

/* ---- the worker ---- */

static void *worker_loop(void *arg)
{
	struct worker_args *w = arg;
	char dberr[1024] = "";
	sqlite3 *db = kdb_open(w->db_path, KDB_CREATE, dberr, sizeof dberr);
	struct hash_cache *hashes = hash_cache_new();
	/* (without a database nothing is stored, so nothing is skipped) */
	struct copies_known *known = db ? copies_known_new(db) : NULL;
	struct header_copies oracle = copies_known_oracle(known);
	int idx;

	/* A TU's events go into three indexes at random places: with SQLite's
	 * default 2 MB page cache a whole-tree scan (a 150 MB database) read
	 * most index pages back from the file for each TU.  And every 1,000
	 * pages of log SQLite copied the log into the database (the same
	 * index pages again, and an fdatasync).  Both are a worker's own
	 * connection's settings; the log is still copied when it is closed. */
	if (db)
		sqlite3_exec(db, "PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 10000", NULL, NULL, NULL);

	while (read_full(w->in, &idx, sizeof idx) == 1) {
		struct scan_job *j = &w->jobs[idx];
		struct tu_facts facts = { 0 };
		struct tu_record rec = { j->spec->path, j->spec->directory, j->args_json, j->flags_hash, w->scan_id };
		struct reply r = { idx, TU_PARSED, 0, 0, 0 };
		char err[1024] = "";
		const char *serr = "";

		extract_tu(j->spec->path, j->spec->directory, j->args, j->nargs, w->vocab,
			   known && !j->store_all ? &oracle : NULL, &facts);
		facts.hashes = xcalloc((size_t)facts.ndeps + 1, sizeof *facts.hashes);
		for (int i = -1; i < facts.ndeps; i++)
			hash_cache_file(hashes, i < 0 ? j->spec->path : facts.deps[i], facts.hashes[i + 1]);
		if (!db)
			serr = dberr;
		else if (store_tu(db, &rec, &facts, err, sizeof err) < 0)
			serr = err;
		if (facts.diagnostics) {
			r.outcome = TU_FAILED;
			r.own_reason = facts.own_reason;
			r.dlen = (unsigned)strlen(facts.diagnostics);
		}
		r.slen = (unsigned)strlen(serr);
		if (write_full(w->out, &r, sizeof r) < 0 ||
		    write_full(w->out, facts.diagnostics ? facts.diagnostics : "", r.dlen) < 0 ||
		    write_full(w->out, serr, r.slen) < 0)
			break;
		facts_free(&facts);
	}
	hash_cache_free(hashes);
	copies_known_free(known);
	if (db)
		kdb_close(db);
	return NULL;
}

/* The child side: the walk runs on a thread with a large stack (or, if no
 * such thread can be made, on this one: the nesting limit still holds). */
static void worker_main(struct worker_args *w)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	if (pthread_attr_setstacksize(&attr, WALK_STACK) != 0 ||
	    pthread_create(&t, &attr, worker_loop, w) != 0)
		worker_loop(w);
	else
		pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
	/* _exit: the parent's atexit handlers and stdio buffers are its own. */
	_exit(0);
}

/* ---- the parent ---- */

struct pool {
	struct worker *ws;
	int nw;
	struct worker_args args;
	char **crashed;      /* per job: why its worker died, or NULL */
};

/* Starts worker I.  Returns -1 (with a message) when no process can be made. */
static int spawn(struct pool *p, int i)
{
	int to[2], from[2];
	pid_t pid;

	if (pipe2(to, O_CLOEXEC) < 0)
		goto fail;
	if (pipe2(from, O_CLOEXEC) < 0) {
		close(to[0]);
		close(to[1]);
		goto fail;
	}
	fflush(NULL);    /* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		goto fail;
	}
	if (pid == 0) {
		/* The other workers' pipes are not ours: holding their write
		 * ends would hide the end of file that tells the parent a
		 * worker died. */
		for (int k = 0; k < p->nw; k++)
			if (k != i && p->ws[k].pid > 0) {
				close(p->ws[k].to);
				close(p->ws[k].from);
			}
		close(to[1]);
		close(from[0]);
		p->args.in = to[0];
		p->args.out = from[1];
		worker_main(&p->args);
	}
	close(to[0]);
	close(from[1]);
	p->ws[i].pid = pid;
	p->ws[i].to = to[1];
	p->ws[i].from = from[0];
	p->ws[i].job = -1;
	return 0;
fail:
	fprintf(stderr, "kcsan-scan: cannot start a worker process: %s\n", strerror(errno));
	return -1;
}

/* Waits for dead worker I; returns why it died, as a phrase. */
static char *reap(struct pool *p, int i)
{
	int status = 0;
	char *why;

	close(p->ws[i].to);
	close(p->ws[i].from);
	while (waitpid(p->ws[i].pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		why = xasprintf("the parser crashed (signal %d, %s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		why = xasprintf("the parser stopped (exit status %d)", WEXITSTATUS(status));
	p->ws[i].pid = 0;
	p->ws[i].job = -1;
	return why;
}

static void print_reply(const struct scan_job *j, const struct reply *r, const char *diag, const char *serr,
			struct scan_counts *c)
{
	if (r->outcome == TU_FAILED && r->own_reason) {
		/* One line of ours: it names the file already. */
		fprintf(stderr, "kcsan-scan: %.*s; skipped\n", (int)strcspn(diag, "\n"), diag);
		c->failed++;
	} else if (r->outcome == TU_FAILED) {
		fprintf(stderr, "kcsan-scan: %s: does not parse; skipped:\n%s", j->spec->path, diag);
		c->failed++;
	} else {
		c->parsed++;
	}
	if (r->slen) {
		fprintf(stderr, "kcsan-scan: %s: %s\n", j->spec->path, serr);
		c->store_errors++;
	}
}

/* Reads worker I's reply.  Returns 1 for a reply, 0 when the worker died
 * (reaped; a job it held is recorded as crashed). */
static int take_reply(struct pool *p, int i, struct scan_counts *c)
{
	struct reply r;
	char *diag = NULL, *serr = NULL;
	int job = p->ws[i].job, ok;

	ok = read_full(p->ws[i].from, &r, sizeof r) == 1 && r.job == job && job >= 0;
	if (ok) {
		diag = xmalloc((size_t)r.dlen + 1);
		serr = xmalloc((size_t)r.slen + 1);
		ok = (r.dlen == 0 || read_full(p->ws[i].from, diag, r.dlen) == 1) &&
		     (r.slen == 0 || read_full(p->ws[i].from, serr, r.slen) == 1);
		diag[ok ? r.dlen : 0] = '\0';
		serr[ok ? r.slen : 0] = '\0';
	}
	if (ok) {
		print_reply(&p->args.jobs[job], &r, diag, serr, c);
		p->ws[i].job = -1;
	} else {
		char *why = reap(p, i);

		if (job >= 0) {
			fprintf(stderr, "kcsan-scan: %s: %s; skipped\n", p->args.jobs[job].spec->path, why);
			p->crashed[job] = why;
			c->failed++;
		} else {
			free(why);
		}
	}
	free(diag);
	free(serr);
	return ok;
}

/* The TUs whose worker died, stored as failed so that the next scan tries
 * them again and the report can say why. */
static void store_crashed(struct pool *p, int njobs, const char *db_path, long long scan_id,
			  struct scan_counts *c)
{
	char err[1024];
	sqlite3 *db = NULL;

	for (int k = 0; k < njobs; k++) {
		struct scan_job *j = &p->args.jobs[k];
		struct tu_record rec = { j->spec->path, j->spec->directory, j->args_json, j->flags_hash, scan_id };
		struct tu_facts facts = { 0 };

		if (!p->crashed[k])
			continue;
		if (!db && !(db = kdb_open(db_path, KDB_CREATE, err, sizeof err))) {
			fprintf(stderr, "kcsan-scan: %s\n", err);
			c->store_errors++;
			return;
		}
		facts.diagnostics = xasprintf("%s: %s\n", j->spec->path, p->crashed[k]);
		facts.own_reason = 1;
		if (store_tu(db, &rec, &facts, err, sizeof err) < 0) {
			fprintf(stderr, "kcsan-scan: %s: %s\n", j->spec->path, err);
			c->store_errors++;
		}
		facts_free(&facts);
	}
	if (db)
		kdb_close(db);
}

void scan_workers_run(struct scan_job *jobs, int njobs, int nworkers, const char *db_path,
		      const struct vocab *vocab, long long scan_id, struct scan_counts *counts)
{
	struct pool p = { 0 };
	struct pollfd *fds;
	struct sigaction ign = { 0 }, old_pipe;
	int next = 0, done = 0, live = 0;

	memset(counts, 0, sizeof *counts);
	if (njobs == 0)
		return;
	if (nworkers > njobs)
		nworkers = njobs;
	if (nworkers < 1)
		nworkers = 1;
	p.nw = nworkers;
	p.ws = xcalloc(nworkers, sizeof *p.ws);
	p.crashed = xcalloc(njobs, sizeof *p.crashed);
	p.args = (struct worker_args){ jobs, db_path, vocab, scan_id, -1, -1 };
	fds = xcalloc(nworkers, sizeof *fds);
	/* A write to a worker that just died fails with EPIPE instead of
	 * killing the scan. */
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old_pipe);

	for (int i = 0; i < nworkers; i++)
		if (spawn(&p, i) == 0)
			live++;
	while (done < njobs && live > 0) {
		int nfds = 0;

		/* Hand a TU to every idle worker. */
		for (int i = 0; i < nworkers && next < njobs; i++) {
			if (p.ws[i].pid <= 0 || p.ws[i].job >= 0)
				continue;
			if (write_full(p.ws[i].to, &next, sizeof next) == 0) {
				p.ws[i].job = next++;
			} else {
				free(reap(&p, i));     /* died idle: a new one */
				if (spawn(&p, i) < 0)
					live--;
				else
					i--;
			}
		}
		for (int i = 0; i < nworkers; i++)
			if (p.ws[i].pid > 0 && p.ws[i].job >= 0) {
				fds[nfds].fd = p.ws[i].from;
				fds[nfds].events = POLLIN;
				fds[nfds].revents = 0;
				nfds++;
			}
		if (nfds == 0)
			break;
		if (poll(fds, nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "kcsan-scan: poll: %s\n", strerror(errno));
			break;
		}
		for (int f = 0; f < nfds; f++) {
			int i;

			if (!fds[f].revents)
				continue;
			for (i = 0; i < nworkers && !(p.ws[i].pid > 0 && p.ws[i].from == fds[f].fd); i++)
				;
			if (i == nworkers)
				continue;
			done++;
			if (!take_reply(&p, i, counts) && next < njobs && spawn(&p, i) < 0)
				live--;
			else if (p.ws[i].pid <= 0)
				live--;
		}
	}
	/* TUs no worker could take (no process could be started). */
	for (; next < njobs; next++) {
		fprintf(stderr, "kcsan-scan: %s: not parsed: no worker process\n", jobs[next].spec->path);
		counts->store_errors++;
	}
	for (int i = 0; i < nworkers; i++)
		if (p.ws[i].pid > 0) {
			close(p.ws[i].to);       /* end of file: the worker exits */
			close(p.ws[i].from);
			while (waitpid(p.ws[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	sigaction(SIGPIPE, &old_pipe, NULL);
	store_crashed(&p, njobs, db_path, scan_id, counts);
	for (int k = 0; k < njobs; k++)
		free(p.crashed[k]);
	free(p.crashed);
	free(p.ws);
	free(fds);
}
