/* analyzer/model/facts.h — what the front end extracts from one translation unit
 * and what the analysis reads back: functions as control-flow graphs whose
 * basic blocks hold events (accesses, barriers, calls, locks) in program
 * order.  extract.c fills these from libclang, db/facts.c moves them in and
 * out of the database, analysis/ and findings/ analyse them. */
#ifndef KCSAN_FACTS_H
#define KCSAN_FACTS_H

#include <stddef.h>
#include <stdio.h>

#include "vocab.h"
#include "items.h"

/* The version of what the front end records: a translation unit scanned
 * by an older format is parsed again, not reused (scan.c). */
#define FACTS_FORMAT 35

enum ev_kind { EV_ACCESS, EV_BARRIER, EV_CALL, EV_LOCK, EV_UNLOCK, EV_LOCAL };
enum acc { ACC_NONE, ACC_READ, ACC_WRITE, ACC_RMW };

struct event {
	enum ev_kind kind;
	enum acc access;
	int marked;
	int discarded;     /* its value is not used (an RMW done for effect) */
	enum ord ord;
	char *object;      /* object key (objects.key), NULL if none */
	char *display;     /* how the source spells the object */
	char *name;        /* macro or function it came through */
	char *target;      /* EV_CALL: callee link key, NULL if unknown */
	char *defines;     /* local receiving the value (EV_LOCAL, reads), or
			      a sink ("?test", items.h) */
	/* As the front end writes them and the database keeps them (the
	 * grammar is in items.h); the loader parses them into deps and
	 * argv below, and frees them: the analysis reads only those. */
	char *uses;        /* dependency list: what the address (or, for
			      EV_LOCAL, the value) depends on */
	char *args;        /* argument list: for a call its arguments' object
			      keys, for a primitive the texts (for fixes) */
	char *file;        /* absolute path */
	int line, col;
	/* Parsed by the loader (event_parse_items), not stored: */
	struct dep_list deps;     /* USES, but for CONDS */
	struct dep_list conds;    /* USES' conditions on the function's
				     parameters ("?N=%V", "?N!!null": the
				     branch the event is in) and, for a call,
				     its constant arguments ("#N=%V"): kept
				     apart, read by callview.c alone */
	struct arg_list argv;     /* ARGS */
	struct object_ref obj;    /* OBJECT (kept in step with it) */
	enum value_sink sink;     /* DEFINES */
	int def_local;            /* SINK_LOCAL: the number of the local it
				     defines (function_number_locals), else -1 */
	/* Filled by the analysis, not stored: */
	long long id;      /* events.id */
	int index;         /* position in its function (for '@N' in uses) */
	const char *func;  /* name of its function (set when loaded) */
	int gid;           /* number in the whole tree (set by the analysis) */
	int oid;           /* number of its object, -1 if none (likewise) */
	int param_use;     /* USES names a callee parameter ("$KEY:N"; likewise):
			      asked at every call, so computed once */
	int fresh_init;    /* initialises fresh memory (fresh.h) */
	int fresh_param;   /* 1 + the parameter N whose fresh argument makes
			      this access initialisation, 0 for none (fresh.h) */
	unsigned fresh_args;  /* EV_CALL: bit N set when argument N points
				 into fresh memory (fresh.h) */
	int thread_element;   /* fresh_init because a thread accesses its own
				 element through its argument (threads.c): the
				 element is reachable by name too */
	int thread_private;   /* made through a pointer parameter that every
				 call passes thread-private memory for
				 (privparams.c): no other thread sees it */
	int hands_on_fresh;   /* a marked write or RMW that stores a pointer
				 the front end follows as fresh memory (an
				 allocation's, a wrapper's, a parameter's):
				 it publishes what was initialised (fresh.h) */
	int via_marked_read;  /* a plain access whose address its own
				 function computes from the value of a marked
				 read (transfer.c, address_from_marked_read):
				 worked out when that function's facts are
				 recorded, for its callers' view */
	struct event *orig;   /* the callee's event that this initialising
				 copy stands for in one call (through_call) */
};

struct block {
	struct event *events;
	int nevents, cap;
	int *succ;
	int nsucc, succcap;
};

struct function {
	char *name;
	char *link_key;
	char *file;
	int line, col, end_line;
	struct block *blocks;
	int nblocks, cap;
	int entry, exit;
	long long id;      /* functions.id once stored */
	int nlocals;       /* locals named by its events, numbered from 0
			      (function_number_locals) */
	/* Filled by the loader (db/facts.c), not stored: */
	char *tu;          /* the translation unit it was taken from */
	int per_tu;        /* defined in a harness header (a header that
			      defines main()): one copy per TU, each in the
			      program of its TU */
};

/* A function the TU defines in a header but left to the copy another TU
 * stored (extract.h, struct header_copies). */
struct skipped_function {
	char *link_key;
	char *file;
};

struct tu_facts {
	char *path;                 /* absolute path of the main file */
	struct function *functions;
	int nfunctions, cap;
	struct skipped_function *skipped;
	int nskipped, skipcap;
	char **deps;                /* every file read, absolute */
	int ndeps, depcap;
	/* Content hashes, filled before storing when a scan has them cached
	 * (hashcache.h): [0] the main file, [i + 1] deps[i]; "" unreadable.
	 * NULL: store_tu hashes the files itself. */
	char (*hashes)[17];
	char *diagnostics;          /* errors, NULL if it parsed */
	int own_reason;             /* diagnostics is one line of ours (the file
				       cannot be read, it nests too deep, the
				       parser crashed), not compiler output */
};

/* Allocation helpers that exit on out-of-memory (the analyser cannot do
 * anything sensible without memory). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The whole content of stream F, NUL-terminated, read to EOF (a profile
 * or a source may be a pipe, whose size is unknown and which can be read
 * only once); its length in *LEN when LEN is not NULL.  NULL on a read
 * error. */
char *read_stream(FILE *f, size_t *len);

/* Grows an array of ELEM-sized items held in *ARR with capacity *CAP so that
 * it can take NEED items. */
void grow(void *arr, int *cap, int need, size_t elem);
/* Adds the successors of block B of F that are not SEEN yet to the work
 * list LIST at *N (which grows), marking them seen: the step of every walk
 * over a function's blocks.  SEEN and LIST hold one entry per block. */
void push_successors(const struct function *f, int b, unsigned char *seen, int *list, int *n);

struct function *facts_add_function(struct tu_facts *t);
int function_add_block(struct function *f);
struct event *block_add_event(struct block *b);
void block_add_edge(struct function *f, int from, int to);

/* Frees T's functions and skipped functions, leaving none (a TU that
 * failed half way keeps no facts); facts_free frees all of T. */
void facts_forget_functions(struct tu_facts *t);
void facts_free(struct tu_facts *t);
/* Parses E's uses, args, object and defines into its deps, argv, obj and
 * sink, and frees the texts of uses and args (see struct event). */
void event_parse_items(struct event *e);
/* Numbers the locals F's events name (the locals they define, and their
 * DEP_LOCAL items), so that the analysis indexes them instead of comparing
 * names: sets f->nlocals, each event's def_local and each item's local.
 * After event_parse_items on every event of F. */
void function_number_locals(struct function *f);
void function_free(struct function *f);

/* A person's name for object KEY (a USR: "c:@S@wq@FI@futex" -> "wq.futex"). */
char *readable_object(const char *key);

#endif
