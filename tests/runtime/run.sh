#!/bin/sh
# tests/runtime/run.sh — builds the kcsan-scan runtime and its tests with
# plain compiler commands (no Makefile needed) and runs them: barrier
# tables, message passing, pthreads, hooks, signals, the seeds' lock test
# (lkmm.h, C11, __atomic), the article's T1/T2, 40 threads, fork, a delayed
# access to unmapped memory, the delay budget, heap reuse, ThreadSanitizer's
# annotations, membarrier grace periods -- each with clang and gcc
# instrumentation.
#
#   tests/runtime/run.sh            all tests
#   KEEP=1 tests/runtime/run.sh     keep the build directory
#
# The instrumented test programs are compiled with -fsanitize=thread (and the
# flag that turns volatile accesses into marked ones) but linked WITHOUT it:
# libtsan is not used, the runtime's objects provide the __tsan_* ABI.
# Prints "N passed, M failed" last; exits non-zero if anything failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rt="$root/runtime"
B=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-rt-test.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$B"' EXIT
pass=0
fail=0
ok()  { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

CFLAGS_RT="-O2 -g -std=gnu11 -fPIC -fvisibility=hidden -Wall -Wextra -Werror"
CLANG_TSAN="-fsanitize=thread -mllvm -tsan-distinguish-volatile=1"
GCC_TSAN="-fsanitize=thread --param=tsan-distinguish-volatile=1 -Wno-tsan"
TFLAGS="-O2 -g -Wall -Wextra -I$root/include"
LIBS="-lpthread -ldl"

# 1. The runtime builds warning-free with both compilers.
for cc in gcc clang; do
	mkdir -p "$B/rt-$cc"
	okc=1
	for f in "$rt"/*.c "$root"/db/races.c "$root"/db/focus_sites.c; do   # (runtime/Makefile.inc's list)
		o="$B/rt-$cc/$(basename "$f" .c).o"
		if ! $cc $CFLAGS_RT -c "$f" -o "$o" 2>"$B/rt-$cc.log"; then
			okc=0
			cat "$B/rt-$cc.log"
		fi
	done
	if [ $okc = 1 ]; then ok "runtime builds with $cc -Wall -Wextra -Werror"
	else bad "runtime builds with $cc -Wall -Wextra -Werror"; fi
done
# The objects the tests link (gcc-built; tsan_atomic128 needs -latomic and
# is not used by the tests).
RTOBJ=$(ls "$B"/rt-gcc/*.o | grep -v atomic128)

tsan_flags() { if [ "$1" = clang ]; then echo "$CLANG_TSAN"; else echo "$GCC_TSAN"; fi; }

# build CC NAME SRC [extra cflags]  ->  $B/NAME
build() {
	cc=$1 name=$2 src=$3
	shift 3
	# shellcheck disable=SC2046
	$cc $TFLAGS $(tsan_flags "$cc") "$@" -c "$src" -o "$B/$name.o" >"$B/$name.log" 2>&1 &&
	gcc -rdynamic -o "$B/$name" "$B/$name.o" $RTOBJ $LIBS >>"$B/$name.log" 2>&1 ||
	{ cat "$B/$name.log"; return 1; }
}

NOWATCH="skip_watch=1000000000"
FAST="skip_watch=20:udelay=50"

# must_report NAME PROG ARGS...: "reports=N", N > 0, and a "(reordered)"
# report, in one of two runs.  never_reports NAME PROG ARGS...: "reports=0"
# and nothing on stderr in each of two runs.
must_report() {
	name=$1; shift
	for try in 1 2; do
		out=$(KCSAN_OPTIONS=$FAST timeout 90 "$@" 2>"$B/mr.err")
		if echo "$out" | grep -q 'reports=[1-9]' && grep -q '(reordered)' "$B/mr.err"; then
			ok "$name (run $try)"
			return
		fi
	done
	echo "$out"; head -30 "$B/mr.err"; bad "$name"
}
never_reports() {
	name=$1; shift
	for try in 1 2; do
		out=$(KCSAN_OPTIONS=$FAST timeout 90 "$@" 2>"$B/nr.err")
		if ! echo "$out" | grep -q 'reports=0' || [ -s "$B/nr.err" ]; then
			echo "run $try: $out"; head -30 "$B/nr.err"; bad "$name"
			return
		fi
	done
	ok "$name"
}

for cc in clang gcc; do
	# 2a. Barrier table: lkmm.h primitives and pthreads.
	if build $cc bl-$cc "$here/barrier_lkmm.c" &&
	   out=$(KCSAN_OPTIONS=$NOWATCH timeout 30 "$B/bl-$cc") ; then
		ok "barrier table, lkmm.h ($cc): $(echo "$out" | tail -1)"
	else
		echo "${out:-}"; bad "barrier table, lkmm.h ($cc)"
	fi
	# 2b. Barrier table: C11 / GNU atomics and fences.
	if build $cc bc-$cc "$here/barrier_c11.c" &&
	   out=$(KCSAN_OPTIONS=$NOWATCH timeout 30 "$B/bc-$cc"); then
		ok "barrier table, C11 atomics ($cc): $(echo "$out" | tail -1)"
	else
		echo "${out:-}"; bad "barrier table, C11 atomics ($cc)"
	fi

	# 2c. Signal handlers are nested contexts; sigaction/signal wrappers.
	if build $cc sg-$cc "$here/signals.c" &&
	   out=$(KCSAN_OPTIONS=skip_watch=0:udelay=10 timeout 30 "$B/sg-$cc"); then
		ok "signal handlers as nested contexts ($cc): $(echo "$out" | tail -1)"
	else
		echo "${out:-}"; bad "signal handlers as nested contexts ($cc)"
	fi

	# 2d. The delay budget holds for all threads together.  The runtime
	# benchmark's mutex_compute: four threads take turns in one critical
	# section of plain accesses, and while one waits in a delay window the
	# others wait for the lock, so that each stays within its own share
	# while the four together spent about four times it.  The runtime's
	# account of its delays, D us in E us at P%, must stay within
	# P% of E plus the fixed allowance (20 ms, runtime/delay.c) plus one
	# window per thread (4 of the longest, L us: a window starts while the
	# budget is not spent; a loaded machine oversleeps).
	if build $cc bu-$cc "$root/bench/runtime/mutex_compute.c" &&
	   KCSAN_OPTIONS=verbose=1 timeout 120 "$B/bu-$cc" 2000 >/dev/null 2>"$B/bu-$cc.err" &&
	   line=$(grep '^kcsan: delays:' "$B/bu-$cc.err") &&
	   echo "$line" | awk '{ d = $3; e = $6; p = $9 + 0; l = $12;
		exit !(NF == 13 && d > 0 && d <= e * p / 100 + 20000 + 4 * l) }'; then
		ok "delay budget, process-wide ($cc): $line"
	else
		cat "$B/bu-$cc.err"; bad "delay budget, process-wide ($cc)"
	fi

	# 3. Message passing, buggy twin: must report, "(reordered)", within 20 s.
	if build $cc mp-$cc "$here/mp.c"; then
		out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/mp-$cc" 20 2>"$B/mp-$cc.err")
		if echo "$out" | grep -q 'reports=[1-9]' &&
		   grep -q '(reordered)' "$B/mp-$cc.err" &&
		   grep -q 'reordered to:' "$B/mp-$cc.err"; then
			ok "message passing, buggy twin reported ($cc): $out"
		else
			echo "$out"; cat "$B/mp-$cc.err"; bad "message passing, buggy twin ($cc)"
		fi
	else
		bad "message passing, buggy twin: build ($cc)"
	fi

	# 3b. ... and, as the article says, plain KCSAN (weak_memory=0) cannot
	# see it: the watch on x delays the flag store, so nobody reads x then.
	if [ -x "$B/mp-$cc" ]; then
		out=$(KCSAN_OPTIONS=$FAST:weak_memory=0 timeout 60 "$B/mp-$cc" 2 2>/dev/null)
		if echo "$out" | grep -q 'reports=0'; then
			ok "message passing, buggy twin invisible with weak_memory=0 ($cc)"
		else
			echo "$out"; bad "message passing, weak_memory=0 reported ($cc)"
		fi
	fi

	# 4. Message passing, fixed twin: never a report in 3 runs of 2 s.
	if build $cc mpf-$cc "$here/mp.c" -DFIXED; then
		clean=1
		for run in 1 2 3; do
			out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/mpf-$cc" 2 2>"$B/mpf-$cc.err")
			if ! echo "$out" | grep -q 'reports=0' || [ -s "$B/mpf-$cc.err" ]; then
				clean=0
				echo "run $run: $out"; cat "$B/mpf-$cc.err"
			fi
		done
		if [ $clean = 1 ]; then ok "message passing, fixed twin: no report in 3 runs ($cc)"
		else bad "message passing, fixed twin ($cc)"; fi
	else
		bad "message passing, fixed twin: build ($cc)"
	fi

	# 5. Locks: no report with any lock; a report without one.
	if build $cc lk-$cc "$here/locked.c"; then
		for m in mutex spin rwlock sem cond; do
			out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/lk-$cc" $m 1 2>"$B/lk-$cc.err")
			if echo "$out" | grep -q 'reports=0' && [ ! -s "$B/lk-$cc.err" ]; then
				ok "pthread $m: no report ($cc)"
			else
				echo "$out"; head -30 "$B/lk-$cc.err"; bad "pthread $m: false report ($cc)"
			fi
		done
		out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/lk-$cc" none 20 2>"$B/lk-$cc.err")
		if echo "$out" | grep -q 'reports=[1-9]' && grep -q 'BUG: KCSAN: data-race' "$B/lk-$cc.err"; then
			ok "unlocked counter reported ($cc)"
		else
			echo "$out"; bad "unlocked counter not reported ($cc)"
		fi
	else
		bad "locks: build ($cc)"
	fi
	# 5b. lkmm.h hooks: ASSERT_EXCLUSIVE_WRITER reports, data_race() silences.
	if build $cc hk-$cc "$here/hooks.c"; then
		out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/hk-$cc" assert 20 2>"$B/hk-$cc.err")
		if echo "$out" | grep -q 'reports=[1-9]' && grep -q 'assert: race' "$B/hk-$cc.err"; then
			ok "ASSERT_EXCLUSIVE_WRITER reported ($cc)"
		else
			echo "$out"; head -20 "$B/hk-$cc.err"; bad "ASSERT_EXCLUSIVE_WRITER ($cc)"
		fi
		out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/hk-$cc" data_race 1 2>"$B/hk-$cc.err")
		if echo "$out" | grep -q 'reports=0' && [ ! -s "$B/hk-$cc.err" ]; then
			ok "data_race() not reported ($cc)"
		else
			echo "$out"; head -20 "$B/hk-$cc.err"; bad "data_race() reported ($cc)"
		fi
	else
		bad "hooks: build ($cc)"
	fi

	# 7. Seed tests and harsher conditions (issue item 8): each program
	# prints "reports=N"; buggy twins must report "(reordered)" within 20 s
	# (tried twice), correct ones never in two runs.
	for t in "seedlock:seedlock.c:" "seedlock-c11:seedlock_c11.c:" \
		 "seedlock-gnu:seedlock_c11.c:-DGNU" "t1t2:t1t2.c:"; do
		n=${t%%:*}; rest=${t#*:}; file=${rest%%:*}; def=${rest#*:}
		if [ "$n" = t1t2 ]; then fixdef="-DFIXED"; bugdef=""; else fixdef=""; bugdef="-DBUGGY"; fi
		# shellcheck disable=SC2086
		if build $cc $n-bug-$cc "$here/$file" $def $bugdef &&
		   build $cc $n-ok-$cc "$here/$file" $def $fixdef; then
			must_report "$n, buggy twin reported (reordered) ($cc)" "$B/$n-bug-$cc" 20
			never_reports "$n, correct twin never reported ($cc)" "$B/$n-ok-$cc" 1
		else
			bad "$n: build ($cc)"
		fi
	done
	if build $cc st-$cc "$here/stress.c"; then
		must_report "40 threads, buggy pairs reported ($cc)" "$B/st-$cc" threads 40 20 buggy
		never_reports "40 threads, fixed pairs never reported ($cc)" "$B/st-$cc" threads 40 1 fixed
		never_reports "delayed access to an unmapped page: no crash, no report ($cc)" \
			"$B/st-$cc" unmap 1
		out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/st-$cc" signals 1 2>"$B/st-$cc.err")
		if echo "$out" | grep -q 'max_nesting=2 now=0 reports=0' && [ ! -s "$B/st-$cc.err" ]; then
			ok "nested signal handlers: no report, nesting undone ($cc): $out"
		else
			echo "$out"; head -30 "$B/st-$cc.err"; bad "nested signal handlers ($cc)"
		fi
		out=$(KCSAN_OPTIONS=$FAST timeout 90 "$B/st-$cc" fork 20 2>"$B/st-$cc.err")
		if [ $? = 0 ] && echo "$out" | grep -q ': ok$'; then
			ok "fork: child reports on its own, fixed child and parent silent ($cc)"
		else
			echo "$out"; head -30 "$B/st-$cc.err"; bad "fork ($cc)"
		fi
	else
		bad "stress: build ($cc)"
	fi

	# 7b. Line 0 in an inlined function (docs/limitations.md R4): the
	# line of its call, from the DWARF inline chain.  clang only: "#line 0"
	# makes the line-0 rows this test needs (see linezero.c).
	if [ $cc = clang ]; then
		if build $cc lz-$cc "$here/linezero.c" -O1 && out=$(timeout 30 "$B/lz-$cc"); then
			ok "line 0 in an inlined function: the call's line ($cc): $(echo "$out" | tr "\n" " ")"
		else
			echo "${out:-}"; bad "line 0 in an inlined function ($cc)"
		fi
	fi

	# 8. Heap reuse (issue 9): memory freed by one thread and handed to
	# the other by the allocator is no race -- neither for the delayed
	# access of a write made before free() (private malloc/write/free
	# loops, one arena; realloc / reallocarray; mmap / munmap), nor for a
	# watchpoint on the memory when it is freed (weak_memory=0: see
	# heapreuse.c).  Two threads writing one live heap object still race.
	if build $cc hr-$cc "$here/heapreuse.c"; then
		for m in reuse realloc mmap; do
			never_reports "heap reuse, $m: no report ($cc)" "$B/hr-$cc" $m 1
		done
		out=$(KCSAN_OPTIONS=skip_watch=0:udelay=100000:udelay_rand=0:max_delay_pct=0:weak_memory=0 \
		      timeout 60 "$B/hr-$cc" watched 4 2>"$B/hr-$cc.err")
		if echo "$out" | grep -q 'reports=0' && [ ! -s "$B/hr-$cc.err" ]; then
			ok "heap reuse, watchpoint on freed memory: no report ($cc)"
		else
			echo "$out"; head -30 "$B/hr-$cc.err"; bad "heap reuse, watchpoint on freed memory ($cc)"
		fi
		for try in 1 2; do
			out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/hr-$cc" shared 20 2>"$B/hr-$cc.err")
			echo "$out" | grep -q 'reports=[1-9]' && grep -q 'BUG: KCSAN: data-race in shared_worker' "$B/hr-$cc.err" && break
		done
		if echo "$out" | grep -q 'reports=[1-9]'; then
			ok "heap reuse, two threads writing one live object reported ($cc)"
		else
			echo "$out"; head -30 "$B/hr-$cc.err"; bad "heap reuse, true race not reported ($cc)"
		fi
	else
		bad "heap reuse: build ($cc)"
	fi

	# 9. ThreadSanitizer's annotations (issue 13, runtime/annotate.c,
	# tsan_mutex.c): every entry point links and runs; message passing
	# whose only ordering is announced (__tsan_release/acquire,
	# AnnotateHappensBefore/After, a custom mutex) is never reported and
	# its bare twin is; ignored reads/writes and a benign race are silent
	# and their bare twin is reported.
	if build $cc an-$cc "$here/annotate.c"; then
		if [ "$("$B/an-$cc" abi 2>"$B/an-$cc.err")" = "abi ok" ] && [ ! -s "$B/an-$cc.err" ]; then
			ok "annotations: every entry point links and runs ($cc)"
		else
			cat "$B/an-$cc.err"; bad "annotations: entry points ($cc)"
		fi
		for m in mp-tsan mp-hb mp-mutex; do
			never_reports "annotations, $m: announced ordering, no report ($cc)" "$B/an-$cc" $m 2
		done
		must_report "annotations, mp-bare: twin without them reported ($cc)" "$B/an-$cc" mp-bare 20
		for m in ignore ignore-reader ignore-writer benign; do
			never_reports "annotations, $m: no report ($cc)" "$B/an-$cc" $m 2
		done
		for try in 1 2; do
			out=$(KCSAN_OPTIONS=$FAST timeout 60 "$B/an-$cc" ignore-bare 20 2>"$B/an-$cc.err")
			echo "$out" | grep -q 'reports=[1-9]' && grep -q 'BUG: KCSAN: data-race in ig_' "$B/an-$cc.err" && break
		done
		if echo "$out" | grep -q 'reports=[1-9]' && grep -q 'BUG: KCSAN: data-race in ig_' "$B/an-$cc.err"; then
			ok "annotations, ignore-bare: twin without them reported ($cc)"
		else
			echo "$out"; head -30 "$B/an-$cc.err"; bad "annotations, ignore-bare ($cc)"
		fi
	else
		bad "annotations: build ($cc)"
	fi

	# 10. RCU grace periods made of membarrier(2) (issue 13, item 5,
	# runtime/membarrier.c): readers with compiler barriers only, the
	# writer's membarrier through syscall() or a membarrier() function,
	# then a poison write and free of the old node -- never reported; the
	# same grace period without membarrier is reported "(reordered)".
	if build $cc mb-$cc "$here/membarrier.c"; then
		KCSAN_OPTIONS=$NOWATCH "$B/mb-$cc" syscall 0 >/dev/null 2>&1
		if [ $? = 77 ]; then
			echo "SKIP: membarrier(2) not permitted here ($cc)"
		else
			never_reports "membarrier grace period, syscall(): no report ($cc)" "$B/mb-$cc" syscall 2
			never_reports "membarrier grace period, membarrier(): no report ($cc)" "$B/mb-$cc" wrapper 2
			must_report "grace period without membarrier reported ($cc)" "$B/mb-$cc" none 20
		fi
	else
		bad "membarrier: build ($cc)"
	fi
done

# 6. 128-bit atomics (gcc emits __tsan_atomic128_*; needs libatomic).
cat >"$B/a128.c" <<'EOC'
#include <stdio.h>
static unsigned __int128 v;
int main(void)
{
	unsigned __int128 e = 0;
	__atomic_store_n(&v, (unsigned __int128)1 << 100, __ATOMIC_RELEASE);
	__atomic_fetch_add(&v, 1, __ATOMIC_SEQ_CST);
	int ok = __atomic_compare_exchange_n(&v, &e, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED) == 0 &&
		 e == (((unsigned __int128)1 << 100) | 1) &&
		 __atomic_load_n(&v, __ATOMIC_ACQUIRE) == e;
	puts(ok ? "ok" : "wrong");
	return !ok;
}
EOC
if gcc -O2 $GCC_TSAN -Wno-atomic-alignment -c "$B/a128.c" -o "$B/a128.o" 2>"$B/a128.log" &&
   nm "$B/a128.o" | grep -q __tsan_atomic128_ &&
   gcc -o "$B/a128" "$B/a128.o" $RTOBJ "$B/rt-gcc/tsan_atomic128.o" $LIBS -latomic 2>>"$B/a128.log" &&
   [ "$("$B/a128")" = ok ]; then
	ok "128-bit atomics (gcc, -latomic)"
else
	cat "$B/a128.log"; bad "128-bit atomics (gcc, -latomic)"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
