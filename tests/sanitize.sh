#!/bin/sh
# tests/sanitize.sh DIR — the unit tests, both labelled corpora, the
# examples and the command-line suites with DIR/kcsan-scan and
# DIR/unit-tests, built with
# AddressSanitizer and UndefinedBehaviorSanitizer (make sanitize-check).
# A sanitizer report exits 86 (a leak 23); score.py fails a scan that
# exits with anything but 0 or 1, so every report fails a step.
set -u
cd "$(dirname "$0")/.."
dir=${1:-build-san}
export ASAN_OPTIONS=exitcode=86:detect_leaks=1
export UBSAN_OPTIONS=exitcode=86:print_stacktrace=1
pass=0
fail=0

step() {
	name=$1
	shift
	if "$@" >build-san.log 2>&1; then
		pass=$((pass + 1))
		echo "ok   $name"
	else
		fail=$((fail + 1))
		echo "FAIL $name"
		grep -E "runtime error|Sanitizer|FAIL|Assertion|failed" build-san.log | head -n 20 | sed 's/^/     | /'
	fi
}

echo "=== sanitizers (ASan, UBSan): $dir"
step "unit tests" "$dir/unit-tests" --jobs 2
step "labelled corpus" python3 tests/e2e/score.py --bin "$dir/kcsan-scan" --mode corpus tests/corpus/[0-9]*.c
step "blind corpus" python3 tests/e2e/score.py --bin "$dir/kcsan-scan" --mode corpus tests/corpus-blind/b*.c
step "examples" python3 tests/e2e/score.py --bin "$dir/kcsan-scan" --mode examples examples/*/buggy.c examples/*/fixed.c
# The command-line suites: their error paths are where leaks hide.
# (Not scan-cli.sh: one of its checks reads the dynamic linker's trace,
# in which ASan's dlopen interceptor stands where kcsan-scan would.)
for suite in scan-robust scan-macros report-cli report-safety report-review; do
	step "e2e: $suite" env KS="$(pwd)/$dir/kcsan-scan" sh "tests/e2e/$suite.sh"
done
rm -f build-san.log
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
