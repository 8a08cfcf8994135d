#!/bin/sh
# bench/runtime-bench.sh — `make bench-runtime`: what the kcsan-scan runtime
# costs, beside ThreadSanitizer, and what its focus on the static candidates
# costs on top.  Each program of bench/runtime/ is built with clang -O2
# three ways -- native, `kcsan-scan cc` and -fsanitize=thread (libtsan) --
# and scanned into its own database; then run in four configurations:
#   native    the plain build
#   ours      `kcsan-scan run --db DB`: default options, focus active when
#             the scan found candidates in the program
#   no-focus  `kcsan-scan run --db DB --no-focus`: sampling only
#   tsan      the -fsanitize=thread build
# in BENCH_RUNS rounds: a round runs every configuration of every program
# once, the four of a program one after the other.
#
# Run lengths: the native runs do enough iterations to take ~0.3-0.6 s and
# the instrumented builds, 3 to 100 times slower, fewer, so that a run
# takes ~0.3-1.5 s and the whole benchmark about 2-3 minutes on 2 CPUs.
# A slowdown is therefore per iteration: (time / iterations) of the build
# over (time / iterations) of native; the programs' work is linear in their
# iteration count.
#
# Statistics: slowdowns, ratios and costs are computed within each round
# (the configurations of a program share the load of the moment) and the
# median over the rounds is printed; times and RSS are medians of the
# runs.  The spread column (slowest/fastest run) shows how noisy the
# machine was.
#
# Prints per program the iteration counts, the median times, the slowdowns,
# the ratio ours/TSan, the focus cost (ours / no-focus) and the peak RSS
# (the program itself: bench/timeit.c), then the medians and PASS/MISS:
#   median slowdown ours / median slowdown TSan <= 1/3
#   focus cost ours/no-focus <= 1.5 on every program where focus is active
#   peak RSS ours <= native * 1.1 + 16 MiB (every program)
# The raw runs are kept in build/bench-runtime.log.  Always exits 0 (a
# benchmark, not a test) unless it cannot set up.
#
# Then bench/runtime-real.sh: the same comparison on liburcu's benchmarks
# and Concurrency Kit's validation programs, from build trees named by the
# environment (BENCH_URCU_NATIVE/OURS/TSAN/DB, BENCH_CK_...; skipped with a
# message when absent), with the issue's targets: ours/TSan <= 1/3, focus
# cost <= 1.10 on each program (the median of interleaved ours/no-focus
# pairs: see that script), RSS as above.
#
# Environment: BENCH_RUNS (9), BENCH_SCALE (1: a factor on every iteration
# count, e.g. 0.1 for a quick look), BENCH_TIMEOUT (60 s per run; a run
# killed by it counts as that long, and its figures are marked '>'),
# BENCH_CC (clang), BENCH_REAL_RUNS (5 rounds of the real programs),
# BENCH_REAL_MIN (2: seconds each configuration of a real program runs a
# round), BENCH_REAL_MAXREP (40: at most that many runs a round).
set -u
cd "$(dirname "$0")/.." || exit 1
KS=$(pwd)/build/kcsan-scan
CC=${BENCH_CC:-clang}
RUNS=${BENCH_RUNS:-9}
SCALE=${BENCH_SCALE:-1}
LIMIT=${BENCH_TIMEOUT:-60}
LOG=build/bench-runtime.log
[ -x "$KS" ] && [ -f build/runtime/libkcsan_rt.a ] || {
	echo "runtime-bench: build first (make all)"; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-rbench.XXXXXX")
trap 'rm -rf "$W"' EXIT
unset KCSAN_OPTIONS KCSAN_DB KCSAN_RUN_ID

# program, iterations of the native build, iterations of the instrumented
# builds (set for ~0.4 s native and ~0.5 s ours on a 2-CPU AMD EPYC VM).
cat >"$W/programs" <<'EOF'
counters       12000000  6000000
mutex_compute     40000     3000
publish        50000000  5000000
rcu            50000000  5000000
seqlock       120000000  2000000
spsc          100000000  5000000
EOF

$CC -O2 -Wall -o "$W/timeit" bench/timeit.c || { echo "runtime-bench: cannot build bench/timeit.c"; exit 1; }
echo "runtime-bench: $CC -O2; $RUNS run(s) per measurement (median); BENCH_SCALE=$SCALE; $(nproc) CPU(s); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# Build and scan; the programs that fail are left out.
: >"$W/built"
while read -r n nn ni; do
	src=bench/runtime/$n.c
	nn=$(awk -v n="$nn" -v s="$SCALE" 'BEGIN { v = int(n * s); print (v > 0 ? v : 1) }')
	ni=$(awk -v n="$ni" -v s="$SCALE" 'BEGIN { v = int(n * s); print (v > 0 ? v : 1) }')
	if $CC -O2 -pthread -o "$W/$n-native" "$src" &&
	   $CC -O2 -pthread -fsanitize=thread -o "$W/$n-tsan" "$src" &&
	   KCSAN_CC=$CC "$KS" cc -O2 -pthread -o "$W/$n-ours" "$src" &&
	   "$KS" scan -q --db "$W/$n.db" "$src" </dev/null; then
		# What focus loads for it (verbose=1 prints "focus: ..."); a
		# short run: the mapping is done at start-up.
		KCSAN_OPTIONS=verbose=1 "$KS" run --db "$W/$n.db" -- "$W/$n-ours" 1000 \
			</dev/null >/dev/null 2>"$W/$n.verbose"
		f=$(sed -n 's/^kcsan: focus: \([0-9]*\) candidates, \([0-9]*\) addresses.*/\1c\/\2a/p; s/^kcsan: focus: off.*/off/p' \
			"$W/$n.verbose" | head -n 1)
		echo "$n $nn $ni ${f:-?}" >>"$W/built"
	else
		echo "$n: build or scan failed"
	fi
done <"$W/programs"

# One run (stdin: not the list being read): record "program config run seconds rss status".
measure() {
	n=$1 cfg=$2 r=$3 iters=$4
	rm -f "$W/t"
	case $cfg in
	native|tsan) "$W/timeit" "$W/t" "$LIMIT" "$W/$n-$cfg" "$iters" </dev/null >/dev/null 2>"$W/err" ;;
	ours)        "$KS" run --db "$W/$n.db" -- \
			"$W/timeit" "$W/t" "$LIMIT" "$W/$n-ours" "$iters" </dev/null >/dev/null 2>"$W/err" ;;
	no-focus)    "$KS" run --db "$W/$n.db" --no-focus -- \
			"$W/timeit" "$W/t" "$LIMIT" "$W/$n-ours" "$iters" </dev/null >/dev/null 2>"$W/err" ;;
	esac
	if [ -s "$W/t" ]; then
		read -r secs rss st <"$W/t"
	else
		secs=$LIMIT rss=0 st=failed
	fi
	[ "$st" = ok ] || { echo "$n $cfg run $r: $st"; sed 's/^/  /' "$W/err" | head -n 5; }
	echo "$n $cfg $r $secs $rss $st" >>"$W/runs"
}

: >"$W/runs"
r=1
while [ "$r" -le "$RUNS" ]; do
	printf 'run %d/%d ...\n' "$r" "$RUNS"
	while read -r n nn ni f; do
		measure "$n" native "$r" "$nn"
		measure "$n" ours "$r" "$ni"
		measure "$n" no-focus "$r" "$ni"
		measure "$n" tsan "$r" "$ni"
	done <"$W/built"
	r=$((r + 1))
done
{
	echo "# $(date -u +%FT%TZ) BENCH_RUNS=$RUNS BENCH_SCALE=$SCALE $(nproc) CPUs"
	echo "# program iterations(native/instrumented) focus"
	sed 's/^/# /' "$W/built"
	echo "# program config run seconds maxrss-KiB status"
	cat "$W/runs"
} >"$LOG"

# The figures.  A slowdown, ratio or cost is computed within each round of
# runs (the four configurations of a program run one after the other, so
# that they share the machine's load of the moment) and its median over
# the rounds is printed; the times are the medians of the runs.
awk -v built="$W/built" -v limit="$LIMIT" -v runs="$RUNS" "$(cat bench/stats.awk)"'
function mib(k) { return k / 1024 }
function num(n) { return (n >= 1e6 ? sprintf("%gM", n / 1e6) : (n >= 1e3 ? sprintf("%gk", n / 1e3) : n)) }
BEGIN {
	while ((getline line < built) > 0) {
		split(line, b, " ")
		np++; prog[np] = b[1]; nn[b[1]] = b[2]; ni[b[1]] = b[3]; foc[b[1]] = b[4]
	}
	nc = split("native ours no-focus tsan", cfg, " ")
}
{
	T[$1, $2, $3] = $4; t[$1, $2] = t[$1, $2] " " $4; m[$1, $2] = m[$1, $2] " " $5
	if ($6 == "timeout") { to[$1, $2] = 1; bound = 1 }
}
END {
	printf "\nmedian seconds per run; iterations native/instrumented; spread = slowest/fastest run, worst configuration\n"
	printf "%-14s %13s %8s %8s %9s %8s %7s  %s\n", "program", "iterations", "native", "ours",
	       "no-focus", "tsan", "spread", "focus"
	for (p = 1; p <= np; p++) {
		n = prog[p]; sp = 0
		for (c = 1; c <= nc; c++) {
			k = n SUBSEP cfg[c]
			if (lowest(t[k]) > 0 && highest(t[k]) / lowest(t[k]) > sp)
				sp = highest(t[k]) / lowest(t[k])
			mark[n, cfg[c]] = to[k] ? ">" : ""
		}
		printf "%-14s %13s", n, num(nn[n]) "/" num(ni[n])
		for (c = 1; c <= nc; c++) {
			fmt = (c == 3 ? " %8.3f%1s" : " %7.3f%1s")
			printf fmt, median(t[n, cfg[c]]), mark[n, cfg[c]]
		}
		printf " %6.2fx  %s\n", sp, (foc[n] == "off" ? "off" : foc[n] " (candidates/addresses)")
	}
	printf "\nper iteration over native; ratio = ours/TSan; cost = ours/no-focus (medians over the %d rounds); peak RSS MiB (medians)\n", runs
	printf "%-14s %8s %8s %8s %6s %6s %8s %8s %9s %8s\n", "program", "x-ours", "x-nofoc", "x-tsan",
	       "ratio", "cost", "rss-nat", "rss-ours", "rss-nofoc", "rss-tsan"
	for (p = 1; p <= np; p++) {
		n = prog[p]; so = sf = st = sr = sc = ""
		for (r = 1; r <= runs; r++) {
			base = T[n, "native", r] / nn[n]
			if (base <= 0) base = 1e-9
			xo = T[n, "ours", r] / ni[n] / base
			xf = T[n, "no-focus", r] / ni[n] / base
			xt = T[n, "tsan", r] / ni[n] / base
			so = so " " xo; sf = sf " " xf; st = st " " xt
			sr = sr " " xo / xt; sc = sc " " xo / xf
		}
		XO[p] = median(so); XF[p] = median(sf); XT[p] = median(st); cost = median(sc)
		printf "%-14s %7.1fx %7.1fx %7.1fx %6.2f %6.2f %8.1f %8.1f %9.1f %8.1f\n", n, XO[p], XF[p],
		       XT[p], median(sr), cost, mib(median(m[n, "native"])), mib(median(m[n, "ours"])),
		       mib(median(m[n, "no-focus"])), mib(median(m[n, "tsan"]))
		rss_ok += median(m[n, "ours"]) <= median(m[n, "native"]) * 1.1 + 16 * 1024
		if (foc[n] != "off" && foc[n] != "?") {
			nf++; fc = fc " " cost
			if (cost > fmax) { fmax = cost; fworst = n }
		}
		ao = ao " " XO[p]; af = af " " XF[p]; at = at " " XT[p]; ar = ar " " median(sr)
	}
	mo = median(ao); mf = median(af); mt = median(at)
	printf "\nmedian slowdown: ours %.1fx (no-focus %.1fx), TSan %.1fx; ratio ours/TSan %.2f (no-focus %.2f) (target <= 0.33): %s\n",
	       mo, mf, mt, mo / mt, mf / mt, (mo / mt <= 1 / 3 ? "PASS" : "MISS")
	# The ratio of the medians compares the slowdowns of whichever programs
	# are the medians, which may change from one invocation to the next;
	# the per-program ratios move less.
	printf "  per-program ratios ours/TSan: median %.2f, from %.2f to %.2f\n", median(ar), lowest(ar), highest(ar)
	if (nf)
		printf "focus cost ours/no-focus, %d program(s) with focus active: median %.2f, worst %.2f (%s) (target <= 1.5 on each): %s\n",
		       nf, median(fc), fmax, fworst, (fmax <= 1.5 ? "PASS" : "MISS")
	else
		printf "focus cost: focus active on no program (nothing measured)\n"
	printf "peak RSS ours <= native + 10%% + 16 MiB: %d/%d programs: %s\n",
	       rss_ok, np, (rss_ok == np ? "PASS" : "MISS")
	if (bound)
		printf "(>: a run was stopped after %d s; figures built on it are lower bounds)\n", limit
}' "$W/runs"
echo "raw runs: $LOG"
# Real programs (liburcu, Concurrency Kit) from the trees the environment
# names; skipped with a message when they are not given.
sh bench/runtime-real.sh "$W/timeit"
exit 0
