#!/bin/sh
# tests/run-tests.sh — the deterministic end-to-end half of `make check`
# (make e2e-check): the layout, the header, native builds, the scan and
# report command lines, the static scores of the corpora and examples, and
# the reproducers of docs/limitations.md as expected failures.
# The suites whose programs run under the runtime, with real threads and
# so with chance in them, are tests/run-dynamic.sh (make dynamic-check).
set -u
cd "$(dirname "$0")/.."
. tests/suites.sh

run_suite "layout: the analyser's folders depend one way" sh tests/layout.sh
run_suite "header: kcsan/lkmm.h" sh tests/header/run.sh
run_suite "examples build and run natively" sh examples/check-build.sh
run_suite "corpus builds and runs natively" sh tests/corpus/check-build.sh
run_suite "scan: bad input, compile databases, incremental, profiles" sh tests/e2e/scan-cli.sh
run_suite "scan: failing and crashing files, paths, unreadable sources, pipes" sh tests/e2e/scan-robust.sh
run_suite "scan: macro arguments of any number, names of any length" sh tests/e2e/scan-macros.sh
for s in tests/e2e/report*.sh; do
	[ -f "$s" ] && run_suite "report: $(basename "$s" .sh)" sh "$s"
done
run_suite "examples: expected findings, fixed twins silent" \
	python3 tests/e2e/score.py --mode examples examples/*/buggy.c examples/*/fixed.c
run_suite "corpus: static recall and false positives" \
	python3 tests/e2e/score.py --mode corpus --min-recall "${KCSAN_MIN_RECALL:-0.95}" tests/corpus/[0-9]*.c
run_suite "blind corpus: static recall and false positives" \
	python3 tests/e2e/score.py --mode corpus --min-recall "${KCSAN_MIN_RECALL:-0.95}" tests/corpus-blind/b*.c
# (reproducers are files or directories of several files; a pattern that
# matches nothing is left out, not passed on)
set --
for r in tests/limitations/*.c tests/limitations/*/ tests/corpus-blind/limits/*.c; do
	[ -e "$r" ] && set -- "$@" "$r"
done
run_suite "limitations: each known weakness still shows (expected failures; XPASS fails)" \
	python3 tests/e2e/score.py --mode limitations --doc docs/limitations.md "$@"
finish_suites "all end-to-end suites"
