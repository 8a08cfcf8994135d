/* analyzer/analysis/split.c — the final runs of the solver split over
 * threads by the kinds of facts they record (see internal.h).
 *
 * Two thirds of the solver's time is recording facts (every pending plain
 * access checked against every marked access, every access's locks),
 * which nothing in the summaries depends on.  The kinds of facts go to
 * arrays of their own, each kept in the order the functions are run, and
 * each kind is recorded by one thread only.  So the leader (the thread
 * that calls solve_summaries) solves the summaries in call-graph order as
 * it always did and records its kinds; a follower runs each function's
 * final run again after the leader, in the same order, and records the
 * other kinds.  Every array then gets exactly what one thread would have
 * put in it, in the same order: the result does not depend on the number
 * of threads or on their timing.
 *
 * What a follower's run reads stays as the leader left it: the summaries
 * of the component and of its callees (final: the leader only replaces
 * the summaries of later components), the call views (one slot per call,
 * allocated here before the solver starts, so that the leader never moves
 * them) and the clones (made by the leader in its run of the same
 * function; the map is read and added to under the shared lock).  A
 * follower makes nothing shared, replaces no summary and counts no cap.
 * A recursive component whose summaries did not settle is run by the
 * leader alone (solver.c), after the followers have caught up. */
#include "internal.h"

struct follower {
	struct split *s;
	pthread_t thread;
	unsigned emit;                /* the kinds it records */
	int next;                     /* the next component it runs */
};

struct split {
	struct program *p;
	pthread_mutex_t lock;         /* the components and the followers' next */
	pthread_cond_t more, caught_up;
	int *members, nmembers, memcap;   /* the components pushed, in order */
	int *ends, ncomps, endcap;        /* component K ends at members[ends[K]] */
	int finished;                 /* no component will be pushed */
	int views_freed;              /* the components whose views are freed */
	struct follower *f;
	int nf;
	unsigned leader_emit;
	pthread_mutex_t shared;       /* p->out->shared_lock */
};

static _Thread_local int following;

int split_following(void)
{
	return following;
}

unsigned split_leader_emit(const struct split *s)
{
	return s ? s->leader_emit : EMIT_ALL;
}

static void *follow(void *arg)
{
	struct follower *me = arg;
	struct split *s = me->s;
	int *run = NULL, cap = 0;

	following = 1;
	analysis_caps_mute();
	pthread_mutex_lock(&s->lock);
	for (;;) {
		int from, n;

		while (me->next == s->ncomps && !s->finished)
			pthread_cond_wait(&s->more, &s->lock);
		if (me->next == s->ncomps)
			break;
		from = me->next ? s->ends[me->next - 1] : 0;
		n = s->ends[me->next] - from;
		grow(&run, &cap, n, sizeof *run);
		memcpy(run, s->members + from, (size_t)n * sizeof *run);
		pthread_mutex_unlock(&s->lock);
		for (int i = 0; i < n; i++)
			run_function(s->p, run[i], me->emit, 1);
		pthread_mutex_lock(&s->lock);
		me->next++;
		pthread_cond_broadcast(&s->caught_up);
	}
	pthread_mutex_unlock(&s->lock);
	free(run);
	return NULL;
}

struct split *split_start(struct program *p, int threads)
{
	/* The followers' kinds.  One follower records the writer and reader
	 * sides, the locks and the early links; two share those and the late
	 * links (more threads than that would find nothing to share).  The
	 * leader keeps the rest, and the summaries, which are most of its
	 * time.  The kinds are split so that neither waits long for the
	 * other.  On Open vSwitch's analysis at -j 2 (three interleaved runs
	 * each), with the late links on the follower it ran 6.5-7.0 s and
	 * the leader waited 0.6-1.0 s for it at the end (the analysis took
	 * 9.5-9.8 s); with them on the leader, 5.5-6.0 s and a wait of
	 * 0.1-0.6 s (8.5-8.8 s); with the early links on the leader too, the
	 * leader became the slower (9.4-10.1 s).  A thread keeps the seen and
	 * published sets only for the kinds it records (fn_ctx.records): the
	 * leader keeps the published sets, the follower the seen sets. */
	static const unsigned kinds[2][2] = {
		{ EMIT_WRITER | EMIT_READER | EMIT_LOCKS | EMIT_EARLY, 0 },
		{ EMIT_WRITER | EMIT_LOCKS | EMIT_EARLY | EMIT_LATE, EMIT_READER },
	};
	struct split *s;

	if (threads < 2)
		return NULL;
	s = xcalloc(1, sizeof *s);
	s->p = p;
	s->nf = threads > 3 ? 2 : threads - 1;
	s->leader_emit = EMIT_ALL & ~(kinds[s->nf - 1][0] | kinds[s->nf - 1][1]);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->shared, NULL);
	pthread_cond_init(&s->more, NULL);
	pthread_cond_init(&s->caught_up, NULL);
	/* A view per call of the tree's own functions (the only events the
	 * solver asks views of), so that call_view_of never moves them. */
	if (p->nviews < p->next_gid + 1) {
		p->views = xrealloc(p->views, ((size_t)p->next_gid + 1) * sizeof *p->views);
		memset(p->views + p->nviews, 0, (size_t)(p->next_gid + 1 - p->nviews) * sizeof *p->views);
		p->nviews = p->next_gid + 1;
	}
	p->out->shared_lock = &s->shared;
	s->f = xcalloc((size_t)s->nf, sizeof *s->f);
	for (int i = 0; i < s->nf; i++) {
		s->f[i].s = s;
		s->f[i].emit = kinds[s->nf - 1][i];
	}
	for (int i = 0; i < s->nf; i++) {
		if (pthread_create(&s->f[i].thread, NULL, follow, &s->f[i]) != 0) {
			/* No thread: the leader records its kinds too. */
			for (int k = i; k < s->nf; k++)
				s->leader_emit |= s->f[k].emit;
			s->nf = i;
			break;
		}
	}
	if (s->nf == 0) {
		p->out->shared_lock = NULL;
		free(s->f);
		pthread_mutex_destroy(&s->lock);
		pthread_mutex_destroy(&s->shared);
		pthread_cond_destroy(&s->more);
		pthread_cond_destroy(&s->caught_up);
		free(s);
		return NULL;
	}
	return s;
}

/* Frees the call views of the components every follower has run (the
 * leader's own runs of them are over too), up to UPTO. */
static void free_views_run(struct split *s, int upto)
{
	for (; s->views_freed < upto; s->views_freed++)
		for (int i = s->views_freed ? s->ends[s->views_freed - 1] : 0; i < s->ends[s->views_freed]; i++)
			free_call_views(s->p, s->members[i]);
}

/* The number of components every follower has run (under s->lock). */
static int all_followed(const struct split *s)
{
	int done = s->ncomps;

	for (int i = 0; i < s->nf; i++)
		if (s->f[i].next < done)
			done = s->f[i].next;
	return done;
}

void split_push(struct split *s, const int *members, int n)
{
	int done;

	pthread_mutex_lock(&s->lock);
	grow(&s->members, &s->memcap, s->nmembers + n, sizeof *s->members);
	memcpy(s->members + s->nmembers, members, (size_t)n * sizeof *members);
	s->nmembers += n;
	grow(&s->ends, &s->endcap, s->ncomps + 1, sizeof *s->ends);
	s->ends[s->ncomps++] = s->nmembers;
	pthread_cond_broadcast(&s->more);
	done = all_followed(s);
	pthread_mutex_unlock(&s->lock);
	/* (outside the lock: the followers are past these components, and
	 * only the leader frees) */
	free_views_run(s, done);
}

void split_drain(struct split *s)
{
	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < s->nf; i++)
		while (s->f[i].next < s->ncomps)
			pthread_cond_wait(&s->caught_up, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

void split_finish(struct split *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->finished = 1;
	pthread_cond_broadcast(&s->more);
	pthread_mutex_unlock(&s->lock);
	for (int i = 0; i < s->nf; i++)
		pthread_join(s->f[i].thread, NULL);
	free_views_run(s, s->ncomps);
	s->p->out->shared_lock = NULL;
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->shared);
	pthread_cond_destroy(&s->more);
	pthread_cond_destroy(&s->caught_up);
	free(s->members);
	free(s->ends);
	free(s->f);
	free(s);
}
