#!/bin/sh
# bench/focus-bench.sh — what focus buys: race detections within a 1-second
# budget, with focus (the runtime watches the static candidates) and with
# `kcsan-scan run --no-focus` (ordinary sampling only), over the buggy
# examples that have a writer-side bug.
#
#   make bench-focus                     (or: sh bench/focus-bench.sh)
#   FOCUS_BENCH_TRIALS=20 sh bench/focus-bench.sh
#
# One trial = up to 1 s of testing: the program is run (default arguments,
# default KCSAN_OPTIONS, `kcsan-scan run --timeout 1`) again and again until
# a race is reported or the second is spent; the trial detects if a report
# came within the budget.  Reported per example and mode: trials that
# detected, and the median time to the first report ("-" when no trial
# detected).  Two ratios against the target 5x (the issue's acceptance
# allows either): total detections with focus over total without (0 without
# focus counted as 1: a lower bound), and the median time to first report
# over all trials of all examples without focus over with it (a trial
# without report counts as the budget, 1000 ms: again a lower bound).
# PASS when either ratio reaches the target, MISS otherwise.
#
# A benchmark, not a test: it prints figures and exits 0 (1 only when it
# cannot set up: no kcsan-scan binary or runtime).
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
KS=${KS:-$TOP/build/kcsan-scan}
TRIALS=${FOCUS_BENCH_TRIALS:-10}
BUDGET_MS=1000
TARGET=5
[ -x "$KS" ] && [ -f build/runtime/libkcsan_rt.a ] || {
	echo "focus-bench: build first (make all)"; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-focus-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
unset KCSAN_OPTIONS KCSAN_DB KCSAN_RUN_ID

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# trial PROG DB MODE-ARGS -> prints the milliseconds from the start of the
# trial to the first report (the moment its first line reaches us, not the
# end of the run: a slowed-down program may be killed by --timeout long
# after it reported), or nothing when the budget ran out first.
trial() {
	prog=$1 db=$2
	shift 2
	t0=$(now_ms)
	while :; do
		"$KS" run --db "$db" --timeout 1 "$@" -- "$prog" 2>&1 >/dev/null |
		while IFS= read -r line; do
			# Keep reading after the first report: the program must
			# not see a closed pipe.
			case $line in
			*"BUG: KCSAN"*) [ -s "$W/hit" ] || now_ms >"$W/hit" ;;
			esac
		done
		if [ -s "$W/hit" ]; then
			t=$(($(cat "$W/hit") - t0))
			rm -f "$W/hit"
			[ $t -le $BUDGET_MS ] && echo $t
			return
		fi
		[ $(($(now_ms) - t0)) -ge $BUDGET_MS ] && return
	done
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

examples=$(grep -l 'EXPECT: missing-release' examples/*/buggy.c)
echo "focus-bench: $TRIALS trial(s) of ${BUDGET_MS} ms per example and mode; $(nproc) CPU(s)"
printf '%-18s %10s %7s %9s %9s %9s\n' example candidates addrs "focus" "no-focus" "median ms (focus / no-focus)"
tot_f=0
tot_n=0
: >"$W/all-f.ms"
: >"$W/all-n.ms"
for src in $examples; do
	name=$(basename "$(dirname "$src")")
	db=$W/$name.db
	prog=$W/$name
	"$KS" scan -q --db "$db" "$src" || { echo "$name: scan failed"; continue; }
	"$KS" cc -O2 -o "$prog" "$src" || { echo "$name: build failed"; continue; }
	KCSAN_OPTIONS=verbose=1 KCSAN_DB=$db timeout 5 "$prog" >/dev/null 2>"$W/v"
	set -- $(sed -n 's/^kcsan: focus: \([0-9]*\) candidates, \([0-9]*\) addresses.*/\1 \2/p' "$W/v")
	cands=${1:-0} addrs=${2:-0}
	: >"$W/f.ms"
	: >"$W/n.ms"
	i=0
	while [ $i -lt "$TRIALS" ]; do
		# Interleaved, so that a change in machine load hits both modes.
		trial "$prog" "$db" >>"$W/f.ms"
		trial "$prog" "$db" --no-focus >>"$W/n.ms"
		i=$((i + 1))
	done
	df=$(wc -l <"$W/f.ms")
	dn=$(wc -l <"$W/n.ms")
	mf=$( (cat "$W/f.ms"; yes $BUDGET_MS | head -n $((TRIALS - df))) | median)
	mn=$( (cat "$W/n.ms"; yes $BUDGET_MS | head -n $((TRIALS - dn))) | median)
	[ "$df" -eq 0 ] && mf="-"
	[ "$dn" -eq 0 ] && mn="-"
	printf '%-18s %10s %7s %6s/%-2s %6s/%-2s %9s / %s\n' "$name" "$cands" "$addrs" "$df" "$TRIALS" "$dn" "$TRIALS" "$mf" "$mn"
	(cat "$W/f.ms"; yes $BUDGET_MS | head -n $((TRIALS - df))) >>"$W/all-f.ms"
	(cat "$W/n.ms"; yes $BUDGET_MS | head -n $((TRIALS - dn))) >>"$W/all-n.ms"
	tot_f=$((tot_f + df))
	tot_n=$((tot_n + dn))
done
den=$tot_n
[ "$den" -gt 0 ] || den=1
ratio=$(awk -v f=$tot_f -v n=$den 'BEGIN { printf "%.1f", f / n }')
bound=""
[ "$tot_n" -eq 0 ] && bound=">="
amf=$(median <"$W/all-f.ms")
amn=$(median <"$W/all-n.ms")
tratio=$(awk -v f="$amf" -v n="$amn" 'BEGIN { printf "%.1f", n / (f > 0 ? f : 1) }')
tbound=""
[ "$amn" -ge $BUDGET_MS ] && tbound=">="
verdict=$(awk -v r=$ratio -v t=$tratio -v g=$TARGET 'BEGIN { print (r >= g || t >= g) ? "PASS" : "MISS" }')
echo "detections within ${BUDGET_MS} ms: focus $tot_f, no-focus $tot_n: ratio $bound${ratio}x"
echo "median time to first report, all trials: focus ${amf} ms, no-focus ${amn} ms: ratio $tbound${tratio}x"
echo "target >= ${TARGET}x on either: $verdict"
exit 0
