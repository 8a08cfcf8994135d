#!/bin/sh
# tests/dynamic/examples.sh — issue 3's check of the bundled examples, run
# by `make eval-examples`: every example with a writer-side bug (EXPECT:
# missing-release), built with `kcsan-scan cc`, scanned, and run under
# `kcsan-scan run --timeout 10` (again, up to EXAMPLE_TRIES times, until the
# runtime records a race: detection is statistical) must be reported with
# dynamic evidence joined to a static missing-release or missing-acquire
# finding; its fixed twin, run EXAMPLE_FIXED_RUNS (20) times, must never
# be reported.  Prints one line per example and "N passed, M failed".
# Environment: KCSAN_CC (clang or gcc; default clang), EXAMPLE_TRIES (5),
# EXAMPLE_FIXED_RUNS (20).
set -u
cd "$(dirname "$0")/../.." || exit 1
TOP=$(pwd)
KS=$TOP/build/kcsan-scan
TRIES=${EXAMPLE_TRIES:-5}
RUNS=${EXAMPLE_FIXED_RUNS:-20}
CCNAME=${KCSAN_CC:-clang}
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
pass=0 fail=0

for buggy in $(grep -l 'EXPECT: missing-release' examples/*/buggy.c); do
	ex=$(basename "$(dirname "$buggy")")
	fixed=examples/$ex/fixed.c
	db=$W/$ex.db fdb=$W/$ex-fixed.db
	if ! "$KS" cc -O2 -o "$W/$ex" "$buggy" 2>"$W/err" || ! "$KS" cc -O2 -o "$W/$ex-fixed" "$fixed" 2>>"$W/err"; then
		echo "FAIL $ex: does not build with $CCNAME"; cat "$W/err"; fail=$((fail + 1)); continue
	fi
	"$KS" scan -q --db "$db" "$buggy" && "$KS" scan -q --db "$fdb" "$fixed" || {
		echo "FAIL $ex: scan failed"; fail=$((fail + 1)); continue; }
	t=0 races=0
	while [ $t -lt "$TRIES" ] && [ "$races" -eq 0 ]; do
		"$KS" run --db "$db" --timeout 10 -- "$W/$ex" >/dev/null 2>&1
		races=$(sqlite3 "$db" 'SELECT count(*) FROM races')
		t=$((t + 1))
	done
	joined=$("$KS" report --db "$db" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(1 for f in d["findings"] if f["evidence"] == ["static", "dynamic"]
          and f["kind"] in ("missing-release", "missing-acquire")))')
	reported=0
	for i in $(seq 1 "$RUNS"); do
		"$KS" run --db "$fdb" --timeout 10 -- "$W/$ex-fixed" >/dev/null 2>"$W/ferr"
		grep -q 'BUG: KCSAN' "$W/ferr" && reported=$((reported + 1))
	done
	fraces=$(sqlite3 "$fdb" 'SELECT count(*) FROM races')
	if [ "$joined" -ge 1 ] && [ "$reported" -eq 0 ] && [ "$fraces" -eq 0 ]; then
		echo "ok   $ex ($CCNAME): race joined static+dynamic after $t run(s); fixed twin: 0 reports in $RUNS runs"
		pass=$((pass + 1))
	else
		echo "FAIL $ex ($CCNAME): $races race(s) after $t run(s), $joined joined finding(s); fixed twin: $reported report(s) in $RUNS runs, $fraces race row(s)"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
