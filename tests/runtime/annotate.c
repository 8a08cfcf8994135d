/*
 * annotate.c — ThreadSanitizer's annotations under the runtime (issue 13):
 * each mode is a pair of threads whose only ordering, if any, is what the
 * annotations announce.
 *
 *   annotate MODE [SECONDS]
 *   mp-tsan    message passing, x published through a relaxed flag
 *              (WRITE_ONCE/READ_ONCE: a marked access that orders nothing)
 *              with __tsan_release(&flag) before the flag write and
 *              __tsan_acquire(&flag) after the flag read -- as liburcu's
 *              urcu/annotate.h does: no report
 *   mp-hb      the same with AnnotateHappensBefore/After: no report
 *   mp-mutex   the same with __tsan_mutex_pre/post_unlock around the flag
 *              write and pre/post_lock around the wait (a custom lock):
 *              no report
 *   mp-bare    the twin without annotations: reported, "(reordered)"
 *   ignore     two threads, a plain write and a plain read of x inside
 *              AnnotateIgnoreWritesBegin/End, AnnotateIgnoreReadsBegin/End:
 *              no report
 *   ignore-reader  only the reader ignores its reads: no report either
 *   ignore-writer  only the writer ignores its writes: no report either
 *              (its write hits the reader's watchpoint: silently consumed,
 *              or the reader would see the value change, "unknown origin")
 *   ignore-bare    the twin without them: reported
 *   benign     ignore-bare's race, with AnnotateBenignRaceSized(&x): silent
 *   abi        calls every annotation entry point once (it links and runs)
 *
 * Prints "reports=N" (abi: "abi ok") and exits 0; the script decides.
 */
#include <stdio.h>
#include <string.h>

#include <kcsan/lkmm.h>

#include "harness.h"

/* The annotation ABI as libraries declare it (compiler-rt's
 * tsan_interface.h and dynamic_annotations.h). */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void __tsan_mutex_create(void *addr, unsigned flags);
void __tsan_mutex_destroy(void *addr, unsigned flags);
void __tsan_mutex_pre_lock(void *addr, unsigned flags);
void __tsan_mutex_post_lock(void *addr, unsigned flags, int recursion);
int __tsan_mutex_pre_unlock(void *addr, unsigned flags);
void __tsan_mutex_post_unlock(void *addr, unsigned flags);
void __tsan_mutex_pre_signal(void *addr, unsigned flags);
void __tsan_mutex_post_signal(void *addr, unsigned flags);
void __tsan_mutex_pre_divert(void *addr, unsigned flags);
void __tsan_mutex_post_divert(void *addr, unsigned flags);
void AnnotateHappensBefore(const char *f, int l, const volatile void *addr);
void AnnotateHappensAfter(const char *f, int l, const volatile void *addr);
void AnnotateRWLockCreate(const char *f, int l, const volatile void *lock);
void AnnotateRWLockCreateStatic(const char *f, int l, const volatile void *lock);
void AnnotateRWLockDestroy(const char *f, int l, const volatile void *lock);
void AnnotateRWLockAcquired(const char *f, int l, const volatile void *lock, long is_w);
void AnnotateRWLockReleased(const char *f, int l, const volatile void *lock, long is_w);
void AnnotateBenignRaceSized(const char *f, int l, const volatile void *mem,
			     unsigned long size, const char *desc);
void AnnotateBenignRace(const char *f, int l, const volatile void *mem, const char *desc);
void AnnotateIgnoreReadsBegin(const char *f, int l);
void AnnotateIgnoreReadsEnd(const char *f, int l);
void AnnotateIgnoreWritesBegin(const char *f, int l);
void AnnotateIgnoreWritesEnd(const char *f, int l);
void AnnotateIgnoreSyncBegin(const char *f, int l);
void AnnotateIgnoreSyncEnd(const char *f, int l);
void AnnotateNewMemory(const char *f, int l, const volatile void *mem, unsigned long size);
void AnnotateThreadName(const char *f, int l, const char *name);
void AnnotateCondVarSignal(const char *f, int l, const volatile void *cv);
void AnnotateCondVarSignalAll(const char *f, int l, const volatile void *cv);
void AnnotateCondVarWait(const char *f, int l, const volatile void *cv, const volatile void *lock);
void AnnotatePublishMemoryRange(const char *f, int l, const volatile void *a, unsigned long n);
void AnnotateUnpublishMemoryRange(const char *f, int l, const volatile void *a, unsigned long n);
void AnnotateExpectRace(const char *f, int l, const volatile void *mem, const char *desc);
void AnnotateFlushState(const char *f, int l);
void AnnotateEnableRaceDetection(const char *f, int l, int enable);
void AnnotateMemoryIsInitialized(const char *f, int l, const volatile void *m, unsigned long n);
int RunningOnValgrind(void);

#define TSAN_MUTEX_TRY_LOCK		(1u << 4)
#define TSAN_MUTEX_TRY_LOCK_FAILED	(1u << 5)

/* Non-static: names in the reports. */
void *mp_writer(void *arg);
void *mp_reader(void *arg);
void *ig_writer(void *arg);
void *ig_reader(void *arg);
void writer_once(int v);
void reader_once(void);

enum { MP_TSAN, MP_HB, MP_MUTEX, MP_BARE };
static int mode;		/* written before the threads start */
static int ignore_writer, ignore_reader;

static int x, flag;
static long wsink, rsink;

/* The ordering each mp mode announces around its relaxed flag. */
static void publish(int v)
{
	switch (mode) {
	case MP_TSAN:
		__tsan_release(&flag);
		WRITE_ONCE(flag, v);
		break;
	case MP_HB:
		AnnotateHappensBefore(__FILE__, __LINE__, &flag);
		WRITE_ONCE(flag, v);
		break;
	case MP_MUTEX:
		__tsan_mutex_pre_unlock(&flag, 0);
		WRITE_ONCE(flag, v);
		__tsan_mutex_post_unlock(&flag, 0);
		break;
	default:
		WRITE_ONCE(flag, v);
		break;
	}
}

/* Wait until flag == v; 0 if told to stop first. */
static int await(int v)
{
	int got;

	if (mode == MP_MUTEX)
		__tsan_mutex_pre_lock(&flag, 0);
	while (!(got = (READ_ONCE(flag) == v)) && !harness_stop())
		;
	switch (mode) {
	case MP_TSAN:
		__tsan_acquire(&flag);
		break;
	case MP_HB:
		AnnotateHappensAfter(__FILE__, __LINE__, &flag);
		break;
	case MP_MUTEX:
		__tsan_mutex_post_lock(&flag, 0, 0);
		break;
	default:
		break;
	}
	return got;
}

__attribute__((noinline)) void writer_once(int v)
{
	if (!await(0))
		return;
	x = v;			/* ordered only by the annotations */
	publish(1);
	for (int i = 0; i < 4; i++)
		wsink += harness_stop();
}

__attribute__((noinline)) void reader_once(void)
{
	int r;

	if (!await(1))
		return;
	r = x;
	publish(0);
	for (int i = 0; i < 4; i++)
		rsink += harness_stop() + r;
}

void *mp_writer(void *arg)
{
	(void)arg;
	for (int v = 1; !harness_stop(); v++)
		writer_once(v);
	return NULL;
}

void *mp_reader(void *arg)
{
	(void)arg;
	while (!harness_stop())
		reader_once();
	return NULL;
}

static void *mp_thread(void *arg)
{
	return (long)arg == 0 ? mp_writer(arg) : mp_reader(arg);
}

/* ignore*: a plain racy write and read of x in a loop. */
void *ig_writer(void *arg)
{
	(void)arg;
	for (int v = 1; !harness_stop(); v++) {
		if (ignore_writer)
			AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
		x = v;
		if (ignore_writer)
			AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
		for (int i = 0; i < 8; i++)
			wsink += harness_stop();
	}
	return NULL;
}

void *ig_reader(void *arg)
{
	(void)arg;
	while (!harness_stop()) {
		int r;

		if (ignore_reader)
			AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
		r = x;
		if (ignore_reader)
			AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
		for (int i = 0; i < 8; i++)
			rsink += harness_stop() + r;
	}
	return NULL;
}

static void *ig_thread(void *arg)
{
	return (long)arg == 0 ? ig_writer(arg) : ig_reader(arg);
}

/* Every entry point once, in a plausible order, single-threaded. */
static void abi(void)
{
	static int lock, mem[4];

	__tsan_release(&lock);
	__tsan_acquire(&lock);
	__tsan_mutex_create(&lock, 0);
	__tsan_mutex_pre_lock(&lock, TSAN_MUTEX_TRY_LOCK);
	__tsan_mutex_post_lock(&lock, TSAN_MUTEX_TRY_LOCK | TSAN_MUTEX_TRY_LOCK_FAILED, 0);
	__tsan_mutex_pre_lock(&lock, 0);
	__tsan_mutex_pre_divert(&lock, 0);
	__tsan_mutex_post_divert(&lock, 0);
	__tsan_mutex_post_lock(&lock, 0, 0);
	__tsan_mutex_pre_signal(&lock, 0);
	__tsan_mutex_post_signal(&lock, 0);
	(void)__tsan_mutex_pre_unlock(&lock, 0);
	__tsan_mutex_post_unlock(&lock, 0);
	__tsan_mutex_destroy(&lock, 0);
	AnnotateHappensBefore(__FILE__, __LINE__, &lock);
	AnnotateHappensAfter(__FILE__, __LINE__, &lock);
	AnnotateRWLockCreate(__FILE__, __LINE__, &lock);
	AnnotateRWLockCreateStatic(__FILE__, __LINE__, &lock);
	AnnotateRWLockAcquired(__FILE__, __LINE__, &lock, 1);
	AnnotateRWLockReleased(__FILE__, __LINE__, &lock, 1);
	AnnotateRWLockAcquired(__FILE__, __LINE__, &lock, 0);
	AnnotateRWLockReleased(__FILE__, __LINE__, &lock, 0);
	AnnotateRWLockDestroy(__FILE__, __LINE__, &lock);
	AnnotateBenignRaceSized(__FILE__, __LINE__, mem, sizeof(mem), "abi");
	AnnotateBenignRace(__FILE__, __LINE__, &mem[1], "abi");
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
	AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
	AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
	mem[0] = mem[1] + 1;
	AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
	AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);	/* unbalanced: no effect */
	AnnotateNewMemory(__FILE__, __LINE__, mem, sizeof(mem));
	AnnotateThreadName(__FILE__, __LINE__, "main");
	AnnotateCondVarSignal(__FILE__, __LINE__, &lock);
	AnnotateCondVarSignalAll(__FILE__, __LINE__, &lock);
	AnnotateCondVarWait(__FILE__, __LINE__, &lock, &lock);
	AnnotatePublishMemoryRange(__FILE__, __LINE__, mem, sizeof(mem));
	AnnotateUnpublishMemoryRange(__FILE__, __LINE__, mem, sizeof(mem));
	AnnotateExpectRace(__FILE__, __LINE__, mem, "abi");
	AnnotateFlushState(__FILE__, __LINE__);
	AnnotateEnableRaceDetection(__FILE__, __LINE__, 1);
	AnnotateMemoryIsInitialized(__FILE__, __LINE__, mem, sizeof(mem));
	printf("abi %s\n", RunningOnValgrind() == 0 && mem[0] == 1 ? "ok" : "wrong");
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	double secs = harness_seconds(argc, argv, 2, 20.0);
	void *(*fn)(void *) = mp_thread;

	if (strcmp(m, "abi") == 0) {
		abi();
		return 0;
	} else if (strcmp(m, "mp-tsan") == 0) {
		mode = MP_TSAN;
	} else if (strcmp(m, "mp-hb") == 0) {
		mode = MP_HB;
	} else if (strcmp(m, "mp-mutex") == 0) {
		mode = MP_MUTEX;
	} else if (strcmp(m, "mp-bare") == 0) {
		mode = MP_BARE;
	} else if (strcmp(m, "ignore") == 0) {
		fn = ig_thread;
		ignore_writer = ignore_reader = 1;
	} else if (strcmp(m, "ignore-reader") == 0) {
		fn = ig_thread;
		ignore_reader = 1;
	} else if (strcmp(m, "ignore-writer") == 0) {
		fn = ig_thread;
		ignore_writer = 1;
	} else if (strcmp(m, "ignore-bare") == 0) {
		fn = ig_thread;
	} else if (strcmp(m, "benign") == 0) {
		fn = ig_thread;
		AnnotateBenignRaceSized(__FILE__, __LINE__, &x, sizeof(x), "test");
	} else {
		fprintf(stderr, "usage: annotate abi|mp-tsan|mp-hb|mp-mutex|mp-bare|"
			"ignore|ignore-reader|ignore-writer|ignore-bare|benign [SECONDS]\n");
		return 2;
	}
	printf("reports=%lu\n", harness_run(2, fn, secs));
	return 0;
}
