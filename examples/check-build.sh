#!/bin/sh
# Build every example (buggy and fixed twin) with gcc and clang, warnings as
# errors, and run each binary under a timeout.  Prints one line per check
# and "N passed, M failed" last; exits 1 if anything failed.
#
# Usage: examples/check-build.sh [COMPILER...]   (default: gcc clang)
# Environment: CFLAGS_EXTRA is appended to the compile line.

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
compilers=${*:-gcc clang}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-examples.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0
fail=0
for cc in $compilers; do
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "FAIL $cc: compiler not found"
		fail=$((fail + 1))
		continue
	fi
	for dir in "$here"/*/; do
	for twin in buggy fixed; do
		src=$dir$twin.c
		name=$(basename "$dir")/$twin
		if [ ! -f "$src" ]; then
			echo "FAIL $name ($cc): $src is missing"
			fail=$((fail + 1))
			continue
		fi
		bin=$tmp/$(echo "$name" | tr / -)-$cc
		# shellcheck disable=SC2086
		if ! "$cc" -std=gnu11 -O1 -pthread -Wall -Wextra -Werror \
		    -I "$root/include" $CFLAGS_EXTRA "$src" -o "$bin" \
		    >"$tmp/log" 2>&1; then
			echo "FAIL $name ($cc): build failed"
			sed 's/^/    /' "$tmp/log"
			fail=$((fail + 1))
			continue
		fi
		timeout 10 "$bin" >"$tmp/log" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ]; then
			if [ "$rc" -eq 124 ]; then
				echo "FAIL $name ($cc): timed out after 10 s"
			else
				echo "FAIL $name ($cc): exit status $rc"
			fi
			sed 's/^/    /' "$tmp/log"
			fail=$((fail + 1))
			continue
		fi
		echo "ok   $name ($cc): $(tail -n 1 "$tmp/log")"
		pass=$((pass + 1))
	done
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
