/*
 * annotate.c — ThreadSanitizer's annotation interface, which libraries built
 * with -fsanitize=thread call to describe synchronisation the compiler
 * cannot see (liburcu's urcu/annotate.h, Abseil, folly, Chromium's
 * dynamic_annotations.h):
 *
 *   __tsan_release(addr)       a release on addr: like a release barrier,
 *   AnnotateHappensBefore      it ends the thread's delayed access
 *   AnnotateRWLockReleased     (weakmem.c, via kcsan_sync_memorder)
 *   __tsan_acquire(addr)       an acquire: orders *later* accesses, which
 *   AnnotateHappensAfter       the model (it only delays accesses) never
 *   AnnotateRWLockAcquired     moves up -- so, as for smp_load_acquire or an
 *                              acquire atomic, nothing ends
 *   AnnotateBenignRace[Sized]  reports on the range are silent (a table of
 *                              ranges that report.c asks)
 *   AnnotateIgnore{Reads,Writes}Begin/End
 *                              per-thread nesting counters: the accesses in
 *                              between are not watched nor reported
 *                              (core.c, on the slow path only: the fast
 *                              path never looks at them)
 *   AnnotateIgnoreSyncBegin/End
 *                              barriers in between end nothing (weakmem.c)
 *   AnnotateNewMemory          the range changes owner: as for free()
 *                              (heap.c), no delayed access or watchpoint
 *                              on it survives
 * and the rest of the family as no-ops (what libtsan does with them too).
 * The __tsan_mutex_* annotations are in tsan_mutex.c.
 *
 * Signatures are those of compiler-rt's tsan_interface_ann.cpp (the
 * address parameters are declared as const volatile void * here, which
 * is ABI-compatible with the uptr and void * that callers declare).  The
 * orderings do nothing from inside the runtime (ctx->in_rt); the ignore
 * counters always count (they must stay balanced).
 */
#include <stddef.h>

#include "encoding.h"
#include "kcsan_rt.h"

/* The Annotate* and Valgrind names are weak: code that carries its own
 * definitions (a copy of valgrind's dynamic_annotations.c) still links,
 * and keeps them, as it would with the shared libtsan. */
#define ABI __attribute__((visibility("default")))
#define ANN __attribute__((visibility("default"), weak))

ABI void __tsan_acquire(void *addr);
ABI void __tsan_acquire(void *addr)
{
	(void)addr;
	kcsan_sync_memorder(__ATOMIC_ACQUIRE);
}

ABI void __tsan_release(void *addr);
ABI void __tsan_release(void *addr)
{
	(void)addr;
	kcsan_sync_memorder(__ATOMIC_RELEASE);
}

ANN void AnnotateHappensBefore(const char *f, int l, const volatile void *addr);
ANN void AnnotateHappensBefore(const char *f, int l, const volatile void *addr)
{
	(void)f, (void)l, (void)addr;
	kcsan_sync_memorder(__ATOMIC_RELEASE);
}

ANN void AnnotateHappensAfter(const char *f, int l, const volatile void *addr);
ANN void AnnotateHappensAfter(const char *f, int l, const volatile void *addr)
{
	(void)f, (void)l, (void)addr;
	kcsan_sync_memorder(__ATOMIC_ACQUIRE);
}

/* A reader-writer lock announced by the program: taking it is an acquire,
 * releasing it a release, whatever the mode (is_w). */
ANN void AnnotateRWLockAcquired(const char *f, int l, const volatile void *m, long is_w);
ANN void AnnotateRWLockAcquired(const char *f, int l, const volatile void *m, long is_w)
{
	(void)f, (void)l, (void)m, (void)is_w;
	kcsan_sync_memorder(__ATOMIC_ACQUIRE);
}

ANN void AnnotateRWLockReleased(const char *f, int l, const volatile void *m, long is_w);
ANN void AnnotateRWLockReleased(const char *f, int l, const volatile void *m, long is_w)
{
	(void)f, (void)l, (void)m, (void)is_w;
	kcsan_sync_memorder(__ATOMIC_RELEASE);
}

/*
 * Benign races.  A fixed table, appended to with a CAS and never shrunk:
 * annotations are few (one per known-benign variable), and a lock here
 * could be taken from a report made inside a signal handler.  A full table
 * drops the annotation (reports on it stay, nothing breaks).  An entry is
 * published by its size (0: not yet filled in).
 */
#define BENIGN_MAX 1024

static struct {
	uintptr_t addr;
	size_t size;
} benign[BENIGN_MAX];
static unsigned int benign_used;	/* entries claimed */

static void add_benign(const volatile void *mem, size_t size)
{
	unsigned int i = __atomic_load_n(&benign_used, __ATOMIC_RELAXED);

	if (!size)
		return;
	for (unsigned int j = 0; j < i && j < BENIGN_MAX; j++)
		if (__atomic_load_n(&benign[j].size, __ATOMIC_ACQUIRE) == size &&
		    benign[j].addr == (uintptr_t)mem)
			return;		/* announced again (a loop, a constructor) */
	i = __atomic_fetch_add(&benign_used, 1, __ATOMIC_RELAXED);
	if (i >= BENIGN_MAX) {
		__atomic_store_n(&benign_used, BENIGN_MAX, __ATOMIC_RELAXED);
		return;
	}
	benign[i].addr = (uintptr_t)mem;
	__atomic_store_n(&benign[i].size, size, __ATOMIC_RELEASE);
}

int kcsan_benign_race(const volatile void *ptr, size_t size)
{
	unsigned int n = __atomic_load_n(&benign_used, __ATOMIC_RELAXED);

	if (n > BENIGN_MAX)
		n = BENIGN_MAX;
	for (unsigned int i = 0; i < n; i++) {
		size_t s = __atomic_load_n(&benign[i].size, __ATOMIC_ACQUIRE);

		if (s && kcsan_ranges_overlap((uintptr_t)ptr, size, benign[i].addr, s))
			return 1;
	}
	return 0;
}

ANN void AnnotateBenignRaceSized(const char *f, int l, const volatile void *mem,
				 unsigned long size, const char *desc);
ANN void AnnotateBenignRaceSized(const char *f, int l, const volatile void *mem,
				 unsigned long size, const char *desc)
{
	(void)f, (void)l, (void)desc;
	add_benign(mem, size);
}

ANN void AnnotateBenignRace(const char *f, int l, const volatile void *mem, const char *desc);
ANN void AnnotateBenignRace(const char *f, int l, const volatile void *mem, const char *desc)
{
	(void)f, (void)l, (void)desc;
	add_benign(mem, 1);
}

/* WebKit's spelling of the same. */
ANN void WTFAnnotateBenignRaceSized(const char *f, int l, const volatile void *mem,
				    unsigned long size, const char *desc);
ANN void WTFAnnotateBenignRaceSized(const char *f, int l, const volatile void *mem,
				    unsigned long size, const char *desc)
{
	(void)f, (void)l, (void)desc;
	add_benign(mem, size);
}

/* Nesting counters; an unbalanced End is ignored rather than going
 * negative (as __kcsan_enable_current does). */
static inline void count_down(int *c)
{
	if (*c > 0)
		(*c)--;
}

ANN void AnnotateIgnoreReadsBegin(const char *f, int l);
ANN void AnnotateIgnoreReadsBegin(const char *f, int l)
{
	(void)f, (void)l;
	kcsan_get_ctx()->ignore_reads++;
}

ANN void AnnotateIgnoreReadsEnd(const char *f, int l);
ANN void AnnotateIgnoreReadsEnd(const char *f, int l)
{
	(void)f, (void)l;
	count_down(&kcsan_get_ctx()->ignore_reads);
}

/* Threads inside an ignore-writes region now, and the regions ended so
 * far (kcsan_unseen_writer_ignored). */
static unsigned long ignoring_writers, ignore_regions_ended;

void kcsan_ignore_writes_begin(struct kcsan_ctx *ctx)
{
	if (ctx->ignore_writes++ == 0)
		__atomic_fetch_add(&ignoring_writers, 1, __ATOMIC_SEQ_CST);
}

void kcsan_ignore_writes_end(struct kcsan_ctx *ctx)
{
	if (ctx->ignore_writes > 0 && --ctx->ignore_writes == 0) {
		__atomic_fetch_sub(&ignoring_writers, 1, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&ignore_regions_ended, 1, __ATOMIC_SEQ_CST);
	}
}

unsigned long kcsan_ignore_writes_mark(void)
{
	return __atomic_load_n(&ignore_regions_ended, __ATOMIC_SEQ_CST);
}

int kcsan_unseen_writer_ignored(unsigned long mark)
{
	return __atomic_load_n(&ignoring_writers, __ATOMIC_SEQ_CST) > 0 ||
	       __atomic_load_n(&ignore_regions_ended, __ATOMIC_SEQ_CST) != mark;
}

ANN void AnnotateIgnoreWritesBegin(const char *f, int l);
ANN void AnnotateIgnoreWritesBegin(const char *f, int l)
{
	(void)f, (void)l;
	kcsan_ignore_writes_begin(kcsan_get_ctx());
}

ANN void AnnotateIgnoreWritesEnd(const char *f, int l);
ANN void AnnotateIgnoreWritesEnd(const char *f, int l)
{
	(void)f, (void)l;
	kcsan_ignore_writes_end(kcsan_get_ctx());
}

ANN void AnnotateIgnoreSyncBegin(const char *f, int l);
ANN void AnnotateIgnoreSyncBegin(const char *f, int l)
{
	(void)f, (void)l;
	kcsan_get_ctx()->ignore_sync++;
}

ANN void AnnotateIgnoreSyncEnd(const char *f, int l);
ANN void AnnotateIgnoreSyncEnd(const char *f, int l)
{
	(void)f, (void)l;
	count_down(&kcsan_get_ctx()->ignore_sync);
}

/* Memory handed to a new owner by a custom allocator: what free() does
 * (heap.c), for the range given. */
ANN void AnnotateNewMemory(const char *f, int l, const volatile void *mem, unsigned long size);
ANN void AnnotateNewMemory(const char *f, int l, const volatile void *mem, unsigned long size)
{
	(void)f, (void)l;
	if (mem && size)
		kcsan_release_memory(kcsan_get_ctx(), (const void *)mem, size);
}

/*
 * The rest of the family: accepted so that programs link, and without
 * effect, as in libtsan (creation and destruction of a lock order
 * nothing; thread names, traces, expectations are for other tools).
 */
#define ANNOTATE_NOOP(name, params, uses)					\
	ANN void name params;							\
	ANN void name params							\
	{									\
		uses;								\
	}

ANNOTATE_NOOP(AnnotateRWLockCreate, (const char *f, int l, const volatile void *m),
	      (void)f; (void)l; (void)m)
ANNOTATE_NOOP(AnnotateRWLockCreateStatic, (const char *f, int l, const volatile void *m),
	      (void)f; (void)l; (void)m)
ANNOTATE_NOOP(AnnotateRWLockDestroy, (const char *f, int l, const volatile void *m),
	      (void)f; (void)l; (void)m)
ANNOTATE_NOOP(AnnotateThreadName, (const char *f, int l, const char *name),
	      (void)f; (void)l; (void)name)
ANNOTATE_NOOP(AnnotateCondVarSignal, (const char *f, int l, const volatile void *cv),
	      (void)f; (void)l; (void)cv)
ANNOTATE_NOOP(AnnotateCondVarSignalAll, (const char *f, int l, const volatile void *cv),
	      (void)f; (void)l; (void)cv)
ANNOTATE_NOOP(AnnotateCondVarWait,
	      (const char *f, int l, const volatile void *cv, const volatile void *lock),
	      (void)f; (void)l; (void)cv; (void)lock)
ANNOTATE_NOOP(AnnotateMutexIsNotPHB, (const char *f, int l, const volatile void *mu),
	      (void)f; (void)l; (void)mu)
ANNOTATE_NOOP(AnnotateMutexIsUsedAsCondVar, (const char *f, int l, const volatile void *mu),
	      (void)f; (void)l; (void)mu)
ANNOTATE_NOOP(AnnotateTraceMemory, (const char *f, int l, const volatile void *mem),
	      (void)f; (void)l; (void)mem)
ANNOTATE_NOOP(AnnotateFlushState, (const char *f, int l), (void)f; (void)l)
ANNOTATE_NOOP(AnnotateNoOp, (const char *f, int l, const volatile void *mem),
	      (void)f; (void)l; (void)mem)
ANNOTATE_NOOP(AnnotateFlushExpectedRaces, (const char *f, int l), (void)f; (void)l)
ANNOTATE_NOOP(AnnotateEnableRaceDetection, (const char *f, int l, int enable),
	      (void)f; (void)l; (void)enable)
ANNOTATE_NOOP(AnnotatePCQGet, (const char *f, int l, const volatile void *pcq),
	      (void)f; (void)l; (void)pcq)
ANNOTATE_NOOP(AnnotatePCQPut, (const char *f, int l, const volatile void *pcq),
	      (void)f; (void)l; (void)pcq)
ANNOTATE_NOOP(AnnotatePCQDestroy, (const char *f, int l, const volatile void *pcq),
	      (void)f; (void)l; (void)pcq)
ANNOTATE_NOOP(AnnotatePCQCreate, (const char *f, int l, const volatile void *pcq),
	      (void)f; (void)l; (void)pcq)
ANNOTATE_NOOP(AnnotateExpectRace,
	      (const char *f, int l, const volatile void *mem, const char *desc),
	      (void)f; (void)l; (void)mem; (void)desc)
ANNOTATE_NOOP(AnnotatePublishMemoryRange,
	      (const char *f, int l, const volatile void *addr, unsigned long size),
	      (void)f; (void)l; (void)addr; (void)size)
ANNOTATE_NOOP(AnnotateUnpublishMemoryRange,
	      (const char *f, int l, const volatile void *addr, unsigned long size),
	      (void)f; (void)l; (void)addr; (void)size)
ANNOTATE_NOOP(AnnotateMemoryIsInitialized,
	      (const char *f, int l, const volatile void *mem, unsigned long size),
	      (void)f; (void)l; (void)mem; (void)size)
ANNOTATE_NOOP(AnnotateMemoryIsUninitialized,
	      (const char *f, int l, const volatile void *mem, unsigned long size),
	      (void)f; (void)l; (void)mem; (void)size)
/* WebKit annotates its atomics with these; the atomics are seen already. */
ANNOTATE_NOOP(WTFAnnotateHappensBefore, (const char *f, int l, const volatile void *addr),
	      (void)f; (void)l; (void)addr)
ANNOTATE_NOOP(WTFAnnotateHappensAfter, (const char *f, int l, const volatile void *addr),
	      (void)f; (void)l; (void)addr)

/* Valgrind-era queries some annotated code makes. */
ANN int RunningOnValgrind(void);
ANN int RunningOnValgrind(void)
{
	return 0;
}

ANN double ValgrindSlowdown(void);
ANN double ValgrindSlowdown(void)
{
	return 1.0;
}

ANN const char *ThreadSanitizerQuery(const char *query);
ANN const char *ThreadSanitizerQuery(const char *query)
{
	(void)query;
	return "0";
}
