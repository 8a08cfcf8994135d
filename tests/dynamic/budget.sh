#!/bin/sh
# tests/dynamic/budget.sh — the delay budget (max_delay_pct) holds under a
# read-heavy load with focus (issue 13 item 7): every delay window counts,
# whatever chose the access (sampling, a focused candidate's burst or pace,
# a re-check after a publication).
#
# The program (generated below) has N (data, flag) pairs published by one
# writer with WRITE_ONCE and read in a tight loop by R readers: the scan
# finds 2N findings, and focus watches 3N hot sites at once -- each paced on
# its own, so that without a budget over all of them the readers slept 170 %
# of the run (liburcu's test_urcu: 80 %).  The oracle is not the runtime's
# own account: the program defines nanosleep() (the runtime's windows call
# it; the program itself never does) and measures every call, so that it
# knows how long its threads slept and the longest sleep.  It asserts no
# wall-clock time: only that the sleeps are within the budget's share of
# the run, plus the runtime's fixed allowance (20 ms), plus one window per
# thread (a window is allowed while the budget is not spent; a loaded
# machine oversleeps, and the longest sleep says by how much).  Each case
# also checks that focus was active and took windows, so that the bound is
# not met by watching nothing.
#
#   sh tests/dynamic/budget.sh          (from the top of the tree)
set -u
cd "$(dirname "$0")/../.." || exit 1
KS=${KS:-$(pwd)/build/kcsan-scan}
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# gen N: the program, with N pairs on N distinct lines each (a site is a line).
gen() {
	cat <<'EOF'
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define READ_ONCE(v) (*(const volatile __typeof__(v) *)&(v))
#define WRITE_ONCE(v, val) (*(volatile __typeof__(v) *)&(v) = (val))

static unsigned long long slept_ns, longest_ns;

__attribute__((no_sanitize_thread)) static unsigned long long mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

/* The runtime's delay windows, measured (the program sleeps with
 * clock_nanosleep, which this does not see). */
__attribute__((no_sanitize_thread)) int nanosleep(const struct timespec *req, struct timespec *rem)
{
	unsigned long long t0 = mono(), d;
	int r = clock_nanosleep(CLOCK_MONOTONIC, 0, req, rem);

	d = mono() - t0;
	__atomic_fetch_add(&slept_ns, d, __ATOMIC_RELAXED);
	for (unsigned long long l = __atomic_load_n(&longest_ns, __ATOMIC_RELAXED); d > l;)
		if (__atomic_compare_exchange_n(&longest_ns, &l, d, 1, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			break;
	return r;
}
EOF
	i=0
	while [ $i -lt "$1" ]; do echo "static long data$i, flag$i;"; i=$((i + 1)); done
	printf 'static void publish(long v)\n{\n'
	i=0
	while [ $i -lt "$1" ]; do printf '\tdata%d = v;\n\tWRITE_ONCE(flag%d, v);\n' $i $i; i=$((i + 1)); done
	printf '}\n\nstatic long consume(void)\n{\n\tlong s = 0;\n\n'
	i=0
	while [ $i -lt "$1" ]; do printf '\tif (READ_ONCE(flag%d))\n\t\ts += data%d;\n' $i $i; i=$((i + 1)); done
	printf '\treturn s;\n}\n'
	cat <<'EOF'

static int stop;

static void *reader(void *arg)
{
	long s = 0;

	while (!READ_ONCE(stop))
		s += consume();
	*(long *)arg = s;
	return NULL;
}

/* With no publication: the readers' loop, with plain reads of a table
 * nobody writes (sampled, no finding's code; not static, so that the
 * compiler cannot fold them to 0). */
long quiet[64];

static void *idler(void *arg)
{
	long s = 0;

	while (!READ_ONCE(stop))
		s += consume() + quiet[s & 63];
	*(long *)arg = s;
	return NULL;
}

/* hot SECONDS READERS [PUBLISH]: publishes once per millisecond for
 * SECONDS (with PUBLISH 0, never: the flags stay 0, and no candidate's
 * code runs). */
int main(int argc, char **argv)
{
	const struct timespec ms = { 0, 1000000 };
	double secs = argc > 1 ? atof(argv[1]) : 1;
	int nr = argc > 2 ? atoi(argv[2]) : 2;
	int pub = argc > 3 ? atoi(argv[3]) : 1;
	unsigned long long t0 = mono(), end = t0 + (unsigned long long)(secs * 1e9);
	pthread_t t[16];
	long res[16];

	if (nr < 1 || nr > 16) {
		fprintf(stderr, "usage: hot SECONDS READERS(1-16)\n");
		return 2;
	}
	for (int i = 0; i < nr; i++)
		if (pub)
			pthread_create(&t[i], NULL, reader, &res[i]);
		else
			pthread_create(&t[i], NULL, idler, &res[i]);
	for (long v = 1; mono() < end; v++) {
		if (pub)
			publish(v);
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ms, NULL);
	}
	WRITE_ONCE(stop, 1);
	for (int i = 0; i < nr; i++)
		pthread_join(t[i], NULL);
	printf("slept %llu us in %llu us, longest %llu us, threads %d\n",
	       slept_ns / 1000, (mono() - t0) / 1000, longest_ns / 1000 + 1, nr + 1);
	return 0;
}
EOF
}

# The process's allowance beyond the share (runtime/delay.c: 20 ms, so that
# a test of a few milliseconds still gets its bursts watched), in us.
ALLOWANCE=20000

# within_budget NAME OUT ERR PCT [ALLOW]: the program's sleeps (OUT) within
# PCT % of the run plus the allowance (ALLOW us, default ALLOWANCE) plus one
# longest sleep per thread.  The run's length is the
# longer of the program's and the runtime's ("delays: D us in E us").
within_budget() {
	name=$1 out=$2 err=$3 pct=$4 allow=${5:-$ALLOWANCE}
	set -- $(sed -n 's/^slept \([0-9]*\) us in \([0-9]*\) us, longest \([0-9]*\) us, threads \([0-9]*\)$/\1 \2 \3 \4/p' "$out")
	if [ $# -ne 4 ]; then
		cat "$out" "$err"; bad "$name: no account from the program"; return
	fi
	e=$(sed -n 's/^kcsan: .*delays: [0-9]* us in \([0-9]*\) us.*/\1/p' "$err")
	[ -n "$e" ] && [ "$e" -gt "$2" ] || e=$2
	limit=$((e * pct / 100 + allow + $4 * $3))
	if [ "$1" -le $limit ]; then
		ok "$name: slept $1 us <= $pct % of $e us + $allow us + $4 x $3 us ($(grep 'windows:' "$err"))"
	else
		grep -h 'kcsan: [fdsw]' "$err"
		bad "$name: slept $1 us > $pct % of $e us + $allow us + $4 x $3 us = $limit us"
	fi
}

# focus_watched NAME ERR: focus was active and took windows.
focus_watched() {
	if grep -q '^kcsan: focus: [1-9][0-9]* candidates' "$2" &&
	   grep -q '^kcsan: focus: [0-9]* taken in bursts' "$2" &&
	   ! grep -q '^kcsan: focus: 0 taken in bursts, 0 paced' "$2" &&
	   grep -q '^kcsan: windows: [0-9]* sampled, [1-9][0-9]* focused' "$2"; then
		ok "$1: focus active, focused windows taken"
	else
		grep 'kcsan: [fw]' "$2"; bad "$1: focus inactive or no focused window"
	fi
}

gen 32 >"$W/hot.c"
if ! "$KS" scan -q --db "$W/hot.db" "$W/hot.c" >"$W/scan.log" 2>&1 ||
   ! "$KS" cc -O2 -o "$W/hot" "$W/hot.c" >"$W/cc.log" 2>&1; then
	cat "$W/scan.log" "$W/cc.log"; bad "hot.c: scan and build"
	echo "$pass passed, $fail failed"; exit 1
fi

# 1. Focus on 96 hot sites, default budget, 2 and 4 readers.
for r in 2 4; do
	cp "$W/hot.db" "$W/run.db"
	KCSAN_OPTIONS=verbose=1:log_path=$W/log-$r "$KS" run --db "$W/run.db" --timeout 60 \
		-- "$W/hot" 1 $r >"$W/out-$r" 2>/dev/null
	within_budget "focus, $r readers, budget 10 %" "$W/out-$r" "$W/log-$r" 10
	focus_watched "focus, $r readers" "$W/log-$r"
done

# 2. A smaller budget, and sampling alone (--no-focus) with the same load.
cp "$W/hot.db" "$W/run.db"
KCSAN_OPTIONS=verbose=1:max_delay_pct=3:log_path=$W/log-3 "$KS" run --db "$W/run.db" --timeout 60 \
	-- "$W/hot" 1 2 >"$W/out-3" 2>/dev/null
within_budget "focus, 2 readers, budget 3 %" "$W/out-3" "$W/log-3" 3
KCSAN_OPTIONS=verbose=1:log_path=$W/log-nf "$KS" run --db "$W/run.db" --no-focus --timeout 60 \
	-- "$W/hot" 1 2 >"$W/out-nf" 2>/dev/null
within_budget "--no-focus, 2 readers, budget 10 %" "$W/out-nf" "$W/log-nf" 10

# 3. Focus moves the windows to the candidates, it does not add to them
# (runtime/delay.c): without re-checks (weak_memory=0: no delayed access,
# so no re-check, the one kind that may spend the whole budget), focus
# and sampling together spend what sampling alone may -- half the budget
# and half the allowance -- as --no-focus does.  (Focus had three
# quarters: on this load it slept half as long again as --no-focus.)  A
# budget of 40 %, so that the difference is larger than the slack the
# bound leaves a loaded machine (one longest sleep per thread).  The
# focused run must have met its cap (focused windows refused), so that
# the bound is not met by watching little.
for f in focus no-focus; do
	opt=""; [ $f = no-focus ] && opt=--no-focus
	KCSAN_OPTIONS=verbose=1:weak_memory=0:max_delay_pct=40:log_path=$W/log-h-$f "$KS" run --db "$W/run.db" \
		$opt --timeout 60 -- "$W/hot" 1 2 >"$W/out-h-$f" 2>/dev/null
	within_budget "$f, no re-checks: half the budget" "$W/out-h-$f" "$W/log-h-$f" 20 $((ALLOWANCE / 2))
done
focus_watched "focus, no re-checks" "$W/log-h-focus"
if grep -q '^kcsan: windows: .*over budget: [0-9]*, [1-9][0-9]*, ' "$W/log-h-focus"; then
	ok "focus, no re-checks: focused windows met the cap"
else
	grep 'kcsan: windows' "$W/log-h-focus"; bad "focus, no re-checks: the cap was never met"
fi

# 4. Focus's share is kept for it only while it uses it (runtime/delay.c):
# with focus active but no candidate's code running (no publication: the
# readers spin on the flags, the data reads and writes never run), no
# focused window is asked for, and sampling may spend the half of the
# budget, as with --no-focus (the readers' plain reads of a table nobody
# writes are sampled).  (It stopped at a quarter, reserved for
# nothing: liburcu's test_urcu_gc slept half as long with focus as
# without.)  The readers want a window far more often than the budget
# allows, so that the sleeps reach the cap: more than three eighths of
# the budget (a quarter and the slack of a loaded machine stay below it),
# at most the half.  Budget 40 %, no re-checks, as in 3.
KCSAN_OPTIONS=verbose=1:weak_memory=0:max_delay_pct=40:log_path=$W/log-idle "$KS" run --db "$W/run.db" \
	--timeout 60 -- "$W/hot" 1 2 0 >"$W/out-idle" 2>/dev/null
within_budget "focus idle, no re-checks: at most half the budget" "$W/out-idle" "$W/log-idle" 20 $((ALLOWANCE / 2))
if grep -q '^kcsan: focus: [1-9][0-9]* candidates' "$W/log-idle" &&
   grep -q '^kcsan: windows: [0-9]* sampled, 0 focused' "$W/log-idle"; then
	ok "focus idle: active, no focused window"
else
	grep 'kcsan: [fw]' "$W/log-idle"; bad "focus idle: focus inactive, or focused windows taken"
fi
set -- $(sed -n 's/^slept \([0-9]*\) us in \([0-9]*\) us.*/\1 \2/p' "$W/out-idle")
if [ $# -eq 2 ] && [ "$1" -gt $(($2 * 40 * 3 / 8 / 100)) ]; then
	ok "focus idle: sampling slept $1 us in $2 us, more than 3/8 of the budget"
else
	grep -h 'kcsan: [dw]' "$W/log-idle"; bad "focus idle: sampling slept ${1:-?} us in ${2:-?} us, not more than 3/8 of the 40 % budget (a quarter: focus's share reserved for nothing)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
