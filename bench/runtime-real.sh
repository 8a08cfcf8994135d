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
#       the same for Concurrency Kit (regressions/*/validate built)
#
# A family whose three trees are not all given is skipped with a line that
# says which variable is missing.  Each program runs in four configurations
# (native, ours = `kcsan-scan run --db DB`, no-focus, tsan) in
# BENCH_REAL_RUNS rounds (3), the four of a program one after the other.
#
# liburcu's benchmarks run for a fixed time (`2 2 1`: 2 readers, 2 writers,
# 1 second) and print the operations they made (nr_ops): their slowdown is
# native ops / instrumented ops.  CK's programs do a fixed work: their
# slowdown is instrumented time / native time.  The focus cost is ours over
# no-focus in the same sense (time, or no-focus ops / ours ops).  Ratios
# are computed within each round and the medians printed, then:
#   median slowdown ours / median slowdown TSan   (target <= 1/3)
#   focus cost, each program                      (target <= 1.10)
#   peak RSS ours <= native + 10 % + 16 MiB, each program
# Usage: sh bench/runtime-real.sh TIMEIT   (the helper runtime-bench.sh built)
set -u
cd "$(dirname "$0")/.." || exit 1
KS=$(pwd)/build/kcsan-scan
TIMEIT=$1
RUNS=${BENCH_REAL_RUNS:-3}
LIMIT=${BENCH_TIMEOUT:-60}
LOG=build/bench-runtime-real.log
W=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-rreal.XXXXXX")
trap 'rm -rf "$W"' EXIT
unset KCSAN_OPTIONS KCSAN_DB KCSAN_RUN_ID

# family, directory in the tree, program, kind (ops: fixed time; time:
# fixed work), arguments.
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
ck regressions/ck_sequence/validate ck_sequence  time 2 1
ck regressions/ck_fifo/validate     ck_fifo_mpmc time 2 1 16000
ck regressions/ck_hp/validate       ck_hp_fifo   time 1 1 1024 100
ck regressions/ck_stack/validate    mpmc_pop     time 2 1 0
EOF

# family_ok FAMILY PREFIX: the three trees of the family are given.
: >"$W/families"
for fam in urcu:URCU ck:CK; do
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
echo "runtime-bench (real programs): $RUNS round(s); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# name FAMILY DIR PROGRAM: how a program is shown (CK has five "validate").
name() {
	case $2 in
	*/validate) d=${2%/validate}; echo "$1/${d##*/}/$3" ;;
	*)          echo "$1/$3" ;;
	esac
}

# One run: appends "program config round seconds rss status ops".
measure() {
	f=$1 v=$2 dir=$3 p=$4 cfg=$5 r=$6
	shift 6
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
	# TSan's reports make the program exit 66: the run itself is whole.
	[ "$cfg" = tsan ] && [ "$st" = exit:66 ] && st=ok
	[ "$st" = ok ] || { echo "$f/$p $cfg round $r: $st"; sed 's/^/  /' "$W/err" | tail -n 3; }
	echo "$(name "$f" "$dir" "$p") $cfg $r $secs $rss $st ${ops:-0}" >>"$W/runs"
}

: >"$W/runs"
r=1
while [ "$r" -le "$RUNS" ]; do
	printf 'real programs: round %d/%d ...\n' "$r" "$RUNS"
	while read -r f dir p kind args; do
		v=$(awk -v f="$f" '$1 == f { print $2 }' "$W/families")
		[ -n "$v" ] || continue
		for cfg in native ours no-focus tsan; do
			# shellcheck disable=SC2086
			measure "$f" "$v" "$dir" "$p" "$cfg" "$r" $args
		done
	done <"$W/programs"
	r=$((r + 1))
done
{
	echo "# $(date -u +%FT%TZ) BENCH_REAL_RUNS=$RUNS $(nproc) CPUs"
	echo "# program config round seconds maxrss-KiB status nr_ops"
	cat "$W/runs"
} >"$LOG"

awk -v progs="$W/programs" -v runs="$RUNS" -v nodb_urcu="$([ -f "$W/urcu.nodb" ] && echo 1)" \
    -v nodb_ck="$([ -f "$W/ck.nodb" ] && echo 1)" "$(cat bench/stats.awk)"'
# The cost of configuration c over configuration b in round r (> 1: slower).
function cost(n, c, b, r) {
	if (kind[n] == "ops")
		return (O[n, c, r] > 0 ? O[n, b, r] / O[n, c, r] : 1e9)
	return (T[n, b, r] > 0 ? T[n, c, r] / T[n, b, r] : 1e9)
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
	T[$1, $2, $3] = $4; O[$1, $2, $3] = $7; m[$1, $2] = m[$1, $2] " " $5
	if ($6 != "ok") bad[$1] = 1
}
END {
	printf "\nper program: slowdown over native (ops: native ops / ops; time: time / native time), ratio = ours/TSan,\n"
	printf "focus cost = ours/no-focus in the same sense, peak RSS MiB (medians over %d rounds)\n", runs
	printf "%-30s %5s %8s %8s %8s %6s %6s %8s %8s %8s\n", "program", "kind", "x-ours", "x-nofoc",
	       "x-tsan", "ratio", "focus", "rss-nat", "rss-ours", "rss-tsan"
	for (p = 1; p <= np; p++) {
		n = prog[p]; so = sf = st = sr = sc = ""
		for (r = 1; r <= runs; r++) {
			xo = cost(n, "ours", "native", r); xf = cost(n, "no-focus", "native", r)
			xt = cost(n, "tsan", "native", r)
			so = so " " xo; sf = sf " " xf; st = st " " xt
			sr = sr " " (xt > 0 ? xo / xt : 1e9); sc = sc " " cost(n, "ours", "no-focus", r)
		}
		fam = substr(n, 1, index(n, "/") - 1)
		nodb = (fam == "urcu" ? nodb_urcu : nodb_ck)
		XO = median(so); XT = median(st); C = median(sc)
		rn = median(m[n, "native"]); ro = median(m[n, "ours"])
		printf "%-30s %5s %7.1fx %7.1fx %7.1fx %6.2f %6s %8.1f %8.1f %8.1f%s\n", n, kind[n], XO,
		       median(sf), XT, median(sr), (nodb ? "-" : sprintf("%.2f", C)), rn / 1024,
		       ro / 1024, median(m[n, "tsan"]) / 1024, (bad[n] ? "  (a run failed: see the log)" : "")
		ao = ao " " XO; at = at " " XT; ar = ar " " median(sr)
		if (!nodb) {
			nf++; fc = fc " " C
			if (C > fmax) { fmax = C; fworst = n }
		}
		rss_ok += ro <= rn * 1.1 + 16 * 1024
	}
	mo = median(ao); mt = median(at)
	printf "\nreal programs, median slowdown: ours %.1fx, TSan %.1fx; ratio ours/TSan %.2f (target <= 0.33): %s\n",
	       mo, mt, mo / mt, (mo / mt <= 1 / 3 ? "PASS" : "MISS")
	printf "  per-program ratios ours/TSan: median %.2f, from %.2f to %.2f\n", median(ar), lowest(ar), highest(ar)
	if (nf)
		printf "real programs, focus cost ours/no-focus, %d program(s): median %.2f, worst %.2f (%s) (target <= 1.10 on each): %s\n",
		       nf, median(fc), fmax, fworst, (fmax <= 1.10 ? "PASS" : "MISS")
	printf "real programs, peak RSS ours <= native + 10%% + 16 MiB: %d/%d programs: %s\n",
	       rss_ok, np, (rss_ok == np ? "PASS" : "MISS")
}' "$W/runs"
echo "raw runs: $LOG"
exit 0
