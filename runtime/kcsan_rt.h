/*
 * kcsan_rt.h — internal interface of the kcsan-scan runtime.
 *
 * The runtime implements the -fsanitize=thread instrumentation ABI (the
 * __tsan_* entry points that clang >= 14 and gcc >= 12 emit) with KCSAN's
 * algorithm instead of libtsan's: no shadow memory, a small table of "soft
 * watchpoints", sampling, a delay window, and the weak-memory model of the
 * Linux KCSAN series (simulated delaying of one plain access per thread until
 * a barrier orders it or the function that made it returns).
 *
 * Files (one job each):
 *   options_table.h  every option: name, type, default, help (and the
 *                    environment variables), shared with the CLI
 *   options.c        KCSAN_OPTIONS parsing (once, at init), verbose=1 line
 *   context.c        per-thread context, thread ids, sampling counter, init
 *   encoding.h       how a watchpoint is packed into one machine word
 *   core.c           watchpoint table, check_access, watch / consume
 *   weakmem.c        the reordered access, barriers, function scope
 *   report.c         report formatting, de-duplication
 *   dbwrite.c        recording a report into the database of $KCSAN_DB
 *                    (the rows: db/races.c, built into the runtime too)
 *   srcline.c        code address -> file:line (libdw, loaded on demand)
 *   symbolize.c      code address -> function+offset (dladdr, ELF .symtab)
 *   fastpath.h       the inlined first test of every access, func entry/exit
 *   tsan_access.c    __tsan_{read,write,unaligned,volatile}*, ranges, mem*
 *   tsan_atomic.c    __tsan_atomic{8,16,32,64}_*, fences
 *   tsan_atomic128.c __tsan_atomic128_* (needs -latomic; own object so that
 *                    programs without 128-bit atomics do not pull it in)
 *   hooks.c          the weak hooks of <kcsan/lkmm.h> (data_race, asserts)
 *   annotate.c       ThreadSanitizer's annotations: __tsan_acquire/release,
 *                    the dynamic annotations (Annotate*), benign races,
 *                    ignored reads/writes
 *   tsan_mutex.c     __tsan_mutex_* (custom mutexes announced by a library)
 *   interpose.c      pthread / semaphore wrappers with their real ordering
 *   heap.c           free / realloc / munmap wrappers: freed memory is no
 *                    longer watched nor delayed
 *   signals.c        sigaction/signal wrappers: handlers are nested contexts
 *   overflow.c       a line on stderr when the program dies of SIGSEGV/SIGBUS
 *                    (stack overflow: alternate signal stacks per thread)
 *   asmbarrier.c     __kcsan_asm_barrier: inline-asm barriers, announced
 *                    by the clang plugin (plugin/kcsan_asm.cpp)
 *   membarrier.c     membarrier(2): a barrier of every thread (the epoch
 *                    that ends the delayed accesses made before it)
 *   focus.c          watching the static candidates more often, static
 *                    barriers (focus.h; focus_db.c reads the database,
 *                    focus_map.c maps sites to code with the line table)
 *
 * Nothing in the runtime is built with -fsanitize=thread: its own accesses
 * are never instrumented.  Re-entry (a wrapper called from inside the
 * runtime, a signal handler interrupting it) is stopped by ctx->in_rt.
 */
#ifndef KCSAN_RT_H
#define KCSAN_RT_H

#include <stddef.h>
#include <stdint.h>

#include "options_table.h"

/* Access type bits (same meaning as the kernel's KCSAN_ACCESS_*). */
#define KCSAN_ACCESS_WRITE	0x1	/* write (or RMW) */
#define KCSAN_ACCESS_COMPOUND	0x2	/* read-modify-write */
#define KCSAN_ACCESS_ATOMIC	0x4	/* marked: volatile/atomic; never watched */
#define KCSAN_ACCESS_SCOPED	0x8	/* re-check of the delayed (reordered) access */
#define KCSAN_ACCESS_ASSERT	0x10	/* ASSERT_EXCLUSIVE_*: not a real access */
#define KCSAN_ACCESS_IGNORED	0x20	/* made while the thread ignores such
					   accesses (annotate.c): it only
					   silences the watchpoint it hits */

/* Barrier kinds, as decoded from the lkmm.h signal-fence markers, from C11
 * memory orders, and from pthread synchronisation. */
enum kcsan_barrier {
	KCSAN_BARRIER_MB,	/* full barrier, fully ordered RMW */
	KCSAN_BARRIER_WMB,	/* orders earlier writes */
	KCSAN_BARRIER_RMB,	/* orders earlier reads */
	KCSAN_BARRIER_RELEASE,	/* orders every earlier access */
};

/*
 * The one access per thread that is simulated as delayed ("reordered").
 * size == 0 means none is in flight.  depth is the function nesting depth
 * (count of __tsan_func_entry minus __tsan_func_exit) when it was selected:
 * it stays delayed until the function at that depth returns.
 */
struct kcsan_reorder {
	const volatile void *ptr;
	size_t size;
	int type;		/* access type | KCSAN_ACCESS_SCOPED */
	int depth;
	uintptr_t ip;		/* where the access was made */
	/* KCSAN_PUBLISH_*: has a marked write (a possible publication) been
	 * made while the access was delayed?  See weakmem.c. */
	int publish;
	uintptr_t publish_ip;	/* that marked write */
	int focus_rechecked;	/* focus.c armed its watched re-check */
	/* focus.c: the function that made it has a static barrier, which
	 * the accesses after it must look for (kcsan_focus_barriers). */
	int static_barriers;
	unsigned long epoch;	/* kcsan_mb_epoch when it was delayed */
};

#define KCSAN_PUBLISH_NONE	0	/* no marked write since the access */
#define KCSAN_PUBLISH_PENDING	1	/* one was made: watch the next re-check */
#define KCSAN_PUBLISH_DONE	2	/* the re-check after it was watched */

/* Call sites kept per thread (the shadow call stack filled by
 * __tsan_func_entry) and frames kept per reported access. */
#define KCSAN_STACK_MAX		64
#define KCSAN_REPORT_FRAMES	8

struct kcsan_ctx {
	int in_rt;		/* inside the runtime: ignore everything */
	int disable;		/* data_race() / __kcsan_disable_current nesting */
	/* AnnotateIgnore{Reads,Writes,Sync}Begin nesting and the
	 * __tsan_mutex_pre_* regions (annotate.c); only the slow path and the
	 * barriers look at them. */
	int ignore_reads, ignore_writes, ignore_sync;
	int depth;		/* function nesting depth (weak-memory scope) */
	int nested;		/* running a signal handler (signals.c) */
	unsigned int handlers;	/* signal handlers run so far (signals.c) */
	unsigned int tid;	/* small sequential id, 1 = first thread seen */
	long skip;		/* accesses left before the next watchpoint */
	uint64_t rng;		/* xorshift state for the randomised skip/delay */
	struct kcsan_reorder reorder;
	unsigned int focus_state;	/* focus.c: this access / re-check is focused */
	unsigned long gated;	/* calls of kcsan_check_gated (fastpath.h) */
	/* Delay budget (core.c, max_delay_pct): when this thread was first
	 * seen and how long it has spent in delay windows, nanoseconds. */
	uint64_t born_ns, delayed_ns;
	/* stack[d] is the call site (return address) of the function entered
	 * at depth d+1; only depths < KCSAN_STACK_MAX are kept. */
	uintptr_t stack[KCSAN_STACK_MAX];
};

/* Options (options_table.h, parsed by options.c); read-only after init.
 * One field per option of the table, of its KIND's type; a LOG option's
 * field is log_fd, below. */
#define KCSAN_OPT_FIELD_INT(name)	int name;
#define KCSAN_OPT_FIELD_LONG(name)	long name;
#define KCSAN_OPT_FIELD_ULONG(name)	unsigned long name;
#define KCSAN_OPT_FIELD_LOG(name)
#define KCSAN_OPT_FIELD(name, kind, def, help) KCSAN_OPT_FIELD_##kind(name)
struct kcsan_options {
	KCSAN_OPTION_TABLE(KCSAN_OPT_FIELD)
	int log_fd;			/* where reports go (stderr or log_path) */
};
extern struct kcsan_options kcsan_opts;
void kcsan_parse_options(const char *s);
/* verbose=1: every option's value, one line on log_fd. */
void kcsan_print_options(void);

/* context.c */
extern int kcsan_initialized;
void kcsan_init(void);
/* The calling thread's context, inline (initial-exec TLS: one instruction);
 * the first use in a thread sets it up (kcsan_ctx_first_use). */
extern __thread struct kcsan_ctx kcsan_tls __attribute__((tls_model("initial-exec")));
void kcsan_ctx_first_use(struct kcsan_ctx *ctx);
static inline struct kcsan_ctx *kcsan_get_ctx(void)
{
	struct kcsan_ctx *ctx = &kcsan_tls;

	if (__builtin_expect(ctx->tid == 0, 0))
		kcsan_ctx_first_use(ctx);
	return ctx;
}
uint64_t kcsan_rand(struct kcsan_ctx *ctx);
void kcsan_reset_skip(struct kcsan_ctx *ctx);

/* delay.c: the watchpoints' delay windows and their budget
 * (max_delay_pct), by what chose the watched access; verbose=1's account
 * of them at exit. */
enum kcsan_window {
	KCSAN_WINDOW_SAMPLED,	/* ordinary sampling (skip_watch) */
	KCSAN_WINDOW_FOCUSED,	/* focus: a candidate's burst or pace */
	KCSAN_WINDOW_RECHECK,	/* a delayed access re-checked after a publication
				 * (or focus's after its paired marked access) */
	KCSAN_WINDOW_KINDS
};
int kcsan_delay_allowed(struct kcsan_ctx *ctx, enum kcsan_window kind);
void kcsan_delay_window(struct kcsan_ctx *ctx, enum kcsan_window kind);
void kcsan_delay_summary(void);

/* core.c: the slow path of the check every instrumented access makes
 * (kcsan_check in fastpath.h is the fast one). */
void kcsan_check_access(const volatile void *ptr, size_t size, int type,
			uintptr_t ip);
void __kcsan_check_access_ctx(struct kcsan_ctx *ctx, const volatile void *ptr,
			      size_t size, int type, uintptr_t ip,
			      int is_reorder, uintptr_t to_ip);

/* heap.c calls these before memory is freed (free, realloc, munmap):
 * core.c turns the watchpoints on it into KCSAN_WP_FREED (encoding.h);
 * weakmem.c ends the thread's delayed access to it. */
void kcsan_forget_watchpoints(uintptr_t addr, size_t size);
void kcsan_release_range(struct kcsan_ctx *ctx, uintptr_t addr, size_t size);

/* weakmem.c */
void kcsan_set_reorder(struct kcsan_ctx *ctx, const volatile void *ptr,
		       size_t size, int type, uintptr_t ip);
void kcsan_barrier(struct kcsan_ctx *ctx, enum kcsan_barrier kind);
void kcsan_barrier_memorder(struct kcsan_ctx *ctx, int memorder);
void kcsan_signal_fence(struct kcsan_ctx *ctx, int encoded);
void kcsan_func_exit(struct kcsan_ctx *ctx, uintptr_t ip);
/* The first re-check after a publication is always watched (weakmem.c). */
int kcsan_reorder_force_watch(struct kcsan_ctx *ctx);
void kcsan_reorder_note_access(struct kcsan_ctx *ctx, int type, uintptr_t ip);
/* Release semantics of an uninstrumented synchronisation call (unlock...). */
void kcsan_sync_release(void);
/* The same for a synchronisation of C11 order MEMORDER (__ATOMIC_*) on
 * no particular access: __tsan_acquire/release and the annotations. */
void kcsan_sync_memorder(int memorder);

/* membarrier.c: the count of barrier membarrier() calls returned so far;
 * a delayed access of an older epoch is ordered (the rule is there). */
extern unsigned long kcsan_mb_epoch;
void kcsan_membarrier_init(void);
/* 1 if the thread's delayed access was made before the last membarrier:
 * it is then dropped (no last check: the barrier ran in the past). */
static inline int kcsan_reorder_expired(struct kcsan_ctx *ctx)
{
	if (ctx->reorder.size &&
	    ctx->reorder.epoch != __atomic_load_n(&kcsan_mb_epoch, __ATOMIC_ACQUIRE)) {
		ctx->reorder.size = 0;
		return 1;
	}
	return 0;
}

/* heap.c: memory [p, p+size) changes owner (freed; AnnotateNewMemory):
 * the thread's delayed access to it ends, watchpoints on it are dropped. */
void kcsan_release_memory(struct kcsan_ctx *ctx, const void *p, size_t size);

/* annotate.c: is [ptr, ptr+size) inside a range announced as a benign race
 * (AnnotateBenignRace*)?  report.c then stays silent.  Is an access of
 * TYPE ignored by the calling thread (AnnotateIgnore*, mutex regions)? */
int kcsan_benign_race(const volatile void *ptr, size_t size);
/* annotate.c: a thread enters / leaves a region whose writes it ignores
 * (AnnotateIgnoreWrites*, a mutex's own code).  An ignored write may take
 * the fast path, unseen by a watchpoint set up meanwhile, and change the
 * watched value: a change of unknown origin is then the ignored writer's,
 * not a race to report.  kcsan_ignore_writes_mark() before the watch,
 * kcsan_unseen_writer_ignored(MARK) after it: was any thread inside such
 * a region at the end, or did one end since?  (A thread that exits inside
 * a region leaves it counted: changes of unknown origin are then never
 * reported.) */
void kcsan_ignore_writes_begin(struct kcsan_ctx *ctx);
void kcsan_ignore_writes_end(struct kcsan_ctx *ctx);
unsigned long kcsan_ignore_writes_mark(void);
int kcsan_unseen_writer_ignored(unsigned long mark);
static inline int kcsan_access_ignored(const struct kcsan_ctx *ctx, int type)
{
	if (type & KCSAN_ACCESS_WRITE)
		return ctx->ignore_writes > 0 ||
		       ((type & KCSAN_ACCESS_COMPOUND) && ctx->ignore_reads > 0);
	return ctx->ignore_reads > 0;
}

/* overflow.c: kcsan_overflow_init from __tsan_init (main thread, the
 * handlers), kcsan_thread_start first in every thread the pthread_create
 * wrapper starts; signals.c asks it about SIGSEGV/SIGBUS's disposition
 * (kcsan_overflow_default: 1 if the program's SIG_DFL was replaced by the
 * runtime's handler; kcsan_overflow_hide: the runtime's handler shows as
 * SIG_DFL in an old action).  kcsan_real_sigaction is signals.c's. */
struct sigaction;
void kcsan_overflow_init(void);
void kcsan_thread_start(void);
int kcsan_overflow_default(int sig);
void kcsan_overflow_hide(struct sigaction *old);
int kcsan_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* report.c */
struct kcsan_access_info {
	const volatile void *ptr;
	size_t size;
	int type;
	unsigned int tid;
	uintptr_t ip;
	int reordered;		/* the access was the delayed one */
	uintptr_t to_ip;	/* ... and was checked again here */
	int published;		/* ... and a marked write was made while it
				   was delayed (a publication it may miss) */
	int expired;		/* ... and a membarrier() ordered it before its
				   re-check was over (membarrier.c): no race */
	/* Callers, innermost first (frame 0, the access itself, is ip). */
	uintptr_t frames[KCSAN_REPORT_FRAMES - 1];
	int nframes;
};
/* Fills a->frames from the shadow stack as it was at function depth DEPTH
 * (the depth of the function that made the access). */
void kcsan_capture_stack(const struct kcsan_ctx *ctx, int depth,
			 struct kcsan_access_info *a);
void kcsan_report_race(const struct kcsan_access_info *watcher,
		       const struct kcsan_access_info *other,
		       int value_changed, uint64_t old, uint64_t new_);
/* Public (tests call it): number of reports printed. */
__attribute__((visibility("default"))) unsigned long kcsan_rt_reports(void);

/* dbwrite.c: records one report into $KCSAN_DB (when set); never from a
 * nested context, never fails the program. */
void kcsan_db_record(const struct kcsan_access_info *watcher,
		     const struct kcsan_access_info *other);

/* srcline.c: source file (absolute when DWARF allows, normalised) and
 * line (never 0) of code address pc (an instruction address, not a return
 * address); 1 if found, else file is "" and line 0.  Thread-safe (its own
 * lock); 0 from a nested context. */
int kcsan_srcline(uintptr_t pc, char *file, size_t fn, int *line);
/* The same; when the line table gives pc line 0 and the line is that of
 * the call of the inlined function holding pc, that function's name into
 * inl (inln bytes; "" otherwise). */
int kcsan_srcline_inl(uintptr_t pc, char *file, size_t fn, int *line, char *inl, size_t inln);

/* symbolize.c: 1 if a function name was found for pc; *module (or NULL)
 * and *mod_off are filled whenever the module is known. */
int kcsan_symbolize(uintptr_t pc, char *func, size_t fn, uintptr_t *func_off,
		    const char **module, uintptr_t *mod_off);

#endif /* KCSAN_RT_H */
