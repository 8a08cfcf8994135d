/* tests/unit/test_internals.c — the analysis' internals on facts built by
 * hand, without libclang: the sorted event sets (analysis/sets.c), the
 * post-dominators behind the guards (analysis/guards.c), and the solver
 * over recursive calls and strongly connected components
 * (analysis/solver.c), each checked both ways. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analysis/dataflow.h"
#include "analyzer/analysis/guards.h"
#include "analyzer/analysis/sets.h"
#include "analyzer/model/facts.h"

/* ---- sets ---- */

Test(sets, events_stay_sorted_by_gid_and_unique)
{
	struct event ev[6];
	struct evset a = { 0 }, b = { 0 };
	int order[] = { 4, 1, 5, 0, 3 };

	memset(ev, 0, sizeof ev);
	for (int i = 0; i < 6; i++)
		ev[i].gid = 10 * i;
	for (int i = 0; i < 5; i++)
		cr_assert_eq(es_add(&a, &ev[order[i]]), 1);
	cr_assert_eq(es_add(&a, &ev[3]), 0, "an event is in a set once");
	cr_assert_eq(a.n, 5);
	for (int i = 1; i < a.n; i++)
		cr_assert_lt(a.v[i - 1]->gid, a.v[i]->gid, "sorted by gid");
	cr_assert(es_has(&a, &ev[4]) && !es_has(&a, &ev[2]));
	es_add(&b, &ev[2]);
	es_add(&b, &ev[4]);
	cr_assert_eq(es_union(&b, &a), 1, "b grew");
	cr_assert_eq(b.n, 6);
	cr_assert_eq(es_union(&b, &a), 0, "nothing new the second time");
	cr_assert(!es_same(&a, &b));
	es_copy(&a, &b);
	cr_assert(es_same(&a, &b));
	es_remove_at(&a, 0);
	cr_assert(!es_has(&a, &ev[0]) && a.n == 5);
	free(a.v);
	free(b.v);
}

Test(sets, exposed_orderings_are_what_every_path_has)
{
	struct event e = { 0 };
	struct xset x = { 0 }, y = { 0 };

	e.gid = 7;
	xs_add(&x, &e, 0x3);
	xs_add(&x, &e, 0x6);
	cr_assert_eq(x.n, 1);
	cr_assert_eq(x.v[0].killed_before, 0x2, "the intersection of the paths' orderings");
	xs_add(&y, &e, 0x2);
	cr_assert(xs_same(&x, &y));
	xs_add(&y, &e, 0x0);
	cr_assert(!xs_same(&x, &y));
	free(x.v);
	free(y.v);
}

Test(sets, a_lock_is_released_however_it_was_taken)
{
	struct strset s = { 0 };
	char held[] = "c:@m", shared[] = "shared:c:@m", other[] = "c:@n";

	ss_add(&s, held);
	ss_add(&s, shared);
	ss_add(&s, other);
	cr_assert(ss_has(&s, "c:@m") && ss_has(&s, "shared:c:@m"));
	ss_remove_lock(&s, "c:@m");
	cr_assert(!ss_has(&s, "c:@m") && !ss_has(&s, "shared:c:@m"), "both modes released");
	cr_assert(ss_has(&s, "c:@n"), "another lock stays held");
	free(s.v);
}

/* ---- facts built by hand ---- */

/* A new function NAME of NBLOCKS blocks, block 0 its entry and the last
 * its exit, in file "t.c". */
static struct function *new_function(struct tu_facts *t, const char *name, int nblocks)
{
	struct function *f = facts_add_function(t);

	f->name = xstrdup(name);
	f->link_key = xstrdup(name);
	f->file = xstrdup("/t.c");
	for (int b = 0; b < nblocks; b++)
		function_add_block(f);
	f->entry = 0;
	f->exit = nblocks - 1;
	return f;
}

/* Appends to block B of F an event; its index is the count of F's events
 * so far (as the loader numbers them). */
static struct event *add_event(struct function *f, int b, enum ev_kind kind, enum acc access, int marked,
			       enum ord ord, const char *object, const char *uses)
{
	int index = 0;
	struct event *e;

	for (int k = 0; k < f->nblocks; k++)
		index += f->blocks[k].nevents;
	e = block_add_event(&f->blocks[b]);
	e->kind = kind;
	e->access = access;
	e->marked = marked;
	e->ord = ord;
	e->object = object ? xstrdup(object) : NULL;
	e->uses = uses ? xstrdup(uses) : NULL;
	e->file = xstrdup("/t.c");
	e->line = 10 + index;
	e->col = 1;
	e->index = index;
	e->func = f->name;
	event_parse_items(e);
	return e;
}

static struct event *add_call(struct function *f, int b, const char *callee)
{
	struct event *e = add_event(f, b, EV_CALL, ACC_NONE, 0, ORD_NONE, NULL, NULL);

	e->target = xstrdup(callee);
	e->name = xstrdup(callee);
	return e;
}

/* ---- post-dominators and guards ---- */

/* The test's values: the event indexes its "@N" items name. */
static int event_items(void *ctx, const struct event *test, int **out, int *cap)
{
	int n = 0;

	(void)ctx;
	for (int k = 0; k < test->deps.n; k++)
		if (test->deps.v[k].kind == DEP_EVENT) {
			grow(out, cap, n + 1, sizeof **out);
			(*out)[n++] = test->deps.v[k].n;
		}
	return n;
}

/* A function of NBLOCKS blocks whose block 1 reads the flag (event 0)
 * and sends its value to SINK ("?test" or "?loop"), with the CFG EDGES
 * (NEDGES pairs); its guards into G. */
static void flag_test(struct tu_facts *t, int nblocks, const char *sink, const int (*edges)[2], int nedges,
		      struct guards *g)
{
	struct function *f = new_function(t, "f", nblocks);
	struct event *test;

	add_event(f, 1, EV_ACCESS, ACC_READ, 1, ORD_RELAXED, "c:@flag", NULL);
	test = add_event(f, 1, EV_LOCAL, ACC_NONE, 0, ORD_NONE, NULL, ",@0,");
	test->defines = xstrdup(sink);
	test->sink = value_sink_parse(test->defines);
	for (int i = 0; i < nedges; i++)
		block_add_edge(f, edges[i][0], edges[i][1]);
	guards_compute(f, event_items, NULL, g);
}

/* 0 -> 1 (tests READ_ONCE(flag), event 0) -> 2 | 3 -> 4 -> 5 (exit) */
Test(guards, a_branch_guards_its_arms_not_the_join)
{
	static const int edges[][2] = { { 0, 1 }, { 1, 2 }, { 1, 3 }, { 2, 4 }, { 3, 4 }, { 4, 5 } };
	struct tu_facts t = { 0 };
	struct guards g;

	flag_test(&t, 6, "?test", edges, 6, &g);
	cr_assert_eq(g.ipdom[1], 4, "the arms meet again at block 4");
	cr_assert_eq(g.ipdom[2], 4);
	cr_assert_eq(g.ipdom[4], 5);
	cr_assert(guards_has(&g, 2, 0) && guards_has(&g, 3, 0), "each arm runs on the flag's value");
	cr_assert(!guards_has(&g, 4, 0) && !guards_has(&g, 5, 0), "the join runs whatever it was");
	cr_assert(guards_always_runs(&g, 4) && !guards_always_runs(&g, 2));
	guards_free(&g);
	facts_free(&t);
}

/* 0 -> 1 (loop: while (!READ_ONCE(flag)), event 0) -> 1 | 2 -> 3 (exit):
 * everything after the wait runs on the value it waited for. */
Test(guards, a_wait_loop_guards_what_follows)
{
	static const int edges[][2] = { { 0, 1 }, { 1, 1 }, { 1, 2 }, { 2, 3 } };
	struct tu_facts t = { 0 };
	struct guards g;

	flag_test(&t, 4, "?loop", edges, 4, &g);
	cr_assert(guards_has(&g, 2, 0) && guards_has(&g, 3, 0));
	cr_assert(!guards_has(&g, 0, 0));
	guards_free(&g);
	facts_free(&t);
}

/* ---- the solver: recursion and strongly connected components ---- */

/* publish(): data = 1; a(); with a() and b() calling each other (an SCC;
 * or a() calling only itself) and a() doing WRITE_ONCE(flag, 1), or
 * smp_store_release(&flag, 1) when RELEASE.  The plain write is pending
 * when the flag is written inside the recursion: one writer-side
 * candidate, none with the release. */
static int writers_through_recursion(int mutual, int release)
{
	struct tu_facts t = { 0 };
	struct function *pub = new_function(&t, "publish", 2);
	struct function *a = new_function(&t, "a", 3);
	struct function *b = mutual ? new_function(&t, "b", 2) : NULL;
	struct analysis *an;
	const struct candidate *writers;
	int n = 0, nwriters;

	add_event(pub, 0, EV_ACCESS, ACC_WRITE, 0, ORD_NONE, "c:@data", NULL);
	add_call(pub, 0, "a");
	block_add_edge(pub, 0, 1);
	/* a: block 0 -> 1 (the recursive call) -> 2, and 0 -> 2 */
	add_event(a, 0, EV_ACCESS, ACC_WRITE, 1, release ? ORD_RELEASE : ORD_RELAXED, "c:@flag", NULL);
	add_call(a, 1, mutual ? "b" : "a");
	block_add_edge(a, 0, 1);
	block_add_edge(a, 0, 2);
	block_add_edge(a, 1, 2);
	if (mutual) {
		add_call(b, 0, "a");
		block_add_edge(b, 0, 1);
	}
	an = analyse(t.functions, t.nfunctions);
	writers = analysis_writers(an, &nwriters);
	for (int i = 0; i < nwriters; i++)
		n += strcmp(writers[i].plain->object, "c:@data") == 0 &&
		     strcmp(writers[i].marked->object, "c:@flag") == 0;
	analysis_free(an);
	facts_free(&t);
	return n;
}

Test(solver, self_recursive_callee)
{
	cr_assert_eq(writers_through_recursion(0, 0), 1, "the publication inside a recursive callee");
	cr_assert_eq(writers_through_recursion(0, 1), 0, "its release twin");
}

Test(solver, mutually_recursive_callees)
{
	cr_assert_eq(writers_through_recursion(1, 0), 1, "the publication inside an SCC of two functions");
	cr_assert_eq(writers_through_recursion(1, 1), 0, "its release twin");
}

/* ---- the solver in several threads (analysis/split.c) ---- */

/* A small tree with every kind of fact: put() publishes data through a
 * relaxed flag and writes under a lock, get() tests the flag, then reads
 * the data and writes the locked object without the lock, helper() and the
 * recursive pair rec_a()/rec_b() are reached through calls. */
static void split_program(struct tu_facts *t)
{
	struct function *put = new_function(t, "put", 3), *get = new_function(t, "get", 3);
	struct function *helper = new_function(t, "helper", 2);
	struct function *rec_a = new_function(t, "rec_a", 3), *rec_b = new_function(t, "rec_b", 2);
	struct event *test;

	add_event(put, 0, EV_ACCESS, ACC_WRITE, 0, ORD_NONE, "c:@data", NULL);
	add_event(put, 0, EV_ACCESS, ACC_WRITE, 1, ORD_RELAXED, "c:@flag", NULL);
	add_call(put, 0, "helper");
	add_event(put, 1, EV_LOCK, ACC_NONE, 0, ORD_NONE, "c:@m", NULL);
	add_event(put, 1, EV_ACCESS, ACC_WRITE, 0, ORD_NONE, "c:@shared", NULL);
	add_event(put, 1, EV_UNLOCK, ACC_NONE, 0, ORD_NONE, "c:@m", NULL);
	block_add_edge(put, 0, 1);
	block_add_edge(put, 1, 2);
	add_event(helper, 0, EV_ACCESS, ACC_WRITE, 0, ORD_NONE, "c:@other", NULL);
	add_event(helper, 0, EV_ACCESS, ACC_RMW, 1, ORD_RELAXED, "c:@count", NULL);
	add_call(helper, 0, "rec_a");
	block_add_edge(helper, 0, 1);
	add_event(rec_a, 0, EV_ACCESS, ACC_WRITE, 1, ORD_RELAXED, "c:@flag2", NULL);
	add_call(rec_a, 1, "rec_b");
	block_add_edge(rec_a, 0, 1);
	block_add_edge(rec_a, 0, 2);
	block_add_edge(rec_a, 1, 2);
	add_event(rec_b, 0, EV_ACCESS, ACC_READ, 0, ORD_NONE, "c:@data2", NULL);
	add_call(rec_b, 0, "rec_a");
	block_add_edge(rec_b, 0, 1);
	add_event(get, 0, EV_ACCESS, ACC_READ, 1, ORD_RELAXED, "c:@flag", NULL);
	test = add_event(get, 0, EV_LOCAL, ACC_NONE, 0, ORD_NONE, NULL, ",@0,");
	test->defines = xstrdup("?test");
	test->sink = value_sink_parse(test->defines);
	add_event(get, 1, EV_ACCESS, ACC_READ, 0, ORD_NONE, "c:@data", NULL);
	add_event(get, 1, EV_ACCESS, ACC_WRITE, 0, ORD_NONE, "c:@shared", NULL);
	add_event(get, 1, EV_ACCESS, ACC_READ, 0, ORD_NONE, "c:@data2", NULL);
	block_add_edge(get, 0, 1);
	block_add_edge(get, 0, 2);
	block_add_edge(get, 1, 2);
}

static void describe_event(char **s, const struct event *e)
{
	char *more = e ? xasprintf("%s %d %s|", *s, e->gid, e->object ? e->object : "-") : xasprintf("%s -|", *s);

	free(*s);
	*s = more;
}

/* Everything the analysis hands to pairing, in its order, as text; *KINDS
 * counts the kinds that have something. */
static char *describe_analysis(const struct analysis *an, int *kinds)
{
	char *s = xstrdup(""), *more;
	int n;
	const struct candidate *c;
	const struct link *l;
	const struct relay *r;
	const struct lock_record *rec;

	*kinds = 0;
	for (int side = 0; side < 2; side++) {
		c = side ? analysis_readers(an, &n) : analysis_writers(an, &n);
		*kinds += n > 0;
		for (int i = 0; i < n; i++) {
			describe_event(&s, c[i].plain);
			describe_event(&s, c[i].marked);
			more = xasprintf("%s%s\n", s, c[i].fn->name);
			free(s);
			s = more;
		}
	}
	for (int kind = LINK_PRODUCER; kind <= LINK_LATE; kind++) {
		l = analysis_links(an, kind, &n);
		*kinds += n > 0;
		for (int i = 0; i < n; i++) {
			describe_event(&s, l[i].plain);
			describe_event(&s, l[i].marked);
			describe_event(&s, l[i].fence);
			more = xasprintf("%s%s %d %u\n", s, l[i].fn->name, l[i].ordered, l[i].how);
			free(s);
			s = more;
		}
	}
	r = analysis_relays(an, &n);
	for (int i = 0; i < n; i++) {
		more = xasprintf("%srelay %s %s %s %d\n", s, r[i].from, r[i].to, r[i].fn->name, r[i].same_pair);
		free(s);
		s = more;
	}
	rec = analysis_records(an, &n);
	*kinds += n > 0;
	for (int i = 0; i < n; i++) {
		describe_event(&s, rec[i].e);
		more = xasprintf("%s%s %d:", s, rec[i].fn->name, rec[i].complete);
		free(s);
		s = more;
		for (int k = 0; k < rec[i].nlocks; k++) {
			more = xasprintf("%s %s", s, rec[i].locks[k]);
			free(s);
			s = more;
		}
		more = xasprintf("%s\n", s);
		free(s);
		s = more;
	}
	return s;
}

static char *analyse_split_program(int threads, int *kinds)
{
	struct tu_facts t = { 0 };
	struct analysis *an;
	char *text;

	split_program(&t);
	an = analyse_threads(t.functions, t.nfunctions, threads);
	text = describe_analysis(an, kinds);
	analysis_free(an);
	facts_free(&t);
	return text;
}

/* The leader records some kinds of facts and the followers the others,
 * each kind in the order of the one-thread run: the result must be the
 * same, element for element, whatever the number of threads. */
Test(split, the_same_facts_in_any_number_of_threads)
{
	int kinds, kinds_n;
	char *one = analyse_split_program(1, &kinds);

	cr_assert_geq(kinds, 5, "the program should give writers, readers, links and lock records:\n%s", one);
	for (int threads = 2; threads <= 4; threads++) {
		char *many = analyse_split_program(threads, &kinds_n);

		cr_assert_str_eq(many, one, "%d threads", threads);
		free(many);
	}
	free(one);
}
