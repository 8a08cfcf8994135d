/*
 * report.c — printing a race, KCSAN-style, to stderr (or log_path).
 *
 *   ==================================================================
 *   BUG: KCSAN: data-race in reader / writer
 *
 *   write (reordered) to 0x5581e0c4c014 of 4 bytes by thread 2:
 *    #0 writer /src/mp.c:12 (/tmp/mp+0x12ab)
 *     |
 *     +-> reordered to: writer /src/mp.c:13 (/tmp/mp+0x12e1)
 *
 *   read to 0x5581e0c4c014 of 4 bytes by thread 3:
 *    #0 reader+0x1f (/tmp/mp+0x131f)
 *
 *   value changed: 0x0 -> 0x1
 *   ==================================================================
 *
 * Code locations are return addresses of the calls into the runtime minus
 * one (inside the instrumented call instruction), symbolised by
 * symbolize.c (dladdr, then the module's ELF .symtab) and, for the source
 * file and line, srcline.c (the DWARF line table, through libdw loaded on
 * first use): "function file:line" when the line is known, else
 * "function+offset".  module+offset is always printed too, for
 * `addr2line -e module offset`.  No fork of addr2line: a report must work
 * from any thread.  A report from a nested context (a signal handler) gets
 * no line: srcline.c's lock may be held by the very code it interrupted.
 *
 * Each report is formatted into one buffer and written with one write(2), so
 * concurrent reports do not interleave.  With dedup=1 a pair of code
 * locations (in either order, reordered or not) is reported once.  Under
 * `kcsan-scan run` (KCSAN_DB set) each report is also recorded into the
 * database (dbwrite.c).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kcsan_rt.h"
#include "strbuf.h"

static unsigned long kcsan_nreports;

unsigned long kcsan_rt_reports(void)
{
	return __atomic_load_n(&kcsan_nreports, __ATOMIC_RELAXED);
}

#define DEDUP_SLOTS 4096
static uint64_t dedup_table[DEDUP_SLOTS];

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Returns 1 if this key was seen before (then: do not report).  Lock-free:
 * claim an empty slot with CAS; a full table stops de-duplicating rather
 * than losing reports. */
static int seen_before(uintptr_t a, uintptr_t b, int reordered)
{
	uintptr_t lo = a < b ? a : b, hi = a < b ? b : a;
	uint64_t key = mix(mix(lo) ^ hi ^ (uint64_t)reordered) | 1;
	unsigned int i, idx = (unsigned int)(key % DEDUP_SLOTS);

	for (i = 0; i < DEDUP_SLOTS; i++, idx = (idx + 1) % DEDUP_SLOTS) {
		uint64_t cur = __atomic_load_n(&dedup_table[idx], __ATOMIC_RELAXED);

		if (cur == key)
			return 1;
		if (cur == 0) {
			uint64_t expected = 0;

			if (__atomic_compare_exchange_n(&dedup_table[idx], &expected, key, 0,
							__ATOMIC_RELAXED, __ATOMIC_RELAXED))
				return 0;
			if (expected == key)
				return 1;
		}
	}
	return 0;
}

/* "func file:line (module+0xoff)", or "func+0xoff (module+0xoff)" when the
 * line is not known, for the instruction before return address ip (the
 * call into the runtime); code with line 0 in an inlined function gives
 * the line of its call, "(inlined NAME, no line of its own)". */
static void symbolize(struct rt_buf *b, uintptr_t ip)
{
	uintptr_t pc = ip ? ip - 1 : 0, foff = 0, moff = 0;
	const char *mod;
	char fn[256], file[512], inl[128];
	int line = 0, have_fn = kcsan_symbolize(pc, fn, sizeof(fn), &foff, &mod, &moff);

	if (pc && kcsan_srcline_inl(pc, file, sizeof(file), &line, inl, sizeof(inl)) && inl[0])
		/* Line 0 in an inlined function: the call's line in fn. */
		rt_bprintf(b, "%s %s:%d (inlined %s, no line of its own) ", have_fn ? fn : "?",
			   file, line, inl);
	else if (pc && line)
		rt_bprintf(b, "%s %s:%d ", have_fn ? fn : "?", file, line);
	else if (have_fn)
		rt_bprintf(b, "%s+0x%lx ", fn, (unsigned long)foff);
	if (mod)
		rt_bprintf(b, "(%s+0x%lx)", mod, (unsigned long)moff);
	else
		rt_bprintf(b, "0x%lx", (unsigned long)pc);
}

/* The function name alone, for the title line. */
static void func_name(uintptr_t ip, char *fn, size_t n)
{
	uintptr_t foff, moff;
	const char *mod;

	if (!ip || !kcsan_symbolize(ip - 1, fn, n, &foff, &mod, &moff))
		snprintf(fn, n, "<unknown>");
}

static const char *kind_str(int type)
{
	if (type & KCSAN_ACCESS_ASSERT)
		return (type & KCSAN_ACCESS_WRITE) ? "assert no accesses" : "assert no writes";
	if (type & KCSAN_ACCESS_COMPOUND)
		return (type & KCSAN_ACCESS_ATOMIC) ? "read-write (marked)" : "read-write";
	if (type & KCSAN_ACCESS_WRITE)
		return (type & KCSAN_ACCESS_ATOMIC) ? "write (marked)" : "write";
	return (type & KCSAN_ACCESS_ATOMIC) ? "read (marked)" : "read";
}

static void print_access(struct rt_buf *b, const struct kcsan_access_info *a)
{
	rt_bprintf(b, "%s%s to %p of %zu bytes by thread %u:\n #0 ", kind_str(a->type),
		a->reordered ? " (reordered)" : "", (const void *)a->ptr, a->size, a->tid);
	symbolize(b, a->ip);
	rt_bprintf(b, "\n");
	if (a->reordered) {
		rt_bprintf(b, "  |\n  +-> reordered to: ");
		symbolize(b, a->to_ip);
		rt_bprintf(b, "\n");
	}
	rt_bprintf(b, "\n");
}

void kcsan_report_race(const struct kcsan_access_info *watcher,
		       const struct kcsan_access_info *other,
		       int value_changed, uint64_t old, uint64_t new_)
{
	char n1[256], n2[256];
	const char *f1 = n1, *f2 = n2;
	int is_assert = (watcher->type | (other ? other->type : 0)) & KCSAN_ACCESS_ASSERT;
	struct rt_buf b;

	/* A race of a thread with itself is impossible (a nested context of
	 * the same thread cannot consume: in_rt); be safe anyway. */
	if (other && other->tid == watcher->tid)
		return;
	/* Announced as benign (AnnotateBenignRaceSized, annotate.c): silent,
	 * neither printed nor counted nor recorded. */
	if (kcsan_benign_race(watcher->ptr, watcher->size) ||
	    (other && kcsan_benign_race(other->ptr, other->size)))
		return;
	if (kcsan_opts.dedup &&
	    seen_before(watcher->ip, other ? other->ip : 0,
			watcher->reordered || (other && other->reordered)))
		return;

	func_name(watcher->ip, n1, sizeof(n1));
	b.n = 0;
	rt_bprintf(&b, "==================================================================\n");
	if (other) {
		func_name(other->ip, n2, sizeof(n2));
		/* Sorted names: the same pair gives the same title. */
		if (strcmp(f1, f2) > 0) {
			const char *t = f1;

			f1 = f2;
			f2 = t;
		}
		rt_bprintf(&b, "BUG: KCSAN: %s in %s / %s\n\n",
			is_assert ? "assert: race" : "data-race", f1, f2);
		print_access(&b, watcher);
		print_access(&b, other);
	} else {
		rt_bprintf(&b, "BUG: KCSAN: %s in %s\n\n",
			is_assert ? "assert: race" : "data-race", f1);
		rt_bprintf(&b, "race at unknown origin, with ");
		print_access(&b, watcher);
	}
	if (value_changed)
		rt_bprintf(&b, "value changed: 0x%llx -> 0x%llx\n",
			(unsigned long long)old, (unsigned long long)new_);
	rt_bprintf(&b, "==================================================================\n");
	if (write(kcsan_opts.log_fd, b.s, b.n) < 0) {
		/* nowhere else to say it */
	}
	/* After the text: a database that hangs or fails must not cost the
	 * report its one sure output. */
	kcsan_db_record(watcher, other);
	/* Counted once complete: a program that stops when it sees a report
	 * (the tests do) then finds it printed and recorded. */
	__atomic_add_fetch(&kcsan_nreports, 1, __ATOMIC_RELEASE);
}
