#!/bin/sh
# tests/run-dynamic.sh — the end-to-end suites that run instrumented
# programs under the runtime (make dynamic-check, part of make check):
# real threads, so every result has chance in it; each suite is written to
# hold on a loaded 2-core machine (enough runs, no wall-clock asserts).
set -u
cd "$(dirname "$0")/.."
. tests/suites.sh

run_suite "runtime: barrier table, message passing, pthreads, gcc and clang" sh tests/runtime/run.sh
run_suite "dynamic: cc, run, races in the database, joined report" sh tests/e2e/dynamic.sh
run_suite "c++: kcsan-scan c++ with clang++ and g++, C objects, racy twin" sh tests/e2e/cxx.sh
run_suite "runtime robustness: crashes, fork stress, a locked database" sh tests/e2e/runtime-robust.sh
run_suite "focus: candidates loaded and mapped, static barriers, focus off" sh tests/e2e/focus.sh
run_suite "runtime options: one table, parsed, in --help and the manual" sh tests/e2e/runtime-options.sh
run_suite "delay budget: every window counted, read-heavy load with focus" sh tests/dynamic/budget.sh
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
finish_suites "all dynamic suites"
