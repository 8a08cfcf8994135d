#!/bin/sh
# tests/run-tests.sh — the end-to-end half of `make check`.  Runs every
# suite, shows its output, and ends with the overall "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
total_pass=0
total_fail=0

run_suite() {
	name=$1
	shift
	echo "=== $name"
	"$@" >build/suite.log 2>&1
	rc=$?
	cat build/suite.log
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' build/suite.log | tail -n 1)
	p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	[ -n "$p" ] || p=0
	[ -n "$f" ] || f=0
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1     # the suite failed without saying so
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

run_suite "layout: the analyser's folders depend one way" sh tests/layout.sh
run_suite "header: kcsan/lkmm.h" sh tests/header/run.sh
run_suite "examples build and run natively" sh examples/check-build.sh
run_suite "corpus builds and runs natively" sh tests/corpus/check-build.sh
run_suite "runtime: barrier table, message passing, pthreads, gcc and clang" sh tests/runtime/run.sh
run_suite "dynamic: cc, run, races in the database, joined report" sh tests/e2e/dynamic.sh
run_suite "c++: kcsan-scan c++ with clang++ and g++, C objects, racy twin" sh tests/e2e/cxx.sh
run_suite "runtime robustness: crashes, fork stress, a locked database" sh tests/e2e/runtime-robust.sh
run_suite "focus: candidates loaded and mapped, static barriers, focus off" sh tests/e2e/focus.sh
for c in clang gcc; do
	run_suite "dynamic corpus subset ($c): buggy found, correct never reported" \
		python3 tests/dynamic/score-dynamic.py --cc $c --timeout 30 --fp-runs 3 \
		--min-class-recall 1 --max-fp 0 \
		tests/corpus/01-mp-once-once.c tests/corpus/35-lock-cmpxchg-relaxed.c \
		tests/corpus/57-ring-head-once.c tests/corpus-blind/b01-fifo-push-once.c \
		tests/corpus/03-mp-release-acquire.c tests/corpus/34-lock-cmpxchg-acquire.c \
		tests/corpus/56-ring-release-acquire.c tests/corpus-blind/b21-fifo-helpers-relacq.c
done
for c in clang gcc; do
	run_suite "examples at run time ($c): joined to static findings, fixed twins silent" \
		env KCSAN_CC=$c EXAMPLE_FIXED_RUNS=5 sh tests/dynamic/examples.sh
done
run_suite "scan: bad input, compile databases, incremental, profiles" sh tests/e2e/scan-cli.sh
run_suite "scan: failing and crashing files, paths, unreadable sources, pipes" sh tests/e2e/scan-robust.sh
for s in tests/e2e/report*.sh; do
	[ -f "$s" ] && run_suite "report: $(basename "$s" .sh)" sh "$s"
done
run_suite "examples: expected findings, fixed twins silent" \
	python3 tests/e2e/score.py --mode examples examples/*/buggy.c examples/*/fixed.c
run_suite "corpus: static recall and false positives" \
	python3 tests/e2e/score.py --mode corpus --min-recall "${KCSAN_MIN_RECALL:-0.95}" tests/corpus/[0-9]*.c
run_suite "blind corpus: static recall and false positives" \
	python3 tests/e2e/score.py --mode corpus --min-recall "${KCSAN_MIN_RECALL:-0.95}" tests/corpus-blind/b*.c
echo "=== all end-to-end suites"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
