# tests/e2e/lib.sh — helpers for the end-to-end shell tests: each test is a
# function that returns non-zero on failure; `check NAME CMD...` runs one and
# counts it; `finish` prints the closing "N passed, M failed" line.
set -u
KS=${KS:-$(pwd)/build/kcsan-scan}
TOP=$(pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PASS=0
FAIL=0

check() {
	name=$1
	shift
	if ( "$@" ) >"$WORK/out.log" 2>&1; then
		PASS=$((PASS + 1))
		echo "ok   $name"
	else
		FAIL=$((FAIL + 1))
		echo "FAIL $name"
		sed 's/^/     | /' "$WORK/out.log" | tail -n 20
	fi
}

finish() {
	echo "$PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
}

# Fails with a message unless the last command's output file contains TEXT.
expect_in() {
	grep -q -- "$2" "$1" || { echo "expected '$2' in $1:"; cat "$1"; return 1; }
}
