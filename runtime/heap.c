/*
 * heap.c — freeing memory ends what the runtime still holds on it.
 *
 * The allocator hands memory over with its own ordering: glibc frees a
 * chunk into its thread cache or, under the arena lock, back to the arena,
 * and the malloc of another thread takes it from there under the same
 * lock -- a release / acquire pair the instrumentation never sees (libc
 * is not instrumented).  Without it, a write made before free() stayed the
 * thread's delayed (weak-memory) access, re-checked at its later accesses,
 * and met the writes of the memory's next owner: "data-race ...
 * (reordered)" between two threads that never shared anything.
 *
 * So free, realloc, reallocarray, cfree and munmap are interposed: before
 * the real call (after it, another thread may already own the memory),
 *   - the calling thread's delayed access to the freed range ends (free is
 *     a release of that memory; weakmem.c kcsan_release_range), and
 *   - the watchpoints on the range become KCSAN_WP_FREED (core.c
 *     kcsan_forget_watchpoints): an access of the next owner cannot hit
 *     them, and the allocator's writes into the freed chunk are no
 *     "unknown origin" change.
 * malloc needs no wrapper: the model only delays accesses, so an acquire
 * ends nothing, and with the above no access made before the free is
 * still pending when the memory is handed over (another thread's delayed
 * access to memory that this one frees is a real missing release).
 * The size freed is what malloc_usable_size says (the whole chunk: a write
 * past the requested size but inside the chunk is the program's own);
 * munmap's length is rounded up to whole pages, as the kernel does.
 * realloc ends them for the old block even when it grows in place:
 * ending early can only hide a report, never make one.
 *
 * Cost: a free with no delayed access in flight and no watchpoint anywhere
 * (nearly all of them) reads one thread-local and one global word.
 *
 * Robustness:
 *   - The wrappers are weak: a program that defines its own free (its own
 *     allocator) keeps it, and links.
 *   - The real functions are found with dlsym(RTLD_NEXT) -- the allocator
 *     the program would use without the runtime, glibc's or a preloaded
 *     one -- eagerly from __tsan_init and otherwise on first use.  dlsym
 *     may itself free (a previous dlerror state): a free made while this
 *     thread resolves is leaked, never recursed into.
 *   - Inside the runtime (in_rt: SQLite's and the symboliser's frees, a
 *     signal handler interrupting a check) the delayed access is left
 *     alone; watchpoints are always handled (atomics only).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fastpath.h"
#include "kcsan_rt.h"

#define ABI __attribute__((visibility("default"), weak))

/* Removed from <stdlib.h> by glibc 2.26; old binaries may still call it. */
void cfree(void *p);

typedef void (*free_fn)(void *);
typedef void *(*realloc_fn)(void *, size_t);
typedef void *(*reallocarray_fn)(void *, size_t, size_t);
typedef int (*munmap_fn)(void *, size_t);
typedef size_t (*usable_fn)(void *);

static free_fn real_free;
static realloc_fn real_realloc;
static reallocarray_fn real_reallocarray;
static munmap_fn real_munmap;
static usable_fn real_usable;	/* may stay NULL: not every allocator has it */
static int usable_looked_up;

/* Set while this thread is inside dlsym for one of the above. */
static __thread int resolving __attribute__((tls_model("initial-exec")));

static void *resolve(const char *name, int required)
{
	void *p;

	resolving = 1;
	p = dlsym(RTLD_NEXT, name);
	resolving = 0;
	if (!p && required) {
		static const char msg[] = "kcsan: cannot find the real function ";

		if (write(2, msg, sizeof(msg) - 1) < 0 || write(2, name, strlen(name)) < 0 ||
		    write(2, "\n", 1) < 0) {
			/* stderr gone too */
		}
		abort();
	}
	return p;
}

/* The cached pointers are written once with the same value by whichever
 * thread resolves first: relaxed atomics suffice (the pointee is code). */
#define GET_REAL(type, var, name)						\
	static type get_##var(void)						\
	{									\
		type f = __atomic_load_n(&var, __ATOMIC_RELAXED);		\
		if (!f) {							\
			f = (type)resolve(name, 1);				\
			__atomic_store_n(&var, f, __ATOMIC_RELAXED);		\
		}								\
		return f;							\
	}
GET_REAL(free_fn, real_free, "free")
GET_REAL(realloc_fn, real_realloc, "realloc")
GET_REAL(reallocarray_fn, real_reallocarray, "reallocarray")
GET_REAL(munmap_fn, real_munmap, "munmap")

static usable_fn get_real_usable(void)
{
	if (!__atomic_load_n(&usable_looked_up, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&real_usable, (usable_fn)resolve("malloc_usable_size", 0),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&usable_looked_up, 1, __ATOMIC_RELEASE);
	}
	return __atomic_load_n(&real_usable, __ATOMIC_RELAXED);
}

void kcsan_heap_init(void);
void kcsan_heap_init(void)
{
	get_real_free();
	get_real_realloc();
	get_real_munmap();
	get_real_usable();
	/* reallocarray (glibc >= 2.26) only when called: an older libc
	 * without it must not abort a program that never uses it. */
}

/* Is there anything the runtime holds that a free could concern? */
static inline int heap_idle(const struct kcsan_ctx *ctx)
{
	return !ctx->reorder.size &&
	       !(__atomic_load_n(&kcsan_gate.word, __ATOMIC_RELAXED) & KCSAN_GATE_WATCHES);
}

/* [p, p+size) is about to be freed (size 0: unknown); annotate.c's
 * AnnotateNewMemory too. */
void kcsan_release_memory(struct kcsan_ctx *ctx, const void *p, size_t size)
{
	if (__atomic_load_n(&kcsan_initialized, __ATOMIC_ACQUIRE) != 2)
		return;
	if (!size) {
		/* The allocator cannot say how big the block is: end the
		 * delayed access whatever it was (a release), and the
		 * watchpoints on the block's first byte. */
		if (ctx->tid && !ctx->in_rt)
			kcsan_barrier(ctx, KCSAN_BARRIER_RELEASE);
		kcsan_forget_watchpoints((uintptr_t)p, 1);
		return;
	}
	if (ctx->tid && !ctx->in_rt)
		kcsan_release_range(ctx, (uintptr_t)p, size);
	kcsan_forget_watchpoints((uintptr_t)p, size);
}

/* A heap block (from malloc & co.) is about to be freed or moved. */
static void release_block(void *p)
{
	struct kcsan_ctx *ctx = &kcsan_tls;
	usable_fn usable;

	if (!p || heap_idle(ctx))
		return;
	usable = get_real_usable();
	kcsan_release_memory(ctx, p, usable ? usable(p) : 0);
}

ABI void free(void *p)
{
	if (__builtin_expect(resolving, 0))
		return;		/* from inside dlsym, see above: leaked */
	release_block(p);
	get_real_free()(p);
}

ABI void cfree(void *p)
{
	free(p);
}

ABI void *realloc(void *p, size_t n)
{
	release_block(p);
	return get_real_realloc()(p, n);
}

ABI void *reallocarray(void *p, size_t nmemb, size_t size)
{
	release_block(p);
	return get_real_reallocarray()(p, nmemb, size);
}

ABI int munmap(void *addr, size_t len)
{
	struct kcsan_ctx *ctx = &kcsan_tls;

	if (len && !heap_idle(ctx)) {
		long pg = sysconf(_SC_PAGESIZE);
		size_t page = pg > 0 ? (size_t)pg : 4096;

		/* (A length that overflows when rounded is the kernel's
		 * EINVAL: nothing is unmapped.) */
		if (len <= SIZE_MAX - (page - 1))
			kcsan_release_memory(ctx, addr, (len + page - 1) & ~(page - 1));
	}
	return get_real_munmap()(addr, len);
}
