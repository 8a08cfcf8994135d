/* analyzer/analysis/threads.c — the thread model: which functions run as
 * threads and how many at once, which run before any thread exists or
 * while no other runs, and which thread entry points reach each function
 * (may_run_concurrently). */
#include "internal.h"

int successors_reach_avoiding(const struct function *f, int from, int to,
			      int (*avoid)(const struct function *f, int b, const void *ctx), const void *ctx)
{
	unsigned char *seen = xcalloc(f->nblocks + 1, 1);
	int *stack = xcalloc(f->nblocks + 1, sizeof *stack), top = 0, found = 0;

	for (int b = 0; avoid && b < f->nblocks; b++)
		seen[b] = avoid(f, b, ctx) != 0;
	push_successors(f, from, seen, stack, &top);
	while (top && !found) {
		int cur = stack[--top];

		if (cur == to)
			found = 1;
		push_successors(f, cur, seen, stack, &top);
	}
	free(seen);
	free(stack);
	return found;
}

int successors_reach(const struct function *f, int from, int to)
{
	return successors_reach_avoiding(f, from, to, NULL, NULL);
}

int event_reaches(const struct function *f, int ba, int ka, int bb, int kb)
{
	return (ba == bb && kb > ka) || successors_reach(f, ba, bb);
}

/* Is block B of F on a cycle of the CFG (inside a loop)? */
static int in_loop(const struct function *f, int b)
{
	return successors_reach(f, b, b);
}

/* The thread handle a pthread_create or pthread_join call E names: its
 * first argument without the '&' (pthread_create(&t[i], ...) and
 * pthread_join(t[i], ...) both give "t[i]"), or NULL. */
static const char *thread_handle(const struct event *e)
{
	const char *h = call_argument(e, 0, NULL);

	while (h && (*h == '&' || *h == ' '))
		h++;
	return h && *h ? h : NULL;
}

/* Does block B of F hold a pthread_join of HANDLE (a string)? */
static int joins_handle(const struct function *f, int b, const void *handle)
{
	for (int i = 0; i < f->blocks[b].nevents; i++) {
		const struct event *e = &f->blocks[b].events[i];
		const char *h;

		if (is_named(e, "pthread_join") && (h = thread_handle(e)) && strcmp(h, handle) == 0)
			return 1;
	}
	return 0;
}

/* Is the pthread_create CREATE, in block B of F, made again while the
 * thread it started may still run: is B on a cycle of the CFG that no
 * join of the same handle cuts?  A test harness that creates and joins
 * its threads in each round of a loop (for (...) { pthread_create(&c,
 * ...); ...; pthread_join(c, NULL); }) runs one of them at a time; one
 * that creates them in a loop and joins them in another runs them all
 * at once. */
static int creates_again_while_running(const struct function *f, int b, const struct event *create)
{
	const char *handle = thread_handle(create);

	if (!handle)
		return in_loop(f, b);
	return !joins_handle(f, b, handle) && successors_reach_avoiding(f, b, b, joins_handle, handle);
}

/* The function named by pthread_create's third argument, or -1. */
int start_routine(const struct program *p, const struct event *create)
{
	const char *a = create->argv.n > 2 ? create->argv.v[2] : NULL;
	char *name;
	size_t n = 0;
	int found = -1;

	if (!a)
		return -1;
	while (*a == '&' || *a == ' ' || *a == '(')
		a++;
	while (a[n] && a[n] != ')' && a[n] != ' ')
		n++;
	name = xmalloc(n + 1);
	memcpy(name, a, n);
	name[n] = '\0';
	for (int i = 0; i < p->nfns && found < 0; i++)
		if (strcmp(p->fns[i].name, name) == 0 && strcmp(p->fns[i].file, create->file) == 0)
			found = i;
	for (int i = 0; i < p->nfns && found < 0; i++)
		if (strcmp(p->fns[i].name, name) == 0)
			found = i;
	free(name);
	return found;
}

static void add_edge(struct start_edge **v, int *n, int *cap, int from, int to, int create, int loop, int gid)
{
	grow(v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = (struct start_edge){ from, to, create, loop, gid };
}

/* Does wrapper call CALL (NARGS arguments) pass the address of an element
 * picked by a local index: of a global array (create_thread(fn, &ctx[i]):
 * the argument is the array's object, and depends on a local, "#N=i"), or
 * of memory the creator owns (cp = malloc(...); create_thread(fn, &cp[i]):
 * "#N=!own" with the pointer and the index, "#N=cp", "#N=i")? */
static int passes_an_element(const struct event *call, int nargs)
{
	for (int a = 0; a < nargs; a++) {
		const struct object_ref *ref;
		const char *arg = call_argument(call, a, &ref);
		int locals = 0, owned = 0;

		for (int k = 0; k < call->deps.n; k++) {
			const struct dep_item *d = &call->deps.v[k];

			if (d->role != DEP_ARGUMENT || d->arg != a)
				continue;
			/* an element of a global array (&ctx[i]) */
			if (arg && ref->kind == OBJ_USR && arg[2] == '@')
				return 1;
			locals += d->kind == DEP_LOCAL;
			owned |= d->kind == DEP_OWN;
		}
		/* or of memory the creator owns, indexed (&cp[i], cp + i: the
		 * pointer and the index), not the pointer itself */
		if (owned && locals >= 2)
			return 1;
	}
	return 0;
}

/* Start routine F gets, from every creation, its own element of an array
 * (pthread_create(&t[i], 0, thr, &ctx[i])), written by the creator before
 * the creation orders it: what the thread accesses through its argument
 * is its own and races with nothing until it publishes it, like fresh
 * memory (is_new).  Marks those accesses: the address comes from the
 * parameter, directly or through locals copied from it. */
static void mark_thread_owned(struct function *f)
{
	struct deriv_map m = { 0 };

	compute_derived(f, &m);
	for (int b = 0; b < f->nblocks; b++)
		for (int i = 0; i < f->blocks[b].nevents; i++) {
			struct event *e = &f->blocks[b].events[i];

			if (e->kind != EV_ACCESS || e->marked || !e->object)
				continue;
			for (int k = 0; k < e->deps.n; k++)
				if (from_param(&m, &e->deps.v[k]))
					e->fresh_init = e->thread_element = 1;
		}
	dm_free(&m);
}

/* Which functions run as threads (p->started), and the creations that
 * start them (*EDGES, *N; the caller frees them): pthread_create of a
 * function of the tree, or a call of a thread-creating wrapper.
 *
 * A function whose pthread_create starts no function of the tree starts
 * its own function-pointer parameter: it is a thread-creating wrapper
 * (create_thread(fn, arg) in perfbook's and liburcu's test harnesses), and
 * each call of it creates the functions passed to it ("f:KEY" arguments). */
struct start_edge *find_starts(struct program *p, int *n)
{
	char *started = xcalloc(p->nfns + 1, 1), *wrapper = xcalloc(p->nfns + 1, 1);
	unsigned char *own_arg = xmalloc((size_t)p->nfns + 1);
	struct start_edge *edges = NULL;
	int cap = 0;

	memset(own_arg, 1, (size_t)p->nfns + 1);

	*n = 0;
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++)
				if (is_named(&p->fns[fi].blocks[b].events[i], "pthread_create") &&
				    start_routine(p, &p->fns[fi].blocks[b].events[i]) < 0)
					wrapper[fi] = 1;
	for (int fi = 0; fi < p->nfns; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++) {
			int loop = -1;

			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];
				struct summary *s;
				int t = -1;

				if (is_named(e, "pthread_create") && (t = start_routine(p, e)) >= 0) {
					const char *arg = call_argument(e, 3, NULL);

					add_edge(&edges, n, &cap, fi, t, 1,
						 creates_again_while_running(&p->fns[fi], b, e), e->gid);
					started[t] = 1;
					own_arg[t] &= arg && arg[0] == '&' && strchr(arg, '[') != NULL;
					continue;
				}
				if (e->kind != EV_CALL || !(s = callee_of(p, e, &p->fns[fi])) || !wrapper[s - p->sums])
					continue;
				for (int a = 0, nargs = e->argv.n; a < nargs; a++) {
					const char *fn = passed_function(e, a);
					struct summary *r;

					if (fn && (r = summary_of(p, fn, &p->fns[fi])) != NULL && r != s) {
						if (loop < 0)
							loop = in_loop(&p->fns[fi], b);
						add_edge(&edges, n, &cap, fi, (int)(r - p->sums), 1, loop, e->gid);
						started[r - p->sums] = 1;
						own_arg[r - p->sums] &= passes_an_element(e, nargs);
					}
				}
			}
		}
	p->started = started;
	for (int fi = 0; fi < p->nfns; fi++)
		if (started[fi] && own_arg[fi])
			mark_thread_owned(&p->fns[fi]);
	free(own_arg);
	free(wrapper);
	return edges;
}

/* How many activations of each function may run at once: 1, or 2 for
 * "several".  Counted per thread, not per call: the calls one thread
 * makes run one after the other (main() calling run() twice, or in a
 * loop, is one activation at a time), so a function runs as many times at
 * once as the threads that reach it (its roots, find_thread_roots) are
 * running.  main() and constructors run once; a start routine as often as
 * it is created (a creation in a loop, or by a function that itself runs
 * several times, counts as several); an entry point that nothing in the
 * tree calls or creates (a library API) may run in several threads.
 * Pairing a function's writer pattern with its own reader pattern needs
 * two activations.  EDGES (N) are the creations (find_starts). */
/* Is function FI main()?  (Each program of a tree has its own, and two of
 * them never run in one process.) */
static int is_program_main(const struct function *fns, int fi)
{
	return strcmp(fns[fi].name, "main") == 0;
}

void count_instances(struct program *p, const struct start_edge *edges, int n)
{
	unsigned char *inst = p->out->instances, *per_root = xcalloc(p->nfns + 1, 1);
	const struct analysis *a = p->out;
	int changed = 1, rounds = 0;

	/* Monotone from below: every count only grows, up to 2. */
	while (changed && rounds++ < 50) {
		changed = 0;
		for (int r = 0; r < p->nfns; r++) {
			unsigned v;

			if (a->unknown_root[r])
				v = 2;
			else if (strcmp(p->fns[r].name, "main") == 0 || is_constructor(&p->fns[r]))
				v = 1;
			else
				v = 0;
			for (int k = 0; k < n; k++)
				if (edges[k].to == r)
					v += edges[k].loop || edges[k].from == r ? 2 : inst[edges[k].from];
			if (p->started[r] && v == 0)
				v = 1;          /* created by code not known to run yet */
			if (v > 2)
				v = 2;
			if (v != per_root[r]) {
				per_root[r] = (unsigned char)v;
				changed = 1;
			}
		}
		for (int f = 0; f < p->nfns; f++) {
			const struct thread_roots *roots = &a->roots[f];
			unsigned v = 0, mains = 0;

			/* (no root at all: nothing that runs reaches it -- it is
			 * called only by functions that never run, never_runs --
			 * and it runs no time at all) */
			if (roots->many)
				v = 2;
			/* The main()s of different programs never run together:
			 * they count once, whatever their number. */
			for (int i = 0; i < roots->n && v < 2; i++)
				if (is_program_main(p->fns, roots->v[i]))
					mains = 1;
				else
					v += per_root[roots->v[i]];
			v += mains;
			if (v > 2)
				v = 2;
			if (v > inst[f]) {
				inst[f] = (unsigned char)v;
				changed = 1;
			}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_INSTANCES);
	free(per_root);
}

/* Is E a direct thread creation, or a call of a function that creates
 * threads itself (create_thread(fn, arg))?  A direct pthread_join, or a
 * call of a function that joins threads itself (wait_all_threads())? */
static int event_creates(struct program *p, const struct function *f, const struct event *e)
{
	struct summary *s;

	return is_named(e, "pthread_create") ||
	       (e->kind == EV_CALL && (s = callee_of(p, e, f)) && p->creates[s - p->sums]);
}

int event_joins(struct program *p, const struct function *f, const struct event *e)
{
	struct summary *s;

	return is_named(e, "pthread_join") ||
	       (e->kind == EV_CALL && (s = callee_of(p, e, f)) && p->joins[s - p->sums]);
}

/* The thread state at the entry of function FI, as find_quiet_entries
 * left it (calm implies THREADS_NONE_YET). */
struct entry_state { unsigned char calm, threads; };

/* Thread states A and B of two call sites of one function, combined: the
 * callee's entry can be quiet only when every call site is, so threads
 * running at one of them win.  (Inside a function the dataflow takes the
 * greatest state, state.c: after a loop of pthread_join the threads are
 * joined.  Across call sites that order would let report(), called from
 * a thread and again after the join, pass for quiet, and the accesses of
 * every function it calls go unrecorded.) */
static int combined_threads(int a, int b)
{
	if (a == THREADS_RUNNING || b == THREADS_RUNNING)
		return THREADS_RUNNING;
	return a > b ? a : b;
}

/* Walks FI's CFG from its entry state (must-calm, greatest thread state,
 * as in the main dataflow) and weakens the entry state of each callee
 * to what this function's call sites of it allow; a callee whose entry
 * changed goes to WORK unless it is there. */
static void weaken_callee_entries(struct program *p, int fi, struct entry_state *entry,
				 const unsigned char *eligible, int *work, int *nwork, unsigned char *queued)
{
	struct function *f = &p->fns[fi];
	struct entry_state *in = xcalloc(f->nblocks + 1, sizeof *in);
	unsigned char *reached = xcalloc(f->nblocks + 1, 1), *pending = xcalloc(f->nblocks + 1, 1);
	int changed = 1, rounds = 0;

	in[f->entry] = entry[fi];
	reached[f->entry] = pending[f->entry] = 1;
	while (changed && rounds++ < 200) {
		changed = 0;
		for (int b = 0; b < f->nblocks; b++) {
			struct entry_state cur;

			if (!pending[b])
				continue;
			pending[b] = 0;
			cur = in[b];
			for (int i = 0; i < f->blocks[b].nevents; i++) {
				struct event *e = &f->blocks[b].events[i];
				struct summary *s;

				if (e->kind == EV_CALL && (s = callee_of(p, e, f)) != NULL) {
					int g = (int)(s - p->sums);
					struct entry_state *ge = &entry[g];

					int threads = combined_threads(ge->threads, cur.threads);

					if (eligible[g] && ((ge->calm && !cur.calm) || ge->threads != threads)) {
						ge->calm &= cur.calm;
						ge->threads = threads;
						if (!queued[g]) {
							queued[g] = 1;
							work[(*nwork)++] = g;
						}
					}
				}
				if (event_joins(p, f, e)) {
					cur.threads = THREADS_JOINED;
					cur.calm = 0;    /* (something was created before) */
				} else if (event_creates(p, f, e)) {
					cur.threads = THREADS_RUNNING;
					cur.calm = 0;
				}
			}
			for (int k = 0; k < f->blocks[b].nsucc; k++) {
				int t = f->blocks[b].succ[k];
				struct entry_state old = in[t];

				if (!reached[t]) {
					in[t] = cur;
				} else {
					in[t].calm &= cur.calm;
					if (in[t].threads < cur.threads)
						in[t].threads = cur.threads;
				}
				if (!reached[t] || old.calm != in[t].calm || old.threads != in[t].threads) {
					reached[t] = pending[t] = 1;
					changed = 1;
				}
			}
		}
	}
	if (changed)
		analysis_cap_hit(CAP_ENTRIES);
	free(in);
	free(reached);
	free(pending);
}

/* Functions called only while no other thread runs: setup() that main()
 * calls before its first pthread_create is initialisation, like main's
 * own code there, and a report() called after the threads are joined is
 * quiet.  Each such function's entry state is the weakest over all its
 * call sites (a worklist from main() and the constructors down the call
 * graph; states only weaken, so it ends).  Thread start routines, entry
 * points and functions whose address is taken (they may be called from
 * anywhere: a signal handler, a callback) are never such functions.
 * Fills p->entry_calm and p->entry_quiet. */
void find_quiet_entries(struct program *p)
{
	int n = p->nfns, nwork = 0;
	struct entry_state *entry = xcalloc(n + 1, sizeof *entry);
	unsigned char *eligible = xcalloc(n + 1, 1), *queued = xcalloc(n + 1, 1);
	int *work = xcalloc(n + 1, sizeof *work);

	p->creates = xcalloc(n + 1, 1);
	p->joins = xcalloc(n + 1, 1);
	for (int fi = 0; fi < n; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];

				p->creates[fi] |= is_named(e, "pthread_create");
				p->joins[fi] |= is_named(e, "pthread_join");
			}
	/* A function that calls one that joins threads joins them too:
	 * wait_all_threads() calls wait_thread(), which calls pthread_join. */
	for (int changed = 1; changed;) {
		changed = 0;
		for (int fi = 0; fi < n; fi++)
			for (int b = 0; b < p->fns[fi].nblocks && !p->joins[fi]; b++)
				for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
					struct event *e = &p->fns[fi].blocks[b].events[i];
					struct summary *s;

					if (e->kind == EV_CALL && (s = callee_of(p, e, &p->fns[fi])) &&
					    s != &p->sums[fi] && p->joins[s - p->sums]) {
						p->joins[fi] = changed = 1;
						break;
					}
				}
	}
	for (int fi = 0; fi < n; fi++)
		eligible[fi] = p->called[fi] && !p->started[fi] && strcmp(p->fns[fi].name, "main") != 0;
	for (int fi = 0; fi < n; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
				struct event *e = &p->fns[fi].blocks[b].events[i];

				for (int a = 0, nargs = e->kind == EV_CALL ? e->argv.n : 0; a < nargs; a++) {
					const char *fn = passed_function(e, a);
					struct summary *r;

					if (fn && (r = summary_of(p, fn, &p->fns[fi])) != NULL)
						eligible[r - p->sums] = 0;
				}
			}
	for (int i = 0; i < p->nfnptrs; i++) {
		struct summary *r = summary_of(p, p->fnptrs[i].function, NULL);

		if (r)
			eligible[r - p->sums] = 0;
	}
	for (int fi = n - 1; fi >= 0; fi--) {
		if (eligible[fi])        /* until a call site says otherwise */
			entry[fi] = (struct entry_state){ 1, THREADS_NONE_YET };
		else
			entry[fi] = (struct entry_state){ (unsigned char)starts_single_threaded(p, fi), THREADS_RUNNING };
		if (entry[fi].calm)
			entry[fi].threads = THREADS_NONE_YET;
		work[nwork++] = fi;
		queued[fi] = 1;
	}
	/* A function's entry only gets weaker, and it is walked again each
	 * time it does, so its call sites pass the weaker state on. */
	while (nwork) {
		int fi = work[--nwork];

		queued[fi] = 0;
		weaken_callee_entries(p, fi, entry, eligible, work, &nwork, queued);
	}
	p->entry_calm = xcalloc(n + 1, 1);
	p->entry_quiet = xcalloc(n + 1, 1);
	for (int fi = 0; fi < n; fi++) {
		p->entry_calm[fi] = eligible[fi] && entry[fi].calm;
		p->entry_quiet[fi] = eligible[fi] && entry[fi].threads != THREADS_RUNNING;
	}
	free(entry);
	free(eligible);
	free(queued);
	free(work);
}

static int add_root(struct thread_roots *r, int root)
{
	if (r->many)
		return 0;
	for (int i = 0; i < r->n; i++)
		if (r->v[i] == root)
			return 0;
	if (r->n == MAX_THREAD_ROOTS)
		r->many = 1;
	else
		r->v[r->n++] = root;
	return 1;
}

int synchronises(const struct event *e)
{
	return (e->kind == EV_ACCESS && e->marked) || e->kind == EV_BARRIER || e->kind == EV_LOCK ||
	       e->kind == EV_UNLOCK;
}

/* Is event E of a plain helper's kind: no synchronisation (a marked
 * access, a barrier, a thread creation or join, a lock or unlock), an
 * access only through a pointer parameter of function KEY (or to a
 * private local), and a call that passes no global variable? */
static int helper_event(const struct event *e, const char *key)
{
	if (synchronises(e))
		return 0;
	if (e->kind == EV_ACCESS && e->obj.kind != OBJ_LOCAL) {
		int through_param = 0;

		for (int k = 0; k < e->deps.n && !through_param; k++)
			through_param = e->deps.v[k].role == DEP_ADDRESS && e->deps.v[k].kind == DEP_PARAM &&
					strcmp(e->deps.v[k].name, key) == 0;
		return through_param;
	}
	for (int a = 0; e->kind == EV_CALL && a < e->argv.n; a++)
		if (e->argv.ref[a].kind == OBJ_USR && e->argv.ref[a].global)
			return 0;
	return 1;
}

/* Per function: is it a plain helper of what its callers pass it
 * (list_replace(old, new)): it synchronises nothing and touches shared
 * memory only through its pointer parameters, itself and through the
 * functions of the tree it calls?  A fixpoint from "all helpers" down,
 * over the call edges. */
static unsigned char *plain_helpers(struct program *p)
{
	unsigned char *plain = xcalloc((size_t)p->nfns + 1, 1);
	int changed = 1;

	for (int fi = 0; fi < p->nfns; fi++) {
		plain[fi] = 1;
		for (int b = 0; b < p->fns[fi].nblocks && plain[fi]; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents && plain[fi]; i++)
				plain[fi] = helper_event(&p->fns[fi].blocks[b].events[i], p->fns[fi].link_key);
	}
	while (changed) {
		changed = 0;
		for (int fi = 0; fi < p->nfns; fi++)
			for (int b = 0; b < p->fns[fi].nblocks && plain[fi]; b++)
				for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++) {
					const struct event *e = &p->fns[fi].blocks[b].events[i];
					struct summary *s;

					if (e->kind == EV_CALL && (s = callee_of(p, e, &p->fns[fi])) && !plain[s - p->sums]) {
						plain[fi] = 0;
						changed = 1;
						break;
					}
				}
	}
	return plain;
}

/* Is PATH a header's name (a header scanned as a translation unit of its
 * own: its static inline functions are what the files that include it
 * call, its API, not statics of a .c file that nothing calls)? */
static int is_header_name(const char *path)
{
	static const char *const suffixes[] = { ".h", ".hh", ".hpp", ".hxx", ".inc" };
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && strcmp(path + n - k, suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

/* Fills out->roots and out->unknown_root (struct analysis): each entry
 * point is a root of itself, and a callee inherits its callers' roots (a
 * worklist over the call edges; pthread_create starts a root instead). */
void find_thread_roots(struct program *p)
{
	int n = p->nfns, nedges, *queue = xcalloc(n + 1, sizeof *queue);
	int qhead = 0, qlen = 0, *head = new_heads(n), *next;
	struct call_edge *edges;
	unsigned char *queued = xcalloc(n + 1, 1), *taken;
	struct hashmap used = { 0 };      /* link keys that run */
	struct hashmap primitives = { 0 };   /* names the vocabulary matched */
	unsigned char *plain;
	struct analysis *a = p->out;

	a->roots = xcalloc(n + 1, sizeof *a->roots);
	a->unknown_root = xcalloc(n + 1, 1);
	a->started_root = xcalloc(n + 1, 1);
	edges = call_edges(p, &nedges);
	next = new_heads(nedges);
	for (int k = nedges - 1; k >= 0; k--) {
		next[k] = head[edges[k].caller];
		head[edges[k].caller] = k;
	}
	/* A function of internal linkage ("path:name") defined in its
	 * translation unit's own .c file, that nothing there calls or takes
	 * the address of, never runs: no other file can call it, so it is no
	 * entry point of a library (an unused static inline list helper,
	 * list_move_tail()).  It is no root, and nothing it does runs with
	 * anything (W18).  A header's static inline stays an entry point: a
	 * file outside the tree, or one the scan did not see (built with
	 * -DTEST), may include the header and call it. */
	taken = address_taken(p);
	a->never_runs = xcalloc(n + 1, 1);
	/* (a header's static inline is one function per file that includes
	 * it, under one link key, and a call binds to one of them: the key is
	 * used when any of its definitions is) */
	for (int fi = 0; fi < n; fi++)
		if (p->called[fi] || taken[fi] || p->started[fi] || is_constructor(&p->fns[fi]))
			hashmap_put_str(&used, p->fns[fi].link_key, NULL);
	/* (a call that the vocabulary takes for a primitive of the same name
	 * still runs the tree's function: read_lock() defined by the program
	 * is no rwlock) */
	for (int fi = 0; fi < n; fi++)
		for (int b = 0; b < p->fns[fi].nblocks; b++)
			for (int i = 0; i < p->fns[fi].blocks[b].nevents; i++)
				if (p->fns[fi].blocks[b].events[i].name)
					hashmap_put_str(&primitives, p->fns[fi].blocks[b].events[i].name, NULL);
	/* A plain helper (list_replace(old, new): no synchronisation, and
	 * shared memory only through its pointer parameters) that nothing in
	 * the tree calls, starts or takes the address of runs on whatever
	 * instance its caller passes, under whatever its caller holds: with
	 * no caller in the tree, nothing names its instance, and it pairs
	 * with nothing (pairing it with the tree's own lists merged every
	 * list of the tree into one).  A function that synchronises (a
	 * lockless library's entry point) or names a global (a getter that
	 * reads a counter without its lock) stays an entry point. */
	plain = plain_helpers(p);
	for (int fi = 0; fi < n; fi++)
		a->never_runs[fi] = !hashmap_get_str(&used, p->fns[fi].link_key) &&
				    !hashmap_get_str(&primitives, p->fns[fi].name) &&
				    ((strchr(p->fns[fi].link_key, ':') && p->fns[fi].file && p->fns[fi].tu &&
				      strcmp(p->fns[fi].file, p->fns[fi].tu) == 0 && !is_header_name(p->fns[fi].tu)) ||
				     (plain[fi] && strcmp(p->fns[fi].name, "main") != 0));
	free(plain);
	hashmap_free(&used);
	hashmap_free(&primitives);
	free(taken);
	for (int fi = 0; fi < n; fi++) {
		int is_main = strcmp(p->fns[fi].name, "main") == 0;

		if (a->never_runs[fi])
			continue;
		if (!p->called[fi] || p->started[fi] || is_main || is_constructor(&p->fns[fi])) {
			a->unknown_root[fi] = !p->called[fi] && !p->started[fi] && !is_main &&
					      !is_constructor(&p->fns[fi]);
			a->started_root[fi] = p->started[fi] != 0;
			add_root(&a->roots[fi], fi);
			queue[qlen++] = fi;
			queued[fi] = 1;
		}
	}
	while (qlen) {
		int f = queue[qhead];

		qhead = (qhead + 1) % (n + 1);
		qlen--;
		queued[f] = 0;
		for (int k = head[f]; k >= 0; k = next[k]) {
			struct thread_roots *to = &a->roots[edges[k].callee];
			int changed = 0;

			if (a->roots[f].many && !to->many)
				changed = to->many = 1;
			for (int i = 0; i < a->roots[f].n; i++)
				changed |= add_root(to, a->roots[f].v[i]);
			if (changed && !queued[edges[k].callee]) {
				queued[edges[k].callee] = 1;
				queue[(qhead + qlen++) % (n + 1)] = edges[k].callee;
			}
		}
	}
	free(edges);
	free(head);
	free(next);
	free(queue);
	free(queued);
}

/* Do thread entry points X and Y belong to two different programs of the
 * tree (each reached from one main() only, not the same one)?  Two
 * programs never run in one process, so neither do their threads: the
 * start routine of one test and that of another. */
static int other_programs(const struct analysis *a, int x, int y)
{
	return a->program_of && a->program_of[x] > 0 && a->program_of[y] > 0 &&
	       a->program_of[x] != a->program_of[y];
}

int may_run_concurrently(const struct analysis *a, const struct function *f, const struct function *g)
{
	const struct thread_roots *x = &a->roots[f - a->fns], *y = &a->roots[g - a->fns];

	/* (a function no entry point reaches runs in no thread: see
	 * count_instances) */
	if (a->never_runs[f - a->fns] || a->never_runs[g - a->fns] || (!x->many && x->n == 0) ||
	    (!y->many && y->n == 0))
		return 0;
	if (x->many || y->many)
		return 1;
	for (int i = 0; i < x->n; i++)
		if (a->unknown_root[x->v[i]])
			return 1;
	for (int j = 0; j < y->n; j++)
		if (a->unknown_root[y->v[j]])
			return 1;
	for (int i = 0; i < x->n; i++)
		for (int j = 0; j < y->n; j++) {
			if (x->v[i] != y->v[j] && is_program_main(a->fns, x->v[i]) &&
			    is_program_main(a->fns, y->v[j]))
				continue;       /* two programs' main() threads */
			if (other_programs(a, x->v[i], y->v[j]))
				continue;       /* threads of two programs */
			if (x->v[i] != y->v[j] && start_routines_apart(a, x->v[i], y->v[j]))
				continue;       /* two phases of one main() */
			if (x->v[i] != y->v[j] || a->instances[x->v[i]] >= 2)
				return 1;
		}
	return 0;
}

int runs_concurrently_with_itself(const struct analysis *a, const struct function *fn)
{
	return a->instances[fn - a->fns] >= 2;
}

int run_together(const struct analysis *a, const struct function *f, const struct function *g)
{
	return f == g ? runs_concurrently_with_itself(a, f) : may_run_concurrently(a, f, g);
}

/* Does every thread entry point that reaches R the tree know (no library
 * entry point, not too many to tell), and is one of them a start routine?
 * Then *STARTED says so. */
static int known_roots(const struct analysis *a, const struct thread_roots *r, int *started)
{
	if (r->many || r->n == 0)
		return 0;
	for (int i = 0; i < r->n; i++) {
		if (a->unknown_root[r->v[i]])
			return 0;
		*started |= a->started_root[r->v[i]];
	}
	return 1;
}

int threads_started_together(const struct analysis *a, const struct function *f, const struct function *g)
{
	int started = 0;

	if (!known_roots(a, &a->roots[f - a->fns], &started) || !known_roots(a, &a->roots[g - a->fns], &started))
		return 0;
	if (!started)
		return 0;
	return run_together(a, f, g);
}
