#!/bin/sh
# bench/runtime-real.sh — the second half of `make bench-runtime`: the
# runtime's cost on real programs, liburcu's benchmarks and Concurrency
# Kit's validation programs, each built three ways by the user beforehand
# (the trees are not ours to fetch or build here; bench/README.md says how):
#
#   BENCH_URCU_NATIVE, BENCH_URCU_OURS, BENCH_URCU_TSAN
#       liburcu build trees (their tests/benchmark/ programs built): with
#       the default compiler, with CC="kcsan-scan cc", with
#       CC="clang -fsanitize=thread"; BENCH_URCU_DB: a `kcsan-scan scan`
#       database of the OURS tree (focus's candidates; without it the
#       focus column is not measured)
#   BENCH_CK_NATIVE, BENCH_CK_OURS, BENCH_CK_TSAN, BENCH_CK_DB
#       the same for Concurrency Kit (regressions/*/validate built), all
#       three configured with --use-cc-builtins (below)
#   BENCH_CKASM_NATIVE, BENCH_CKASM_OURS, BENCH_CKASM_TSAN, BENCH_CKASM_DB
#       Concurrency Kit again in its default port (inline asm), for the two
#       programs the builtins port cannot build: ck_fifo_mpmc and mpmc_pop
#       need ck_pr_cas_ptr_2 (cmpxchg16b), which CK's builtins port lacks
#       (there they print "Unsupported." and exit 0 at once)
#
# Concurrency Kit's port.  By default CK implements every ck_pr_* (loads,
# stores, RMWs, fences) as inline assembly on x86, and ThreadSanitizer
# does not instrument inline assembly: in the lock validators' loops (all
# their accesses are ck_pr_*) a TSan build calls no __tsan_ function at
# all (objdump), runs at native speed (one thread: CPU time 1.05-1.25x
# native, start-up only) and reports the hand-overs it cannot see as races
# (96 of its 98 warnings on 39 CK programs, docs/evaluation.md), while
# ours checks each primitive through the asm plugin.  A slowdown of TSan
# there is not the cost of checking the program, and any runtime's ratio
# to it is at least 1 / (TSan's slowdown): with 8 of the 15 programs under
# 3x, the ratio of the medians could not reach 1/3 however cheap ours.
# With --use-cc-builtins CK's primitives are the compiler's __atomic
# builtins, which both tools instrument (every ck_pr_* an __tsan_atomic*
# call in both), and native is the same program: the three builds compare
# the cost of checking the same accesses.  The script says so when a CK
# tree is not configured that way (build/regressions.build without
# -DCK_USE_CC_BUILTINS=1) and measures it anyway.  The two programs of
# the asm port (ckasm/...) keep TSan's blindness to their CASes: their
# TSan slowdown understates its cost (it still checks their plain
# accesses), which can only raise ours/TSan.  A run that prints
# "Unsupported." counts as failed.
#
# A family whose three trees are not all given is skipped with a line that
# says which variable is missing.  Each program runs in four configurations
# (native, ours = `kcsan-scan run --db DB`, no-focus = the same with
# --no-focus, tsan) in BENCH_REAL_RUNS rounds (5), the four of a program
# one after the other.
#
# Run lengths.  The CK programs take 0.05-0.3 s natively, where one run's
# time is mostly the machine's load of the moment (a shared 2-CPU box
# swings a 0.1 s program by 2-4x).  So within a round each configuration
# of a program is run again until its runs add up to BENCH_REAL_MIN
# seconds (2): native runs, then the ours/no-focus pairs, then TSan runs
# (each at most BENCH_REAL_MAXREP (40) times a round).  liburcu's
# benchmarks (1 s each) run twice a configuration a round.
#
# Slowdowns.  liburcu's benchmarks run for a fixed time (`2 2 1`: 2
# readers, 2 writers, 1 second) and print the operations they made
# (nr_ops): their slowdown is native ops / instrumented ops.  CK's
# programs do a fixed work: their slowdown is instrumented time / native
# time.  Except ck_sequence (kind "contended"), whose work is not fixed:
# its reader retries each of its reads while main() keeps rewriting the
# data, and spins while a write is in progress, so its time is how the two
# threads interleave on the machine's two CPUs -- native runs starved past
# the time limit in 4 of 5 rounds on 2026-12-05 (07:21-07:30), and its
# ours / --no-focus pairs read 0.97, 1.22 and 1.02 in three runs, with
# interquartile ranges 0.65-1.19, 0.85-1.70, 0.94-1.15.  Time per read
# attempt (its printed retries) is no fixed cost either: the spinning is
# not counted (native 28 us an attempt against ours' 0.8 in one round).
# Its figures are printed, timed as the others, but kept out of the three
# summary lines.  Within a round a configuration's figure is the mean of its runs
# (mean ops, or mean time); slowdowns and ours/TSan are computed within
# each round (the configurations of a program share the load of the
# moment) and the median over the rounds is printed.
#
# Focus cost (ours / no-focus in the same sense: time, or no-focus ops /
# ours ops) is measured on interleaved pairs: an ours run and a no-focus
# run back to back, the order alternating from one pair to the next (and
# from one round to the next), so that both runs of a pair share the
# load of the moment and neither configuration always runs first (after
# a pause, in a warm cache).  The cost is the median of the per-pair
# ratios of all rounds; printed beside it: the interquartile range of
# those ratios, a distribution-free 95 % confidence interval of the
# median (order statistics) and the number of pairs.  The target is on
# the median, unchanged: no tolerance is added for the spread; a ci95
# that straddles 1.10 says the rounds were too few to tell.
#
# BENCH_REAL_ONLY: an extended regular expression; only the programs whose
# name (as printed, e.g. urcu/test_urcu_gc, ck/ck_hp/ck_hp_fifo) matches
# it run (the summary lines are then about those programs only).
#
# Printed, then:
#   median slowdown ours / median slowdown TSan   (target <= 1/3)
#   focus cost, each program                      (target <= 1.10)
#   peak RSS ours <= native + 10 % + 16 MiB, each program (medians of runs)
# Raw runs: build/bench-runtime-real.log (one line a run, with its pair).
# Usage: sh bench/runtime-real.sh [TIMEIT]   (the helper bench/timeit.c;
# built here when not given).  Always exits 0 (a benchmark, not a test).
set -u
cd "$(dirname "$0")/.." || exit 1
KS=$(pwd)/build/kcsan-scan
RUNS=${BENCH_REAL_RUNS:-5}
MIN=${BENCH_REAL_MIN:-2}
MAXREP=${BENCH_REAL_MAXREP:-40}
LIMIT=${BENCH_TIMEOUT:-60}
LOG=build/bench-runtime-real.log
W=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-rreal.XXXXXX")
trap 'rm -rf "$W"' EXIT
TIMEIT=${1:-}
if [ -z "$TIMEIT" ]; then
	TIMEIT=$W/timeit
	${CC:-cc} -O2 -Wall -o "$TIMEIT" bench/timeit.c || {
		echo "runtime-bench (real programs): cannot build bench/timeit.c"; exit 0; }
fi
unset KCSAN_OPTIONS KCSAN_DB KCSAN_RUN_ID

# family, directory in the tree, program, kind (ops: fixed time; time:
# fixed work; contended: no fixed work, timed but left out of the
# targets), arguments.
cat >"$W/programs" <<'EOF'
urcu tests/benchmark test_urcu      ops 2 2 1
urcu tests/benchmark test_urcu_gc   ops 2 2 1
urcu tests/benchmark test_urcu_lfs  ops 2 2 1
urcu tests/benchmark test_urcu_lfq  ops 2 2 1
urcu tests/benchmark test_urcu_wfcq ops 2 2 1
urcu tests/benchmark test_urcu_hash ops 2 2 1
ck regressions/ck_bytelock/validate validate     time 2 1
ck regressions/ck_rwlock/validate   validate     time 2 1
ck regressions/ck_brlock/validate   validate     time 2 1
ck regressions/ck_swlock/validate   validate     time 2 1
ck regressions/ck_tflock/validate   validate     time 2 1
ck regressions/ck_sequence/validate ck_sequence  contended 2 1
ckasm regressions/ck_fifo/validate  ck_fifo_mpmc time 2 1 16000
ck regressions/ck_hp/validate       ck_hp_fifo   time 1 1 1024 100
ckasm regressions/ck_stack/validate mpmc_pop     time 2 1 0
EOF

# family_ok FAMILY PREFIX: the three trees of the family are given.
: >"$W/families"
for fam in urcu:URCU ck:CK ckasm:CKASM; do
	f=${fam%%:*} v=${fam#*:}
	missing=""
	for c in NATIVE OURS TSAN; do
		eval "d=\${BENCH_${v}_$c:-}"
		[ -n "$d" ] && [ -d "$d" ] || missing="$missing BENCH_${v}_$c"
	done
	if [ -n "$missing" ]; then
		echo "runtime-bench (real programs): $f skipped: set$missing (build trees; bench/README.md)"
		continue
	fi
	if [ "$f" = ck ]; then
		nb=""
		for c in NATIVE OURS TSAN; do
			eval "d=\${BENCH_${v}_$c}"
			grep -q 'CK_USE_CC_BUILTINS=1' "$d/build/regressions.build" 2>/dev/null || nb="$nb BENCH_CK_$c"
		done
		[ -z "$nb" ] || echo "runtime-bench (real programs): ck: not configured with --use-cc-builtins:$nb (TSan does not see CK's inline-asm primitives there: its slowdowns are not a cost of checking them; see the header of bench/runtime-real.sh)"
	fi
	eval "db=\${BENCH_${v}_DB:-}"
	if [ -n "$db" ] && [ -f "$db" ]; then
		cp "$db" "$W/$f.db"
	else
		echo "runtime-bench (real programs): $f: no BENCH_${v}_DB, focus not measured"
		: >"$W/$f.nodb"
	fi
	echo "$f $v" >>"$W/families"
done
[ -s "$W/families" ] || exit 0
echo "runtime-bench (real programs): $RUNS round(s), each configuration run to >= $MIN s a round (ours/no-focus in interleaved pairs); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# name FAMILY DIR PROGRAM: how a program is shown (CK has five "validate").
name() {
	case $2 in
	*/validate) d=${2%/validate}; echo "$1/${d##*/}/$3" ;;
	*)          echo "$1/$3" ;;
	esac
}

# One run: appends "program config round seconds rss status ops rep" (rep:
# the run's number in its round, for ours and no-focus the pair's) and
# leaves its time in $secs.
measure() {
	f=$1 v=$2 dir=$3 p=$4 cfg=$5 r=$6 rep=$7
	shift 7
	case $cfg in
	native) eval "t=\$BENCH_${v}_NATIVE" ;;
	tsan)   eval "t=\$BENCH_${v}_TSAN" ;;
	*)      eval "t=\$BENCH_${v}_OURS" ;;
	esac
	rm -f "$W/t"
	db=$W/$f.db
	[ -f "$W/$f.nodb" ] && db=$W/$f-nodb.db
	(
		cd "$t/$dir" || exit 2
		case $cfg in
		native|tsan) "$TIMEIT" "$W/t" "$LIMIT" "./$p" "$@" ;;
		ours)        "$KS" run --db "$db" -- "$TIMEIT" "$W/t" "$LIMIT" "./$p" "$@" ;;
		no-focus)    "$KS" run --db "$db" --no-focus -- "$TIMEIT" "$W/t" "$LIMIT" "./$p" "$@" ;;
		esac
	) </dev/null >"$W/out" 2>"$W/err"
	if [ -s "$W/t" ]; then
		read -r secs rss st <"$W/t"
	else
		secs=$LIMIT rss=0 st=failed
	fi
	ops=$(sed -n 's/.*nr_ops *\([0-9][0-9]*\).*/\1/p' "$W/out" "$W/err" | head -n 1)
	# A program that its build does not support (CK without a primitive it
	# needs) says so and exits 0 at once: it measured nothing.
	grep -q '^Unsupported\.' "$W/out" "$W/err" && st=unsupported
	# TSan's reports make the program exit 66: the run itself is whole.
	[ "$cfg" = tsan ] && [ "$st" = exit:66 ] && st=ok
	[ "$st" = ok ] || { echo "$f/$p $cfg round $r: $st"; sed 's/^/  /' "$W/err" | tail -n 3; }
	echo "$(name "$f" "$dir" "$p") $cfg $r $secs $rss $st ${ops:-0} $rep" >>"$W/runs"
}

# more TOTAL N: another run is due (a configuration's runs in this round
# add up to TOTAL seconds after N runs: fewer than MIN s, or fewer than
# two runs of a fixed-time program, and fewer than MAXREP runs).
more() {
	awk -v t="$1" -v n="$2" -v min="$MIN" -v max="$MAXREP" -v kind="$kind" \
	    'BEGIN { exit !(n < max && (t < min || (kind == "ops" && n < 2))) }'
}
add() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }

: >"$W/runs"
r=1
while [ "$r" -le "$RUNS" ]; do
	printf 'real programs: round %d/%d ...\n' "$r" "$RUNS"
	while read -r f dir p kind args; do
		v=$(awk -v f="$f" '$1 == f { print $2 }' "$W/families")
		[ -n "$v" ] || continue
		[ -z "${BENCH_REAL_ONLY:-}" ] || name "$f" "$dir" "$p" | grep -Eq -- "$BENCH_REAL_ONLY" || continue
		# shellcheck disable=SC2086
		# (measure sets cfg: the loop has its own variable)
		for mode in native pairs tsan; do
			n=0 tot=0 tf=0
			while more "$tot" "$n" || { [ "$mode" = pairs ] && more "$tf" "$n"; }; do
				n=$((n + 1))
				if [ "$mode" != pairs ]; then
					measure "$f" "$v" "$dir" "$p" "$mode" "$r" "$n" $args
					tot=$(add "$tot" "$secs")
					continue
				fi
				# The pair's order alternates with n + r.
				if [ $(((n + r) % 2)) -eq 0 ]; then
					measure "$f" "$v" "$dir" "$p" ours "$r" "$n" $args
					tot=$(add "$tot" "$secs")
					measure "$f" "$v" "$dir" "$p" no-focus "$r" "$n" $args
					tf=$(add "$tf" "$secs")
				else
					measure "$f" "$v" "$dir" "$p" no-focus "$r" "$n" $args
					tf=$(add "$tf" "$secs")
					measure "$f" "$v" "$dir" "$p" ours "$r" "$n" $args
					tot=$(add "$tot" "$secs")
				fi
			done
		done
	done <"$W/programs"
	r=$((r + 1))
done
{
	echo "# $(date -u +%FT%TZ) BENCH_REAL_RUNS=$RUNS $(nproc) CPUs"
	echo "# BENCH_REAL_MIN=$MIN BENCH_REAL_MAXREP=$MAXREP BENCH_REAL_ONLY=${BENCH_REAL_ONLY:-}; load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# program config round seconds maxrss-KiB status nr_ops rep (ours/no-focus: the pair)"
	cat "$W/runs"
} >"$LOG"

awk -v progs="$W/programs" -v runs="$RUNS" \
    -v nodbs=" $(cd "$W" && for x in *.nodb; do [ -f "$x" ] && printf '%s ' "${x%.nodb}"; done)" \
    "$(cat bench/stats.awk)"'
# The cost of configuration c over configuration b from their figures x
# (mean time, or mean ops) and y (> 1: c is slower).
function cost(n, x, y) {
	if (kind[n] == "ops")
		return (x > 0 ? y / x : 1e9)
	return (y > 0 ? x / y : 1e9)
}
# The figure of configuration c in round r: the mean time or the mean ops of its runs.
function fig(n, c, r) {
	if (N[n, c, r] == 0) return 0
	return (kind[n] == "ops" ? SO[n, c, r] : ST[n, c, r]) / N[n, c, r]
}
BEGIN {
	while ((getline line < progs) > 0) {
		split(line, b, " ")
		d = b[2]
		if (d ~ /\/validate$/) {
			sub(/\/validate$/, "", d); sub(/.*\//, "", d)
			kind[b[1] "/" d "/" b[3]] = b[4]
		} else
			kind[b[1] "/" b[3]] = b[4]
	}
}
{
	if (!($1 in seen)) { seen[$1] = 1; np++; prog[np] = $1 }
	N[$1, $2, $3]++; ST[$1, $2, $3] += $4; SO[$1, $2, $3] += $7
	m[$1, $2] = m[$1, $2] " " $5
	if ($2 == "ours" || $2 == "no-focus") { PT[$1, $2, $3, $8] = $4; PO[$1, $2, $3, $8] = $7
		if ($8 > maxpair[$1, $3]) maxpair[$1, $3] = $8 }
	if ($6 != "ok") bad[$1] = 1
}
END {
	printf "\nper program: slowdown over native (ops: native ops / ops; time: time / native time; each\n"
	printf "configuration: the mean of its runs in a round; medians over %d rounds), ratio = ours/TSan,\n", runs
	printf "focus = ours/no-focus in the same sense: median of the per-pair ratios, with their\n"
	printf "interquartile range (iqr), a 95%% confidence interval of the median (ci95) and the number of\n"
	printf "pairs; runs per round (native/pairs/tsan), peak RSS MiB\n"
	printf "%-26s %9s %7s %7s %7s %5s %5s %-9s %-9s %5s %8s %7s %7s %7s\n", "program", "kind", "x-ours", "x-nofoc",
	       "x-tsan", "ratio", "focus", "iqr", "ci95", "pairs", "runs", "rss-nat", "rss-our", "rss-tsn"
	for (p = 1; p <= np; p++) {
		n = prog[p]; so = sf = st = sr = sc = ""; npairs = 0
		rn_ = rp_ = rt_ = 0
		for (r = 1; r <= runs; r++) {
			xn = fig(n, "native", r)
			xo = cost(n, fig(n, "ours", r), xn); xf = cost(n, fig(n, "no-focus", r), xn)
			xt = cost(n, fig(n, "tsan", r), xn)
			so = so " " xo; sf = sf " " xf; st = st " " xt
			sr = sr " " (xt > 0 ? xo / xt : 1e9)
			rn_ += N[n, "native", r]; rp_ += maxpair[n, r]; rt_ += N[n, "tsan", r]
			for (k = 1; k <= maxpair[n, r]; k++) {
				if (!((n, "ours", r, k) in PT) || !((n, "no-focus", r, k) in PT))
					continue
				if (kind[n] == "ops")
					c = cost(n, PO[n, "ours", r, k], PO[n, "no-focus", r, k])
				else
					c = cost(n, PT[n, "ours", r, k], PT[n, "no-focus", r, k])
				sc = sc " " c; npairs++
			}
		}
		fam = substr(n, 1, index(n, "/") - 1)
		nodb = index(nodbs, " " fam " ") > 0
		XO = median(so); XT = median(st); C = median(sc)
		rn = median(m[n, "native"]); ro = median(m[n, "ours"])
		printf "%-26s %9s %6.1fx %6.1fx %6.1fx %5.2f %5s %-9s %-9s %5d %8s %7.1f %7.1f %7.1f%s\n", n, kind[n], XO,
		       median(sf), XT, median(sr), (nodb ? "-" : sprintf("%.2f", C)),
		       (nodb ? "-" : sprintf("%.2f-%.2f", quantile(sc, 0.25), quantile(sc, 0.75))),
		       (nodb ? "-" : sprintf("%.2f-%.2f", median_ci(sc, -1), median_ci(sc, 1))), npairs,
		       sprintf("%.0f/%.0f/%.0f", rn_ / runs, rp_ / runs, rt_ / runs), rn / 1024,
		       ro / 1024, median(m[n, "tsan"]) / 1024, (bad[n] ? "  (a run failed: see the log)" : "")
		rss_ok += ro <= rn * 1.1 + 16 * 1024
		if (kind[n] == "contended") {
			nout++
			continue
		}
		ao = ao " " XO; at = at " " XT; ar = ar " " median(sr)
		if (!nodb) {
			nf++; fc = fc " " C; tp += npairs
			if (C > fmax) { fmax = C; fworst = n }
		}
	}
	if (nout)
		printf "(%d program(s) of kind \"contended\", whose work is not fixed, are left out of the ratio and the focus cost below)\n", nout
	mo = median(ao); mt = median(at)
	printf "\nreal programs, median slowdown: ours %.1fx, TSan %.1fx; ratio ours/TSan %.2f (target <= 0.33): %s\n",
	       mo, mt, mo / mt, (mo / mt <= 1 / 3 ? "PASS" : "MISS")
	printf "  per-program ratios ours/TSan: median %.2f, from %.2f to %.2f\n", median(ar), lowest(ar), highest(ar)
	if (nf)
		printf "real programs, focus cost ours/no-focus, %d program(s) (%d interleaved pairs): median %.2f, worst %.2f (%s) (target <= 1.10 on each): %s\n",
		       nf, tp, median(fc), fmax, fworst, (fmax <= 1.10 ? "PASS" : "MISS")
	printf "real programs, peak RSS ours <= native + 10%% + 16 MiB: %d/%d programs: %s\n",
	       rss_ok, np, (rss_ok == np ? "PASS" : "MISS")
}' "$W/runs"
echo "raw runs: $LOG"
exit 0
