/* tests/unit/test_writers.c — single-writer structures (W6 of
 * docs/history/real-code-reviews.md): a profile line "NAME writer none
 * group=G" says that the callers of NAME run one writer of G at a time
 * (ck_rhs, ck_hs: one writer, readers without locks).  Two writer
 * operations are then never paired with each other; a reader still is.
 * Real scans, through scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"
#include "analyzer/model/vocab.h"

#define LKMM "#include <kcsan/lkmm.h>\n"
/* A set whose writers are set_put() and set_remove(); PUT_MARK and
 * REMOVE_MARK mark their lines, READER is the reader's line. */
#define SET(put_mark, remove_mark, reader) \
	"struct map { unsigned probes; unsigned max; };\n" \
	"struct set { struct map *map; };\n" \
	"void set_put(struct set *s) { struct map *m = READ_ONCE(s->map); m->probes = 3; WRITE_ONCE(m->max, 3); } " put_mark "\n" \
	"void set_remove(struct set *s) { struct map *m = READ_ONCE(s->map); if (READ_ONCE(m->max) > 2) m->probes = 0; } " remove_mark "\n" \
	reader "\n"
#define GET "unsigned set_get(struct set *s) { return READ_ONCE(READ_ONCE(s->map)->max); }"
#define WRITERS "set_put writer none group=set\nset_remove writer none group=set\n"

Test(writers, two_writer_operations_of_one_structure_are_not_paired)
{
	struct src s[] = { { "set.c", LKMM SET("", "", GET) } };

	expect_findings(s, 1, WRITERS);
}

Test(writers, without_the_declaration_the_writers_are_paired)
{
	struct src s[] = { { "set.c", LKMM SET("/*W*/", "", GET) } };

	expect_findings(s, 1, NULL);
}

Test(writers, a_reader_without_the_lock_still_races_with_a_writer)
{
	/* (the reader's plain read is a data race first: the writers hold
	 * "writer:set", the reader nothing; the missing acquire is inside) */
	struct src s[] = { { "set.c", LKMM SET("/*W*/", "",
		"unsigned set_probes(struct set *s) { struct map *m = READ_ONCE(s->map); return READ_ONCE(m->max) ? m->probes : 0; } /*D*/") } };

	expect_findings(s, 1, WRITERS);
}

/* Two groups run at the same time: set_put()'s write is paired with
 * set_remove(), and the two writes race (each holds its own group's lock,
 * which guards no instance): the race is inside set_put()'s finding and
 * is set_remove()'s. */
Test(writers, writers_of_two_groups_are_still_paired)
{
	struct src s[] = { { "set.c", LKMM SET("/*W*/ /*D*/", "/*D*/", GET) } };

	expect_findings(s, 1, "set_put writer none group=a\nset_remove writer none group=b\n");
}

Test(writers, profile_lines)
{
	struct vocab v = { 0 };
	char err[256] = "";
	const struct vocab_entry *e;

	cr_assert_eq(vocab_parse(&v, "put writer none group=set\nremove writer none\n", "t.prof", err, sizeof err), 0, "%s", err);
	vocab_finish(&v, NULL);
	e = vocab_find_contract(&v, "put", NULL, OP_WRITER);
	cr_assert(e && strcmp(e->group, "set") == 0);
	e = vocab_find_contract(&v, "remove", NULL, OP_WRITER);
	cr_assert(e && strcmp(e->group, "writer") == 0, "the default group");
	cr_assert_null(vocab_find(&v, "put", NULL), "a call of a writer operation is no primitive");
	vocab_free(&v);
	cr_assert_eq(vocab_parse(&v, "x read relaxed group=set\n", "t.prof", err, sizeof err), -1);
	cr_assert(strstr(err, "t.prof:1: unknown key 'group'") != NULL, "%s", err);
	vocab_free(&v);
}

/* ---- fork_child: a function that runs only in the child of fork() ---- */

/* A worker publishes data with a plain flag write; child_cleanup() reads
 * the flag and then touches data.  In a fork child no worker exists: the
 * pair races only when child_cleanup() may run next to the worker (WMARK
 * and RMARK: the two findings' markers then, one on each side). */
#define FORK_PROGRAM(register, wmark, rmark) \
	LKMM "#include <pthread.h>\n#include <unistd.h>\n" \
	"int data, flag;\n" \
	"static void *worker(void *a) { data = 1; WRITE_ONCE(flag, 1); return a; } " wmark "\n" \
	"void child_cleanup(void) { if (READ_ONCE(flag))\n data = 2; " rmark "\n }\n" \
	"int main(void) { pthread_t t; " register \
	" pthread_create(&t, 0, worker, 0);\n" \
	"  if (fork() == 0) { child_cleanup(); return 0; }\n" \
	"  pthread_join(t, 0); return 0; }\n"

Test(fork_child, declared_in_the_profile)
{
	struct src s[] = { { "f.c", FORK_PROGRAM("", "", "") } };

	expect_findings(s, 1, "child_cleanup fork_child none\n");
}

Test(fork_child, registered_with_pthread_atfork)
{
	struct src s[] = { { "f.c", FORK_PROGRAM("pthread_atfork(0, 0, child_cleanup);", "", "") } };

	expect_findings(s, 1, NULL);
}

/* The twin: nothing says child_cleanup runs in a child, and a library
 * entry point may run next to the worker. */
Test(fork_child, undeclared_still_reported)
{
	struct src s[] = { { "f.c", FORK_PROGRAM("", "/*W*/", "/*R*/") } };

	expect_findings(s, 1, NULL);
}

/* A handler registered as the parent handler runs in the parent too. */
Test(fork_child, a_parent_handler_is_not_one)
{
	struct src s[] = { { "f.c", FORK_PROGRAM("pthread_atfork(0, child_cleanup, child_cleanup);", "/*W*/", "/*R*/") } };

	expect_findings(s, 1, NULL);
}

/* Profile LINE states contract OP of function NAME, and not OTHER; a call
 * of NAME is no primitive (vocab_find never returns a contract). */
static void expect_contract_line(const char *line, const char *name, enum op op, enum op other)
{
	struct vocab v = { 0 };
	char err[256] = "";

	cr_assert_eq(vocab_parse(&v, line, "t.prof", err, sizeof err), 0, "%s", err);
	vocab_finish(&v, NULL);
	cr_assert_not_null(vocab_find_contract(&v, name, NULL, op));
	cr_assert_null(vocab_find_contract(&v, name, NULL, other));
	cr_assert_null(vocab_find(&v, name, NULL), "a call of %s is no primitive", name);
	vocab_free(&v);
}

Test(fork_child, profile_line)
{
	expect_contract_line("h fork_child none\n", "h", OP_FORK_CHILD, OP_WRITER);
}

/* ---- owner: a parameter that is the calling thread's own record ---- */

/* Each thread registers a record of its own and hands it to every
 * operation (ck_hp, ck_epoch).  rec_free() scans the other records'
 * states, then counts in its own record for each cleared one;
 * rec_unregister() resets the count of its own record, then clears the
 * state.  The two counts are of two records: with the profile's word for
 * it, no pair.  (The scan acts on the value rec_unregister() stores: a
 * scan that acted only on another value would pair with nothing,
 * valuetests.h.) */
#define RECORDS(wmark, rmark) \
	LKMM "struct rec { int n; int state; struct rec *next; };\n" \
	"struct rec *recs;\n" \
	"void rec_unregister(struct rec *r) { r->n = 0; WRITE_ONCE(r->state, 0); } " wmark "\n" \
	"void rec_free(struct rec *r) {\n" \
	"  for (struct rec *p = READ_ONCE(recs); p; p = READ_ONCE(p->next))\n" \
	"    if (READ_ONCE(p->state) == 0)\n" \
	"      r->n++; " rmark "\n" \
	"}\n"
#define OWNERS "rec_unregister owner none obj=0\nrec_free owner none obj=0\n"

Test(owner, records_of_their_callers_do_not_race)
{
	struct src s[] = { { "rec.c", RECORDS("", "") } };

	expect_findings(s, 1, OWNERS);
}

/* Without the profile line, nothing says r is the caller's own. */
Test(owner, undeclared_records_are_paired)
{
	struct src s[] = { { "rec.c", RECORDS("/*W*/", "/*R*/ /*D*/") } };
	const char *text;

	expect_findings(s, 1, NULL);
	text = last_findings_text();
	cr_assert(strstr(text, "r->n") != NULL, "%s", text);
}

/* A scanner that writes the other records' counts, walking the list with
 * plain loads (no dependency orders its write), is not their owner: that
 * pair stays, declared or not. */
Test(owner, a_scanner_writing_through_the_list_is_paired)
{
	struct src s[] = { { "rec.c", LKMM "struct rec { int n; int state; struct rec *next; };\n"
				      "struct rec *recs;\n"
				      "void rec_unregister(struct rec *r) { r->n = 0; /*W*/ WRITE_ONCE(r->state, 0); }\n"
				      "void rec_reset_all(void) {\n"
				      "  for (struct rec *p = recs; p; p = p->next)\n"
				      "    if (READ_ONCE(p->state) == 0)\n"
				      "      p->n = 0; /*R*/\n"
				      "}\n" } };

	expect_findings(s, 1, OWNERS);
}

/* The owner's helpers reach its record's buckets through a local that
 * points into the record (ref = &r->bucket[i], ck_epoch's
 * _ck_epoch_addref): memory the caller owns, as r itself is.  A pointer
 * loaded from the record (ref = r->shared) points elsewhere: shared,
 * paired.  REF: how the helpers get their bucket; RMARK and WMARK the
 * markers in addref and delref. */
#define BUCKETS(ref, rmark, wmark) \
	LKMM "#include <pthread.h>\n" \
	"struct ref { unsigned count; };\n" \
	"struct glob { unsigned epoch; };\n" \
	"struct rec { struct ref bucket[2]; struct ref *shared; struct glob *global; };\n" \
	"struct rec *table[2];\n" \
	"void addref(struct rec *r, int i) {\n" \
	"	struct ref *ref = " ref ";\n" \
	"	if (READ_ONCE(r->global->epoch) & 1)\n" \
	"		ref->count++; " rmark "\n" \
	"}\n" \
	"void delref(struct rec *r, int i) {\n" \
	"	struct ref *cur = " ref ";\n" \
	"	cur->count--; " wmark "\n" \
	"	WRITE_ONCE(r->global->epoch, cur->count); " wmark "\n" \
	"}\n" \
	"static inline void begin(struct rec *r, int i) { addref(r, i); }\n" \
	"static inline void end(struct rec *r, int i) { delref(r, i); }\n" \
	"static void *worker(void *arg) {\n" \
	"	struct rec *me = READ_ONCE(table[(long)arg]);\n" \
	"	for (int k = 0; k < 100; k++) {\n" \
	"		begin(me, k & 1);\n" \
	"		end(me, k & 1);\n" \
	"	}\n" \
	"	return NULL;\n" \
	"}\n" \
	"int main(void) { pthread_t t[2]; pthread_create(&t[0], 0, worker, (void *)0L);\n" \
	"  pthread_create(&t[1], 0, worker, (void *)1L);\n" \
	"  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"
#define BEGIN_END "begin owner none obj=0\nend owner none obj=0\n"

Test(owner, a_pointer_into_the_owned_record_is_the_owners)
{
	struct src s[] = { { "ep.c", BUCKETS("&r->bucket[i]", "", "") } };

	expect_findings(s, 1, BEGIN_END);
}

Test(owner, a_pointer_loaded_from_the_owned_record_is_shared)
{
	struct src s[] = { { "ep.c", BUCKETS("r->shared", "/*R*/ /*W*/", "/*W*/") } };
	const char *text;

	expect_findings(s, 1, BEGIN_END);
	text = last_findings_text();
	cr_assert(strstr(text, "ref->count") != NULL, "%s", text);
}

Test(owner, profile_line_needs_the_parameter)
{
	struct vocab v = { 0 };
	char err[256] = "";

	cr_assert_eq(vocab_parse(&v, "f owner none obj=2\n", "t.prof", err, sizeof err), 0, "%s", err);
	vocab_finish(&v, NULL);
	cr_assert_eq(vocab_find_contract(&v, "f", NULL, OP_OWNER)->obj_arg, 2);
	cr_assert_null(vocab_find(&v, "f", NULL));
	vocab_free(&v);
	cr_assert_eq(vocab_parse(&v, "g owner none\n", "t.prof", err, sizeof err), -1);
	cr_assert(strstr(err, "t.prof:1: 'owner' needs obj=N") != NULL, "%s", err);
	vocab_free(&v);
}

/* ---- locks a callee takes: held at its accesses in every caller ---- */

/* hs_put() and hs_apply() are writer operations (each a writer:hs lock,
 * taken inside the call); main() calls hs_put() through set_insert(), so
 * postinsert()'s n_entries++ is reached holding the lock in main()'s
 * record too, and the two writers' increments are never paired (CK's
 * ck_hs_map_postinsert).  hs_count() reads the count without it: that
 * pair stays.  Twin: hs_put() not declared, main()'s increment holds
 * nothing and races with hs_apply()'s. */
#define HS(wmark) HS_WRAPPED(wmark, "")
#define HS_WRAPPED(wmark, before) LKMM "#include <pthread.h>\n" \
	"struct map { unsigned long n_entries; unsigned long bound; };\n" \
	"struct hs { struct map *map; };\n" \
	"static struct hs table;\n" \
	"static void bound_set(struct map *m, unsigned long n) { if (n > READ_ONCE(m->bound)) WRITE_ONCE(m->bound, n); }\n" \
	"static unsigned long bound_get(struct map *m) { return READ_ONCE(m->bound); }\n" \
	"int hs_grow(struct hs *h) { bound_set(h->map, 1); return 1; }\n" \
	"static void postinsert(struct hs *h, struct map *m) {\n" \
	"	m->n_entries++; " wmark "\n" \
	"	if (m->n_entries > 32) " wmark "\n" \
	"		hs_grow(h);\n" \
	"}\n" \
	"int hs_put(struct hs *h) { struct map *m = h->map; if (bound_get(m) > 64) return 0; postinsert(h, m); return 1; }\n" \
	"int hs_apply(struct hs *h) { struct map *m = h->map; if (bound_get(m) > 64) return 0; postinsert(h, m); return 1; }\n" \
	"unsigned long hs_count(struct hs *h) { return h->map->n_entries; } /*D*/\n" \
	"static unsigned long seed;\n" \
	"static void set_insert(void) { " before " hs_put(&table); }\n" \
	"static void *reader(void *a) { return (void *)bound_get(table.map); }\n" \
	"int main(void) { pthread_t t; pthread_create(&t, 0, reader, 0);\n" \
	"  for (int i = 0; i < 100; i++) set_insert();\n" \
	"  (void)hs_count(&table); pthread_join(t, 0); return 0; }\n"

Test(held, a_lock_the_callee_takes_is_held_in_its_callers_records)
{
	struct src s[] = { { "hs.c", HS("") } };

	expect_findings(s, 1, "hs_put writer none group=hs\nhs_grow writer none group=hs\nhs_apply writer none group=hs\n");
}

/* The lock is the callee's at that access, not at every access the
 * wrapper reaches: set_insert() first hashes its key, unlocked (CK's
 * set_insert() before ck_hs_put()), and the increments are still never
 * paired. */
Test(held, a_wrapper_that_also_works_unlocked_keeps_the_callees_lock)
{
	struct src s[] = { { "hs.c", HS_WRAPPED("", "seed = seed * 31 + 7;") } };

	expect_findings(s, 1, "hs_put writer none group=hs\nhs_grow writer none group=hs\nhs_apply writer none group=hs\n");
}

Test(held, without_the_callees_lock_the_increments_race)
{
	struct src s[] = { { "hs.c", HS("/*W*/ /*R*/") } };

	expect_findings(s, 1, "hs_grow writer none group=hs\nhs_apply writer none group=hs\n");
}

/* ---- exclusive: the caller has the instances to itself for the call ---- */

/* CK's stacks: push_spnc() ("single producer and no concurrent
 * consumers") pushes onto a stack nothing else uses meanwhile; cycle()
 * pushes onto its record's pending stack and takes everything back with
 * an xchg, take() pops some other stack of the same type.  One object per
 * field pairs take()'s read of the popped entry's next with the push's
 * write; declared exclusive, that write races with nothing. */
#define STACKS(rmark) LKMM "#include <stdlib.h>\n" \
	"struct entry { struct entry *next; };\n" \
	"struct stack { struct entry *head; };\n" \
	"static inline void push_spnc(struct stack *t, struct entry *e) { e->next = t->head; t->head = e; }\n" \
	"static inline struct entry *batch_pop_upmc(struct stack *t) { return xchg(&t->head, NULL); }\n" \
	"static inline struct entry *pop_upmc(struct stack *t) {\n" \
	"	struct entry *h, *n;\n" \
	"	do { h = READ_ONCE(t->head); if (!h) return NULL; n = h->next; " rmark "} while (cmpxchg(&t->head, h, n) != h);\n" \
	"	return h;\n" \
	"}\n" \
	"struct rec { struct stack pending; };\n" \
	"void cycle(struct rec *r, struct entry *x) {\n" \
	"	struct entry *all;\n" \
	"	push_spnc(&r->pending, x);\n" \
	"	all = batch_pop_upmc(&r->pending);\n" \
	"	while (all) { struct entry *n = all->next; free(all); all = n; }\n" \
	"}\n" \
	"struct entry *take(struct stack *s) { return pop_upmc(s); }\n"

Test(exclusive, a_push_onto_a_stack_the_caller_has_to_itself_races_with_nothing)
{
	struct src s[] = { { "stack.c", STACKS("") } };

	expect_findings(s, 1, "push_spnc exclusive none obj=0,1\n");
}

Test(exclusive, undeclared_the_push_is_paired_with_the_pop)
{
	struct src s[] = { { "stack.c", STACKS("/*D*/") } };

	expect_findings(s, 1, NULL);
}

Test(exclusive, profile_line_needs_the_parameters)
{
	struct vocab v = { 0 };
	char err[256];

	expect_contract_line("f exclusive none obj=0,1\n", "f", OP_EXCLUSIVE, OP_OWNER);
	cr_assert_eq(vocab_parse(&v, "f exclusive none obj=0,1\n", "t.prof", err, sizeof err), 0, "%s", err);
	vocab_finish(&v, NULL);
	cr_assert_eq(vocab_find_contract(&v, "f", NULL, OP_EXCLUSIVE)->obj_mask, 3u);
	vocab_free(&v);
	cr_assert_eq(vocab_parse(&v, "g exclusive none\n", "t.prof", err, sizeof err), -1);
	cr_assert(strstr(err, "t.prof:1: 'exclusive' needs obj=N") != NULL, "%s", err);
	vocab_free(&v);
	cr_assert_eq(vocab_parse(&v, "h exclusive none obj=0,x\n", "t.prof", err, sizeof err), -1);
	cr_assert(strstr(err, "t.prof:1: obj=0,x: expected") != NULL, "%s", err);
	vocab_free(&v);
}

/* ---- alloc: a function that returns memory its caller owns ---- */

Test(alloc, profile_line)
{
	expect_contract_line("pool_get alloc none\n", "pool_get", OP_ALLOC, OP_OWNER);
}
