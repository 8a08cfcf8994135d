/* analyzer/findings/seqlock.h — sequence locks (issue 12, shape 2): the
 * read sections and the updates of a sequence, and what each lacks
 * (seqlock.c). */
#ifndef KCSAN_SEQLOCK_H
#define KCSAN_SEQLOCK_H

#include "analyzer/analysis/dataflow.h"

/* One end of a section or an update in FN: AT, an event of FN's own, is
 * the access of the sequence itself, or a call of a function that makes
 * it for FN (read_seqbegin(), write_seqlock()); ACCESS is the access
 * (AT's callee's, for a call).  ORDERED: the callee orders the access
 * towards FN's side of it by itself (a barrier after the read of
 * read_seqbegin() on every path out of it, one before the read of
 * read_seqretry() on every path to it, and likewise for the bumps). */
struct seq_end {
	const struct event *at, *access;
	int ordered;
};

/* A read section: FN reads the sequence (BEGIN, a marked read), reads the
 * data, then reads the sequence again (CHECK) and compares it with what
 * BEGIN read, to retry. */
struct seq_section {
	const struct function *fn;
	struct seq_end begin, check;
};

/* An update: FN bumps the sequence (OPEN), writes the data, and bumps the
 * sequence again (CLOSE). */
struct seq_update {
	const struct function *fn;
	struct seq_end open, close;
};

/* The sections and updates of the tree's sequences.  An object is a
 * sequence when some update writes data that some section reads. */
struct seqlocks {
	struct seq_section *sec;
	int nsec, seccap;
	struct seq_update *upd;
	int nupd, updcap;
};

/* What a sequence lock lacks, at one access. */
enum seq_fault {
	SEQ_READ_BEFORE_BEGIN,  /* a data read not ordered after BEGIN */
	SEQ_READ_AFTER_CHECK,   /* a data read not ordered before CHECK */
	SEQ_WRITE_BEFORE_OPEN,  /* a data write not ordered after OPEN */
	SEQ_WRITE_AFTER_CLOSE,  /* a data write not ordered before CLOSE */
	SEQ_PLAIN_SEQUENCE,     /* OPEN or CLOSE is a plain write */
	SEQ_PLAIN_DATA,         /* every order in place, but a data access
				   is plain: the retry throws a torn value
				   away, yet the two accesses race */
};

/* FAULT at SITE (the data access, or the plain write of the sequence), in
 * the section SEC or the update UPD it belongs to; the other side is the
 * other of the two and OTHER its access of the same data (for
 * SEQ_PLAIN_SEQUENCE, the section's BEGIN access).  SEQ_PLAIN_DATA is reported at
 * the reader's read when it is plain, else at the writer's write. */
struct seq_fault_site {
	enum seq_fault fault;
	const struct seq_section *sec;
	const struct seq_update *upd;
	const struct event *site, *other;
};

/* Finds the tree's sequences into *S (zeroed first; seqlocks_free). */
void seqlocks_find(const struct analysis *a, struct seqlocks *s);
void seqlocks_free(struct seqlocks *s);

/* Is E, an event of FN's own, inside a read section or an update of the
 * sequence FLAG_OID?  Such a pairing is the sequence lock rule's. */
int seqlock_owns(const struct seqlocks *s, const struct function *fn, const struct event *e, int flag_oid);

/* The faults of S, one per access site, in functions that run together;
 * their count, *OUT to be freed (seqfaults.c). */
int seqlock_faults(const struct analysis *a, const struct seqlocks *s, struct seq_fault_site **out);

/* Calls FN(W, R, CTX) for each data write W of update U and data read R
 * of section C of the same object (other than the sequence), each inside
 * its own side; with FN NULL, stops at the first.  The count of pairs
 * met. */
int seq_shared_data(const struct seq_update *u, const struct seq_section *c,
		    void (*fn)(const struct event *w, const struct event *r, void *ctx), void *ctx);

#endif
