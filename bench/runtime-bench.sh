#!/bin/sh
# bench/runtime-bench.sh — `make bench-runtime`: what the kcsan-scan runtime
# costs, beside ThreadSanitizer.  Each program of bench/runtime/ is built
# three ways with clang -O2 -- native, `kcsan-scan cc` (run under
# `kcsan-scan run`, default options) and -fsanitize=thread (libtsan) -- and
# run once each.  Prints per program the wall times, the slowdowns over
# native, the ratio ours/TSan, and peak RSS (GNU time %M of the program
# itself); then the medians and PASS/MISS against the targets:
#   median slowdown ratio ours/TSan <= 1/3
#   peak RSS ours <= native * 1.1 + 16 MiB (every program)
# Always exits 0 (a benchmark, not a test).  BENCH_CC overrides clang.
set -u
cd "$(dirname "$0")/.."
KS=$(pwd)/build/kcsan-scan
CC=${BENCH_CC:-clang}
W=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-rbench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# run OUT CMD...: wall seconds and max RSS (KiB) of CMD into $OUT.
run() {
	out=$1
	shift
	/usr/bin/time -f "%e %M" -o "$out" "$@" >/dev/null 2>"$out.err" || true
}

printf '%-14s %8s %8s %8s %8s %8s %7s %9s %9s %9s\n' program native ours tsan \
	x-ours x-tsan ratio rss-nat rss-ours rss-tsan
: >"$W/rows"
for src in bench/runtime/*.c; do
	n=$(basename "$src" .c)
	$CC -O2 -pthread -o "$W/$n-native" "$src" &&
	$CC -O2 -pthread -fsanitize=thread -o "$W/$n-tsan" "$src" &&
	KCSAN_CC=$CC "$KS" cc -O2 -pthread -o "$W/$n-ours" "$src" || {
		echo "$n: build failed"; continue; }
	run "$W/n" "$W/$n-native"
	# The time measures the program, not `kcsan-scan run` around it.
	"$KS" run --db "$W/k.db" -- /usr/bin/time -f "%e %M" -o "$W/o" "$W/$n-ours" \
		>/dev/null 2>"$W/o.err" || true
	run "$W/t" "$W/$n-tsan"
	read -r tn rn <"$W/n"; read -r to ro <"$W/o"; read -r tt rt <"$W/t"
	awk -v n="$n" -v tn="$tn" -v to="$to" -v tt="$tt" -v rn="$rn" -v ro="$ro" -v rt="$rt" \
	    -v rows="$W/rows" 'BEGIN {
		if (tn < 0.01) tn = 0.01
		xo = to / tn; xt = tt / tn; r = xo / xt
		printf "%-14s %7.2fs %7.2fs %7.2fs %7.1fx %7.1fx %7.2f %7.1fMB %7.1fMB %7.1fMB\n",
		       n, tn, to, tt, xo, xt, r, rn / 1024, ro / 1024, rt / 1024
		rss_ok = (ro <= rn * 1.1 + 16 * 1024)
		printf "%s %f %f %f %d\n", n, xo, xt, r, rss_ok >> rows
	}'
done
sort -k2 -g "$W/rows" | awk '{ xo[NR] = $2 } END { m = (NR % 2) ? xo[(NR + 1) / 2] : (xo[NR / 2] + xo[NR / 2 + 1]) / 2; print m }' >"$W/mo"
sort -k3 -g "$W/rows" | awk '{ xt[NR] = $3 } END { m = (NR % 2) ? xt[(NR + 1) / 2] : (xt[NR / 2] + xt[NR / 2 + 1]) / 2; print m }' >"$W/mt"
awk -v mo="$(cat "$W/mo")" -v mt="$(cat "$W/mt")" '
	{ rss_bad += !$5 }
	END {
		r = mo / mt
		printf "median slowdown: ours %.1fx, TSan %.1fx; ratio ours/TSan %.2f (target <= 0.33): %s\n",
		       mo, mt, r, r <= 1 / 3 ? "PASS" : "MISS"
		printf "peak RSS ours <= native + 10%% + 16 MiB: %d/%d programs: %s\n",
		       NR - rss_bad, NR, rss_bad ? "MISS" : "PASS"
	}' "$W/rows"
exit 0
