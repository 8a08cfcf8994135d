/* tests/unit/test_fresh.c — initialisation of fresh objects
 * (docs/history/real-code-reviews.md, W3): memory fresh from an allocator is private to
 * its thread until its pointer is handed on, so the plain accesses made
 * through it before then race with nothing.  memset/memcpy, pointers into
 * the object stored into itself, allocator wrappers and initialisers that
 * receive the fresh pointer must not end that.  Each correct shape must
 * give nothing and its buggy twin must still be reported.  Real scans,
 * through scan_helper.c. */
#include <criterion/criterion.h>
#include <string.h>

#include "scan_helper.h"

#define HEADERS "#include <kcsan/lkmm.h>\n#include <pthread.h>\n#include <stdlib.h>\n#include <string.h>\n"
/* A list whose nodes are added and walked under one lock. */
#define LIST \
	"struct node { int key; struct node *next; } *head;\n" \
	"static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"void bump(void) {\n" \
	"	pthread_mutex_lock(&lock);\n" \
	"	for (struct node *p = head; p; p = p->next) p->key++;\n" \
	"	pthread_mutex_unlock(&lock);\n" \
	"}\n"
#define INSERT "pthread_mutex_lock(&lock); n->next = head; head = n; pthread_mutex_unlock(&lock);\n"

/* ---- memset, memcpy ---- */

Test(fresh, memset_of_fresh_memory_keeps_it_fresh)
{
	expect_one(HEADERS LIST
		   "void add(int k) {\n"
		   "	struct node *n = malloc(sizeof *n);\n"
		   "	if (!n) abort();\n"
		   "	memset(n, 0, sizeof *n);\n"
		   "	n->key = k;\n"
		   "	" INSERT
		   "}\n");
}

Test(fresh, memcpy_into_fresh_memory_keeps_it_fresh)
{
	expect_one(HEADERS LIST
		   "static const struct node proto;\n"
		   "void add(int k) {\n"
		   "	struct node *n = malloc(sizeof *n);\n"
		   "	if (!n) abort();\n"
		   "	memcpy(n, &proto, sizeof *n);\n"
		   "	n->key = k;\n"
		   "	" INSERT
		   "}\n");
}

Test(fresh, write_after_the_node_is_published_still_races)
{
	expect_one(HEADERS LIST
		   "void add(int k) {\n"
		   "	struct node *n = malloc(sizeof *n);\n"
		   "	if (!n) abort();\n"
		   "	memset(n, 0, sizeof *n);\n"
		   "	" INSERT
		   "	n->key = k; /*D*/\n"
		   "}\n");
}

/* Only the access through the fresh pointer is initialisation, not one
 * whose address merely uses a value read from the fresh object. */
Test(fresh, index_read_from_fresh_memory_does_not_make_a_shared_write_private)
{
	expect_one(HEADERS LIST
		   "int table[8];\n"
		   "void count(void) { pthread_mutex_lock(&lock); table[0]++; pthread_mutex_unlock(&lock); }\n"
		   "void add(int k) {\n"
		   "	struct node *n = malloc(sizeof *n);\n"
		   "	if (!n) abort();\n"
		   "	n->key = k & 7;\n"
		   "	table[n->key] = 1; /*D*/\n"
		   "	" INSERT
		   "}\n");
}

/* ---- a pointer into the fresh object stored into the object itself ---- */

Test(fresh, pointer_into_itself_stored_into_the_fresh_object_keeps_it_fresh)
{
	expect_one(HEADERS LIST
		   "void add(int k) {\n"
		   "	struct node *n = malloc(2 * sizeof *n);\n"
		   "	if (!n) abort();\n"
		   "	n->next = (struct node *)&n[1];\n"
		   "	n->key = k;\n"
		   "	" INSERT
		   "}\n");
}

/* Concurrency Kit's ck_ht_map_create: the entries follow the header,
 * aligned with integer arithmetic on the address. */
Test(fresh, aligned_address_inside_the_fresh_object_keeps_it_fresh)
{
	expect_one(HEADERS "#include <stdint.h>\n"
		   "struct map { unsigned size; char *entries; } *cur;\n"
		   "static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;\n"
		   "void grow(unsigned n) {\n"
		   "	struct map *m = malloc(sizeof *m + n + 63);\n"
		   "	if (!m) abort();\n"
		   "	m->entries = (char *)(((uintptr_t)&m[1] + 63) & ~(uintptr_t)63);\n"
		   "	m->size = n;\n"
		   "	pthread_mutex_lock(&lock); cur = m; pthread_mutex_unlock(&lock);\n"
		   "}\n"
		   "void shrink(void) { pthread_mutex_lock(&lock); cur->size--; pthread_mutex_unlock(&lock); }\n");
}

Test(fresh, write_after_publication_still_races_after_a_store_into_itself)
{
	expect_one(HEADERS LIST
		   "void add(int k) {\n"
		   "	struct node *n = malloc(2 * sizeof *n);\n"
		   "	if (!n) abort();\n"
		   "	n->next = (struct node *)&n[1];\n"
		   "	" INSERT
		   "	n->key = k; /*D*/\n"
		   "}\n");
}

Test(fresh, fresh_pointer_stored_into_another_object_is_handed_on)
{
	expect_one(HEADERS LIST
		   "void add_after(struct node *q, int k) {\n"
		   "	struct node *n = malloc(sizeof *n);\n"
		   "	if (!n) abort();\n"
		   "	q->next = n;\n"
		   "	n->key = k; /*D*/\n"
		   "}\n");
}

/* ---- allocator wrappers ---- */

#define MAP \
	"struct map { unsigned size; char *entries; } *cur;\n" \
	"static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"void shrink(void) { pthread_mutex_lock(&lock); cur->size--; pthread_mutex_unlock(&lock); }\n"
#define MAP_CREATE \
	"static struct map *map_create(unsigned n) {\n" \
	"	struct map *m = malloc(sizeof *m + n);\n" \
	"	if (!m)\n" \
	"		return NULL;\n" \
	"	m->entries = (char *)&m[1];\n" \
	"	return m;\n" \
	"}\n"
#define GROW(call, mark) \
	"void grow(unsigned n) {\n" \
	"	struct map *m = " call ";\n" \
	"	if (!m) return;\n" \
	"	m->size = n; " mark "\n" \
	"	pthread_mutex_lock(&lock); cur = m; pthread_mutex_unlock(&lock);\n" \
	"}\n"

Test(fresh, result_of_an_allocator_wrapper_is_fresh)
{
	/* wrappers of wrappers too (perfbook's existence_alloc_cache) */
	expect_one(HEADERS MAP MAP_CREATE
		   "static struct map *map_create_twice(unsigned n) { return map_create(2 * n); }\n"
		   GROW("map_create_twice(n)", ""));
}

Test(fresh, allocator_wrapper_defined_in_another_file)
{
	struct src s[] = {
		{ "map.h", "#include <pthread.h>\n#include <stdlib.h>\n"
			   "struct map { unsigned size; char *entries; };\n"
			   "struct map *map_new(unsigned n);\n" },
		{ "map.c", "#include \"map.h\"\n"
			   "struct map *map_new(unsigned n) {\n"
			   "	struct map *m = calloc(1, sizeof *m + n);\n"
			   "	if (m == NULL)\n"
			   "		goto fail;\n"
			   "	m->entries = (char *)(m + 1);\n"
			   "	return m;\n"
			   "fail:\n"
			   "	return 0;\n"
			   "}\n" },
		{ "use.c", "#include \"map.h\"\n"
			   "struct map *cur;\n"
			   "static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;\n"
			   "void shrink(void) { pthread_mutex_lock(&lock); cur->size--; pthread_mutex_unlock(&lock); }\n"
			   GROW("map_new(n)", "") },
	};

	expect_findings(s, 3, NULL);
}

Test(fresh, function_that_may_return_a_shared_object_is_no_allocator)
{
	expect_one(HEADERS MAP
		   "static struct map *map_get(unsigned n) {\n"
		   "	struct map *m;\n"
		   "	pthread_mutex_lock(&lock); m = cur; pthread_mutex_unlock(&lock);\n"
		   "	if (m)\n"
		   "		return m;\n"
		   "	return malloc(sizeof(struct map) + n);\n"
		   "}\n"
		   GROW("map_get(n)", "/*D*/"));
}

Test(fresh, function_that_publishes_what_it_allocates_is_no_allocator)
{
	expect_one(HEADERS MAP
		   "struct map *last;\n"
		   "static struct map *map_create(unsigned n) {\n"
		   "	struct map *m = malloc(sizeof *m + n);\n"
		   "	if (!m)\n"
		   "		return NULL;\n"
		   "	WRITE_ONCE(last, m);\n"
		   "	return m;\n"
		   "}\n"
		   GROW("map_create(n)", "/*D*/"));
}

/* ---- initialisers that receive the fresh pointer ---- */

#define MAP_INIT \
	"static void map_init(struct map *m, unsigned n) {\n" \
	"	memset(m, 0, sizeof *m);\n" \
	"	m->size = n; " MARK "\n" \
	"	m->entries = (char *)&m[1];\n" \
	"}\n"

Test(fresh, initialiser_called_with_fresh_memory_initialises_it)
{
#define MARK ""
	expect_one(HEADERS MAP MAP_INIT
		   "void grow(unsigned n) {\n"
		   "	struct map *m = malloc(sizeof *m + n);\n"
		   "	if (!m) return;\n"
		   "	map_init(m, n);\n"
		   "	pthread_mutex_lock(&lock); cur = m; pthread_mutex_unlock(&lock);\n"
		   "}\n");
#undef MARK
}

Test(fresh, the_same_initialiser_called_on_shared_memory_races)
{
#define MARK "/*D*/"
	expect_one(HEADERS MAP MAP_INIT
		   "void reset(unsigned n) {\n"
		   "	struct map *m;\n"
		   "	pthread_mutex_lock(&lock); m = cur; pthread_mutex_unlock(&lock);\n"
		   "	map_init(m, n);\n"
		   "}\n"
		   "void grow(unsigned n) {\n"
		   "	struct map *m = malloc(sizeof *m + n);\n"
		   "	if (!m) return;\n"
		   "	map_init(m, n);\n"
		   "	pthread_mutex_lock(&lock); cur = m; pthread_mutex_unlock(&lock);\n"
		   "}\n");
#undef MARK
}

Test(fresh, initialiser_writing_after_it_publishes_still_races)
{
	expect_one(HEADERS MAP
		   "static void map_publish(struct map *m, unsigned n) {\n"
		   "	pthread_mutex_lock(&lock); cur = m; pthread_mutex_unlock(&lock);\n"
		   "	m->size = n; /*D*/\n"
		   "}\n"
		   "void grow(unsigned n) {\n"
		   "	struct map *m = malloc(sizeof *m + n);\n"
		   "	if (!m) return;\n"
		   "	map_publish(m, n);\n"
		   "}\n");
}

/* An initialiser's write published too early is one finding, whether the
 * call that reaches the publication passed fresh memory or not. */
Test(fresh, initialising_write_published_too_early_is_reported_once)
{
	const char *text;
	int n = 0;

	expect_one(HEADERS "struct map { unsigned size; } *cur;\n"
		   "static void map_init(struct map *m, unsigned n) { m->size = n; } /*W*/\n"
		   "static void publish(struct map *m) { WRITE_ONCE(cur, m); }\n"
		   "void grow(unsigned n) {\n"
		   "	struct map *m = malloc(sizeof *m);\n"
		   "	if (!m) return;\n"
		   "	map_init(m, n);\n"
		   "	publish(m);\n"
		   "}\n"
		   "void reuse(struct map *m, unsigned n) { map_init(m, n); publish(m); }\n"
		   "unsigned get(void) { struct map *m = smp_load_acquire(&cur); return m ? m->size : 0; }\n");
	text = last_findings_text();
	for (const char *p = text; (p = strstr(p, "publishes it")) != NULL; p++)
		n++;
	cr_assert_eq(n, 1, "%s", text);
}

/* ---- a pointer parameter that its function publishes ---- */

/* A Treiber stack whose nodes a consumer pops and pushes again: push()
 * writes the node's next before the CAS that publishes the node, so the
 * node is push()'s own until then, as fresh memory is (review of
 * 2026-12-04: ck_stack, liburcu's lfstack and rculfhash). */
#define STACK \
	"struct node { int key; struct node *next; };\n" \
	"struct stack { struct node *head; } s;\n" \
	"int stop;\n" \
	"static struct node *pop(struct stack *st) {\n" \
	"	struct node *old, *next;\n" \
	"	do {\n" \
	"		old = READ_ONCE(st->head);\n" \
	"		if (!old) return NULL;\n" \
	"		next = READ_ONCE(old->next);\n" \
	"	} while (cmpxchg(&st->head, old, next) != old);\n" \
	"	return old;\n" \
	"}\n" \
	"static void *consumer(void *arg) {\n" \
	"	struct node *n;\n" \
	"	while (!READ_ONCE(stop))\n" \
	"		if ((n = pop(&s)) != NULL) push(&s, n, n->key + 1);\n" \
	"	return arg;\n" \
	"}\n" \
	"static void *producer(void *arg) {\n" \
	"	int k = 0;\n" \
	"	while (!READ_ONCE(stop)) {\n" \
	"		struct node *n = malloc(sizeof *n);\n" \
	"		if (!n) abort();\n" \
	"		push(&s, n, k++);\n" \
	"	}\n" \
	"	return arg;\n" \
	"}\n" \
	"int main(void) {\n" \
	"	pthread_t a, b;\n" \
	"	pthread_create(&a, NULL, producer, NULL);\n" \
	"	pthread_create(&b, NULL, consumer, NULL);\n" \
	"	WRITE_ONCE(stop, 1);\n" \
	"	pthread_join(a, NULL);\n" \
	"	pthread_join(b, NULL);\n" \
	"	return 0;\n" \
	"}\n"
#define LINK_IN \
	"static void link_in(struct stack *st, struct node *n) {\n" \
	"	struct node *old;\n" \
	"	do {\n" \
	"		old = READ_ONCE(st->head);\n" \
	"		n->next = old;\n" \
	"	} while (cmpxchg(&st->head, old, n) != old);\n" \
	"}\n"

/* push() as above, its CAS storing VALUE (the node, or the node as a
 * helper returns it), MARK on the writes to the node. */
#define PUSH_STORING(value, mark) \
	"static void push(struct stack *st, struct node *n, int k) {\n" \
	"	struct node *old;\n" \
	"	n->key = k; " mark "\n" \
	"	do {\n" \
	"		old = READ_ONCE(st->head);\n" \
	"		n->next = old; " mark "\n" \
	"	} while (cmpxchg(&st->head, old, " value ") != old);\n" \
	"}\n"

Test(fresh, parameter_published_by_a_cas_is_the_functions_own_before)
{
	expect_one(HEADERS "struct node; struct stack;\n"
		   "static void push(struct stack *st, struct node *n, int k);\n"
		   STACK PUSH_STORING("n", ""));
}

Test(fresh, parameter_published_by_a_callee_is_the_callers_own_before)
{
	expect_one(HEADERS "struct node; struct stack;\n"
		   "static void push(struct stack *st, struct node *n, int k);\n"
		   STACK LINK_IN
		   "static void push(struct stack *st, struct node *n, int k) {\n"
		   "	n->key = k;\n"
		   "	n->next = READ_ONCE(st->head);\n"
		   "	link_in(st, n);\n"
		   "}\n");
}

/* A retry loop whose condition is the CAS (ck_stack_push_upmc): the body
 * runs only after a failed try, so the node is still push()'s own there
 * and a popper never reads what the body writes.  The CAS is relaxed, so
 * both writes still miss the release that publishes them. */
Test(fresh, node_rewritten_in_the_body_of_a_cas_retry_loop_is_the_pushers_own)
{
	expect_one(HEADERS "struct node { int key; struct node *next; };\n"
		   "struct stack { struct node *head; };\n"
		   "struct node *pop(struct stack *st) {\n"
		   "	struct node *old = READ_ONCE(st->head), *next;\n"
		   "	if (!old) return 0;\n"
		   "	next = old->next;\n"
		   "	while (cmpxchg_relaxed(&st->head, old, next) != old) {\n"
		   "		old = READ_ONCE(st->head);\n"
		   "		if (!old) return 0;\n"
		   "		next = old->next;\n"
		   "	}\n"
		   "	return old;\n"
		   "}\n"
		   "void push(struct stack *st, struct node *n) {\n"
		   "	struct node *old = READ_ONCE(st->head);\n"
		   "	n->next = old; /*W*/\n"
		   "	while (cmpxchg_relaxed(&st->head, old, n) != old) {\n"
		   "		old = READ_ONCE(st->head);\n"
		   "		n->next = old; /*W*/\n"
		   "	}\n"
		   "}\n");
}

/* The other direction: a parameter published by a relaxed store is still
 * published too early, and a write made after the publication races. */
Test(fresh, parameter_published_by_a_relaxed_store_is_still_reported)
{
	expect_one(HEADERS "struct node { int key; } *gp;\n"
		   "static void publish(struct node *n, int k) {\n"
		   "	n->key = k; /*W*/\n"
		   "	WRITE_ONCE(gp, n);\n"
		   "}\n"
		   "static void *writer(void *arg) {\n"
		   "	struct node *n = malloc(sizeof *n);\n"
		   "	if (!n) abort();\n"
		   "	publish(n, 1);\n"
		   "	return arg;\n"
		   "}\n"
		   "static void *reader(void *arg) {\n"
		   "	struct node *p = READ_ONCE(gp);\n"
		   "	return p ? (void *)(long)p->key : arg;\n"
		   "}\n"
		   "int main(void) {\n"
		   "	pthread_t a, b;\n"
		   "	pthread_create(&a, NULL, writer, NULL);\n"
		   "	pthread_create(&b, NULL, reader, NULL);\n"
		   "	pthread_join(a, NULL);\n"
		   "	pthread_join(b, NULL);\n"
		   "	return 0;\n"
		   "}\n");
}

Test(fresh, write_through_a_parameter_after_it_is_published_still_races)
{
	expect_one(HEADERS "struct node; struct stack;\n"
		   "static void push(struct stack *st, struct node *n, int k);\n"
		   "int ready;\n"
		   STACK LINK_IN
		   "static void push(struct stack *st, struct node *n, int k) {\n"
		   "	link_in(st, n);\n"
		   "	n->key = k; /*W*/\n"
		   "	WRITE_ONCE(ready, 1);\n"
		   "}\n"
		   "int get(void) { return READ_ONCE(ready) ? s.head->key : 0; } /*R*/\n");
}

/* A local copy of the parameter (rculfhash's new_node = node) is the same
 * private memory: publishing the copy publishes the parameter, and the
 * writes before it are the function's own.  Handing the copy on ends both:
 * a write through the original afterwards still races. */
Test(fresh, parameter_published_through_a_local_copy_is_the_functions_own_before)
{
	expect_one(HEADERS "struct node; struct stack;\n"
		   "static void push(struct stack *st, struct node *n, int k);\n"
		   STACK
		   "static void push(struct stack *st, struct node *n, int k) {\n"
		   "	struct node *old, *new_node;\n"
		   "	n->key = k;\n"
		   "	new_node = n;\n"
		   "	do {\n"
		   "		old = READ_ONCE(st->head);\n"
		   "		n->next = old;\n"
		   "	} while (cmpxchg(&st->head, old, new_node) != old);\n"
		   "}\n");
}

/* Comparing the pointer (n == last_pushed) or testing its low bits
 * ((uintptr_t)n & 1) gives a truth value or a few bits: it hands the
 * node on to no one, and the writes before the publication stay the
 * function's own. */
Test(fresh, comparing_a_parameter_hands_it_on_to_no_one)
{
	expect_one(HEADERS "struct node; struct stack;\n"
		   "static void push(struct stack *st, struct node *n, int k);\n"
		   "static struct node *last_pushed;\n"
		   "int was_same, low_bit;\n"
		   STACK
		   "static void push(struct stack *st, struct node *n, int k) {\n"
		   "	struct node *old;\n"
		   "	int same, bit;\n"
		   "	n->key = k;\n"
		   "	same = n == last_pushed;\n"
		   "	bit = (int)((unsigned long)n & 1UL);\n"
		   "	do {\n"
		   "		old = READ_ONCE(st->head);\n"
		   "		n->next = old;\n"
		   "	} while (cmpxchg(&st->head, old, n) != old);\n"
		   "	was_same = same;\n"
		   "	low_bit = bit;\n"
		   "}\n");
}

Test(fresh, write_through_a_parameter_after_its_copy_is_published_still_races)
{
	expect_one(HEADERS "struct node; struct stack;\n"
		   "static void push(struct stack *st, struct node *n, int k);\n"
		   "int ready;\n"
		   STACK LINK_IN
		   "static void push(struct stack *st, struct node *n, int k) {\n"
		   "	struct node *copy = n;\n"
		   "	link_in(st, copy);\n"
		   "	n->key = k; /*W*/\n"
		   "	WRITE_ONCE(ready, 1);\n"
		   "}\n"
		   "int get(void) { return READ_ONCE(ready) ? s.head->key : 0; } /*R*/\n");
}

/* A branch that cannot fall through hands nothing on to the code after
 * it: make() keeps a failed node in a global and returns, so on the path
 * that goes on the node is still its own and n->key is initialisation,
 * racing with nothing.  When the branch falls through, the node has been
 * handed on and the write pairs both ways with go. */
#define MAKE_PROG(after_handing_on, rmark, wmark) \
	"struct node { int key; struct node *next; };\n" \
	"static struct node *last_failed, *shared_node;\n" \
	"static int go;\n" \
	"void make(int k, int fail) {\n" \
	"	struct node *n;\n" \
	"	if (!READ_ONCE(go))\n" \
	"		return;\n" \
	"	n = malloc(sizeof *n);\n" \
	"	if (!n)\n" \
	"		return;\n" \
	"	if (fail) {\n" \
	"		last_failed = n;\n" \
	"		" after_handing_on "\n" \
	"	}\n" \
	"	n->key = k; " rmark "\n" \
	"	smp_store_release(&shared_node, n);\n" \
	"}\n" \
	"static void *w(void *a) { shared_node->key = 5; WRITE_ONCE(go, 1); return a; } " wmark "\n" \
	"static void *m(void *a) { make(1, 0); make(2, 1); return a; }\n" \
	"int main(void) { pthread_t t[2]; shared_node = calloc(1, sizeof *shared_node);\n" \
	"  pthread_create(&t[0], 0, w, 0); pthread_create(&t[1], 0, m, 0);\n" \
	"  pthread_join(t[0], 0); pthread_join(t[1], 0); return 0; }\n"

Test(fresh, a_pointer_handed_on_in_a_branch_that_returns_stays_fresh_after_it)
{
	expect_one(HEADERS MAKE_PROG("return;", "", ""));
}

Test(fresh, a_pointer_handed_on_in_a_branch_that_falls_through_is_shared_after_it)
{
	expect_one(HEADERS MAKE_PROG("", "/*R*/", "/*W*/"));
}

/* ---- marked accesses to fresh memory ---- */

/* A relaxed store into the new node's own next field, made before the
 * node is published, publishes nothing (perfbook's route_cacm_c11.c):
 * the writes before it are paired with the release that hands the node
 * on, which orders them. */
#define ROUTE_ADD(publish, mark, next_mark) "#include <stdatomic.h>\n#include <stdlib.h>\n" \
	"struct route { unsigned long addr; _Atomic(struct route *) next; };\n" \
	"_Atomic(struct route *) route_list;\n" \
	"void route_add(unsigned long a) {\n" \
	"	struct route *rep = malloc(sizeof *rep);\n" \
	"	if (!rep) return;\n" \
	"	rep->addr = a; " mark "\n" \
	"	atomic_store_explicit(&rep->next, atomic_load_explicit(&route_list, memory_order_relaxed), memory_order_relaxed); " next_mark "\n" \
	"	atomic_store_explicit(&route_list, rep, " publish ");\n" \
	"}\n" \
	"int route_lookup(unsigned long a) {\n" \
	"	for (struct route *p = atomic_load_explicit(&route_list, memory_order_acquire); p;\n" \
	"	     p = atomic_load_explicit(&p->next, memory_order_relaxed))\n" \
	"		if (p->addr == a) return 1;\n" \
	"	return 0;\n" \
	"}\n"

Test(fresh, marked_store_into_the_fresh_object_publishes_nothing)
{
	expect_one(ROUTE_ADD("memory_order_release", "", ""));
}

/* Published by a relaxed store, the node's fields reach the reader
 * unordered: the plain key, and the relaxed next as well (issue 12, shape
 * 1: the lookup follows the pointer to both). */
Test(fresh, relaxed_publication_after_a_store_into_the_fresh_object_is_reported)
{
	expect_one(ROUTE_ADD("memory_order_relaxed", "/*W*/", "/*W*/"));
}

/* ---- fresh memory passed to a callee that keeps it (W3) ---- */

/* insert() has init_node() write the key and writes the data itself, then
 * publishes the node by a release store; a thread publishes 'state' after
 * one insert and another inserts when it sees it.  init_node() only
 * writes through its parameter: the node stays insert()'s own after the
 * call, and n->data = d is initialisation, not a shared write that
 * 'state' would have to publish. */
#define INSERT_PROG(init_body, mark) \
	"struct node { int key; void *data; struct node *next; };\n" \
	"static struct node *head, *last_init;\n" \
	"static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"static int state;\n" \
	"static void init_node(struct node *n, int k) { " init_body " }\n" \
	"static void insert(int k, void *d) {\n" \
	"	struct node *n = malloc(sizeof(*n));\n" \
	"	if (!n) abort();\n" \
	"	init_node(n, k);\n" \
	"	n->data = d; " mark "\n" \
	"	pthread_mutex_lock(&lock);\n" \
	"	n->next = head;\n" \
	"	smp_store_release(&head, n);\n" \
	"	pthread_mutex_unlock(&lock);\n" \
	"}\n" \
	"static void *loader(void *a) { insert(1, a); WRITE_ONCE(state, 1); return a; }\n" \
	"static void *updater(void *a) { if (READ_ONCE(state)) insert(2, a); return a; }\n" \
	"int main(void) { pthread_t t[2]; pthread_create(&t[0], 0, loader, 0);\n" \
	"  pthread_create(&t[1], 0, updater, 0); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

Test(fresh, fresh_pointer_passed_to_an_initialiser_stays_fresh)
{
	expect_one(HEADERS INSERT_PROG("n->key = k;", ""));
}

Test(fresh, fresh_pointer_passed_to_a_helper_that_stores_it_is_handed_on)
{
	/* init_node() keeps a pointer to the node in a global: from the call
	 * on, other threads can reach it, and watch() does, after the flag.
	 * So n->data = d is a shared write that watch()'s read of p->data
	 * races with (were the node still fresh, it would be initialisation,
	 * and the read would race with nothing).  The two inserts' own writes
	 * of 'data' are of two nodes (each its owner's, analysis/owned.c):
	 * they do not race with each other. */
	const char *text;

	expect_one(HEADERS INSERT_PROG("n->key = k; last_init = n; /*R*/", "")
		   "void *watch(void) { struct node *p; if (!READ_ONCE(state)) return 0; p = last_init; return p ? p->data : 0; } /*R*/\n"
		   "static void *watcher(void *a) { return watch(); }\n"
		   "void start_watcher(void) { pthread_t t; pthread_create(&t, 0, watcher, 0); }\n");
	text = last_findings_text();
	cr_assert(strstr(text, "'p->data'") != NULL, "%s", text);
}

/* ---- what publishes an initialisation: the write that hands it on ---- */

/* A writer thread makes a map (an initialiser fills it), hands it on by
 * HAND_ON, then sets 'state'; the reader waits for 'state' and reads the
 * map through 'cur' by TAKE.  Other threads reach the map's fields only
 * through 'cur', so the write that stores the pointer is what publishes
 * the initialisation; 'state', written later, publishes nothing of it. */
#define MAP_THEN_FLAG(hand_on, take) \
	"struct map { int cap; int *descs; };\n" \
	"static struct map *cur;\n" \
	"static int state;\n" \
	"static void map_init(struct map *m, int n) { m->cap = n; m->descs = 0; }\n" \
	"static struct map *map_create(int n) {\n" \
	"	struct map *m = malloc(sizeof *m);\n" \
	"	if (!m) return NULL;\n" \
	"	map_init(m, n);\n" \
	"	return m;\n" \
	"}\n" \
	"static void *writer(void *arg) {\n" \
	"	struct map *m = map_create(8);\n" \
	"	if (m) " hand_on "\n" \
	"	WRITE_ONCE(state, 1);\n" \
	"	return arg;\n" \
	"}\n" \
	"static void *reader(void *arg) {\n" \
	"	while (!READ_ONCE(state)) ;\n" \
	"	struct map *m = " take "\n" \
	"	return (void *)(long)m->cap;\n" \
	"}\n" \
	"int main(void) { pthread_t t, u; pthread_create(&t, 0, reader, 0); pthread_create(&u, 0, writer, 0);\n" \
	"  pthread_join(t, 0); pthread_join(u, 0); return 0; }\n"

Test(fresh, initialisation_handed_on_by_a_release_is_not_published_by_a_later_flag)
{
	expect_one(HEADERS MAP_THEN_FLAG("smp_store_release(&cur, m);", "smp_load_acquire(&cur);"));
}

Test(fresh, initialisation_handed_on_by_a_plain_store_is_reported_on_the_store)
{
	/* the plain pointer store is the shared write 'state' must publish:
	 * one finding on each side, on 'cur', not one per initialised field */
	expect_one(HEADERS MAP_THEN_FLAG("cur = m; /*W*/", "cur; /*R*/"));
}

/* ---- a pointer tagged by a helper (rculfhash's flag_bucket) ---- */

/* push() publishes its node tagged by a helper of the same file, whose
 * body only returns the pointer with a low bit set (the bit a macro):
 * the CAS still publishes the node, which is push()'s own before.  A
 * helper that also keeps the pointer somewhere hands it on: the node is
 * shared from the call on, and the writes to it race. */
#define TAGGED_PUSH(tag_body, mark) \
	"#define TAG_BIT 1UL\n" \
	"struct node; struct stack;\n" \
	"static void push(struct stack *st, struct node *n, int k);\n" \
	STACK \
	"struct node *last;\n" \
	"static struct node *tag(struct node *n) { " tag_body " }\n" \
	PUSH_STORING("tag(n)", mark)

Test(fresh, parameter_published_tagged_by_a_helper_is_the_functions_own_before)
{
	expect_one(HEADERS TAGGED_PUSH("return (struct node *)((unsigned long)n | TAG_BIT);", ""));
}

Test(fresh, parameter_passed_to_a_helper_that_keeps_it_is_handed_on)
{
	expect_one(HEADERS TAGGED_PUSH("last = n; /*R*/ return (struct node *)((unsigned long)n | TAG_BIT);", "/*R*/"));
}

/* ---- an initialisation published in order, read through the pointer ---- */

/* add() initialises a node and publishes it with a fully ordered CAS on
 * the list's next field.  A reader that tests some node's next and then
 * reads the node's key sees the initialisation if it reached the node by
 * following a pointer loaded with a marked read (here rcu_dereference in
 * the caller): an address dependency, which the LKMM orders after the
 * publication.  A reader that found the node by a plain load of the list
 * has no such order: still reported. */
#define ORDERED_ADD(reader_start, del_body) \
	"struct node { int key; struct node *next; };\n" \
	"struct node first;\n" \
	"static void add(int k) {\n" \
	"	struct node *n = malloc(sizeof *n), *old;\n" \
	"	if (!n) abort();\n" \
	"	n->key = k;\n" \
	"	do {\n" \
	"		old = READ_ONCE(first.next);\n" \
	"		n->next = old;\n" \
	"	} while (cmpxchg(&first.next, old, n) != old);\n" \
	"}\n" \
	"static int key_of(struct node *n) { return n->key; }\n" \
	"static int del(struct node *node) { " del_body " }\n" \
	"static void *writer(void *a) { for (int i = 0; i < 4; i++) add(i); return a; }\n" \
	"static void *reader(void *a) { struct node *p = " reader_start "; return (void *)(long)(p ? del(p) : 0); }\n" \
	"int main(void) { pthread_t t[2]; pthread_create(&t[0], 0, writer, 0); pthread_create(&t[1], 0, reader, 0);\n" \
	"  for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }\n"

Test(fresh, initialisation_published_in_order_is_seen_through_a_dependent_pointer)
{
	expect_one(HEADERS ORDERED_ADD("rcu_dereference(first.next)",
				       "if (READ_ONCE(node->next)) return key_of(node); return 0;"));
}

Test(fresh, initialisation_published_in_order_still_races_with_a_plain_walk)
{
	expect_one(HEADERS ORDERED_ADD("rcu_dereference(first.next)",
				       "struct node *q = first.next;\n"
				       "	if (READ_ONCE(q->next)) return q->key; /*R*/\n"
				       "	return node->key;"));
}

/* pthread_mutex_init keeps no pointer to the lock it initialises
 * (pthread.prof): a wrapper that sets up the lock of what it allocates
 * (perfbook's alloc_treenode: spin_lock_init(&p->lock)) still returns
 * fresh memory.  A call of unknown effect given the lock's address may
 * keep it: the wrapper is then no allocator, and the write races. */
#define LOCKED_MAP_CREATE(setup) \
	"struct lmap { unsigned size; pthread_mutex_t lock; } *lcur;\n" \
	"extern void register_lock(pthread_mutex_t *l);\n" \
	"static pthread_mutex_t glock = PTHREAD_MUTEX_INITIALIZER;\n" \
	"void lshrink(void) { pthread_mutex_lock(&glock); lcur->size--; pthread_mutex_unlock(&glock); }\n" \
	"static struct lmap *lmap_create(void) {\n" \
	"	struct lmap *m = malloc(sizeof *m);\n" \
	"	if (!m)\n" \
	"		return NULL;\n" \
	"	" setup "\n" \
	"	return m;\n" \
	"}\n" \
	"void lgrow(unsigned n) {\n" \
	"	struct lmap *m = lmap_create();\n" \
	"	if (!m) return;\n"

Test(fresh, wrapper_initialising_the_lock_it_allocates_returns_fresh_memory)
{
	expect_one(HEADERS LOCKED_MAP_CREATE("pthread_mutex_init(&m->lock, 0);")
		   "	m->size = n;\n"
		   "	pthread_mutex_lock(&glock); lcur = m; pthread_mutex_unlock(&glock);\n"
		   "}\n");
}

Test(fresh, wrapper_handing_the_lock_to_an_unknown_call_is_no_allocator)
{
	expect_one(HEADERS LOCKED_MAP_CREATE("register_lock(&m->lock);")
		   "	m->size = n; /*D*/\n"
		   "	pthread_mutex_lock(&glock); lcur = m; pthread_mutex_unlock(&glock);\n"
		   "}\n");
}

/* ---- pools: container_of a fresh block, and the 'alloc' contract ---- */

/* kv_alloc() takes a block and returns the struct around it, as
 * container_of does (a GNU statement expression, pointer arithmetic on a
 * local it declares): the same memory, so it is an allocator wrapper when
 * the block is fresh.  Two adders initialise their own kv, then count a
 * reference on it: the two writes of key race with nothing.  TAKE is how
 * the block is had; MARK the marker on the write of key, DMARK on the
 * read of the pool's head.  A reader follows the published kv.  Without a
 * profile, pool_alloc() takes a block off a pool, which the analysis
 * cannot tell from a shared list: the write is paired (with the
 * refcount's RMW as the flag), and the pool's head too. */
#define POOL(take, mark, dmark) \
	"#include <pthread.h>\n#include <stdlib.h>\n#include <stddef.h>\n" \
	"#define container_of(ptr, type, member) ({ \\\n" \
	"	const __typeof__(((type *)0)->member) *__mptr = (ptr); \\\n" \
	"	(type *)((char *)__mptr - offsetof(type, member)); })\n" \
	"struct block { struct block *next; };\n" \
	"struct pool { struct block *head; };\n" \
	"static __thread struct pool my_pool;\n" \
	"static struct block *pool_alloc(struct pool *p) {\n" \
	"	struct block *b = p->head; " dmark "\n" \
	"	if (!b)\n" \
	"		return malloc(sizeof(struct block) + 64);\n" \
	"	p->head = b->next;\n" \
	"	return b;\n" \
	"}\n" \
	"struct kv { int key; int refcnt; struct block blk; };\n" \
	"static inline struct kv *kv_alloc(void) {\n" \
	"	struct block *b = " take ";\n" \
	"	if (b == NULL)\n" \
	"		return NULL;\n" \
	"	return container_of(b, struct kv, blk);\n" \
	"}\n" \
	"struct kv *table[16];\n" \
	"static void *adder(void *a) {\n" \
	"	for (int i = 0; i < 16; i++) {\n" \
	"		struct kv *kv = kv_alloc();\n" \
	"		if (!kv)\n" \
	"			return a;\n" \
	"		kv->key = i; " mark "\n" \
	"		__atomic_store_n(&kv->refcnt, 1, __ATOMIC_RELAXED);\n" \
	"		if (__atomic_sub_fetch(&kv->refcnt, 1, __ATOMIC_RELAXED) == 0)\n" \
	"			continue;\n" \
	"		__atomic_store_n(&table[i], kv, __ATOMIC_RELEASE);\n" \
	"	}\n" \
	"	return a;\n" \
	"}\n" \
	"static void *reader(void *a) {\n" \
	"	long s = 0;\n" \
	"	for (int i = 0; i < 16; i++) {\n" \
	"		struct kv *kv = __atomic_load_n(&table[i], __ATOMIC_ACQUIRE);\n" \
	"		if (kv)\n" \
	"			s += kv->key;\n" \
	"	}\n" \
	"	return (void *)s;\n" \
	"}\n" \
	"int main(void) { pthread_t t[3]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, adder, 0);\n" \
	"  pthread_create(&t[2], 0, reader, 0);\n" \
	"  for (int i = 0; i < 3; i++) pthread_join(t[i], 0); return 0; }\n"

Test(fresh, container_of_a_fresh_block_is_fresh)
{
	expect_one(POOL("malloc(sizeof(struct kv))", "", ""));
}

Test(fresh, a_pool_allocation_the_profile_declares_is_fresh)
{
	struct src s[] = { { "t.c", POOL("pool_alloc(&my_pool)", "", "") } };

	expect_findings(s, 1, "pool_alloc alloc none\n");
}

/* (the pool is thread-local: its head is each thread's own, so the
 * allocation races with nothing; the block it hands out is what the
 * contract is about) */
Test(fresh, a_pool_allocation_without_the_contract_is_paired)
{
	expect_one(POOL("pool_alloc(&my_pool)", "/*W*/", ""));
}
