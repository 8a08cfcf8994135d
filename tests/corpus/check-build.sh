#!/bin/sh
# tests/corpus/check-build.sh -- sanity checks for the labelled corpus.
#
# For every tests/corpus/NN-name.c:
#   1. the header labels are present, well-formed and consistent:
#        corpus: NAME             (equal to the file name without NN- and .c)
#        lkmm: race | unordered | no-race
#        lacks: writer | reader | both | none
#        delayed-in-publisher: yes | no | gcc | clang
#        about: ...
#      race <=> at least one // RACE(...) marker; a race marks both sides
#      (RACE(writer) and RACE(reader)); unordered <=> // UNORDERED(...)
#      markers, likewise on both sides; lacks: none <=> no-race;
#      delayed-in-publisher: yes, gcc or clang => race with lacks writer or both;
#      a RACE line holds no marked access (READ_ONCE, atomics, volatile...),
#      an UNORDERED line holds one;
#      lkmm.h and <stdatomic.h> are not both included; numbers are unique;
#      the program is listed in README.md with the same labels;
#   2. it builds warning-free (-Wall -Wextra -Werror) with each compiler;
#   3. the native binary exits 0 within 10 s with a small iteration count.
# Prints one line per check and "N passed, M failed" last; exits 1 on failure.
#
# Usage: tests/corpus/check-build.sh [COMPILER...]   (default: gcc clang)
# Environment: CORPUS_ITERS (default 50) is passed to each binary;
#              CFLAGS_EXTRA is appended to the compile line.

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
compilers=${*:-gcc clang}
iters=${CORPUS_ITERS:-50}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-corpus.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# header FILE FIELD: the value of " * FIELD: value" in the leading comment.
header() {
	awk -v f="$2" '
		/^ \*\// { exit }
		{
			line = $0
			sub(/^ \* */, "", line)
			if (index(line, f ":") == 1) {
				v = substr(line, length(f) + 2)
				sub(/^[ \t]+/, "", v)
				sub(/[ \t]+$/, "", v)
				print v
				exit
			}
		}' "$1"
}

check_labels() {
	src=$1
	base=$(basename "$src" .c)
	name=${base#*-}
	problems=""
	add() { problems="$problems; $1"; }

	corpus=$(header "$src" corpus)
	lkmm=$(header "$src" lkmm)
	lacks=$(header "$src" lacks)
	delayed=$(header "$src" delayed-in-publisher)
	about=$(header "$src" about)
	nwriter=$(grep -c '//[[:space:]]*RACE(writer)' "$src")
	nreader=$(grep -c '//[[:space:]]*RACE(reader)' "$src")
	nany=$(grep -c '//[[:space:]]*RACE(' "$src")
	nbad=$(grep '//[[:space:]]*RACE(' "$src" | grep -cv '//[[:space:]]*RACE(\(writer\|reader\))')
	uwriter=$(grep -c '//[[:space:]]*UNORDERED(writer)' "$src")
	ureader=$(grep -c '//[[:space:]]*UNORDERED(reader)' "$src")
	uany=$(grep -c '//[[:space:]]*UNORDERED(' "$src")
	ubad=$(grep '//[[:space:]]*UNORDERED(' "$src" | grep -cv '//[[:space:]]*UNORDERED(\(writer\|reader\))')

	[ "$corpus" = "$name" ] || add "corpus: '$corpus' does not match the file name '$name'"
	case $lkmm in race|unordered|no-race) ;; *) add "lkmm: '$lkmm' is not race, unordered or no-race" ;; esac
	case $lacks in writer|reader|both|none) ;; *) add "lacks: '$lacks' is not writer, reader, both or none" ;; esac
	case $delayed in yes|no|gcc|clang) ;; *) add "delayed-in-publisher: '$delayed' is not yes, no, gcc or clang" ;; esac
	[ -n "$about" ] || add "about: is missing"
	[ "$nbad" -eq 0 ] || add "$nbad malformed RACE marker(s)"
	[ "$ubad" -eq 0 ] || add "$ubad malformed UNORDERED marker(s)"
	[ "$lkmm" = unordered ] || [ "$uany" -eq 0 ] || add "lkmm: $lkmm but $uany UNORDERED marker(s)"
	if [ "$lkmm" = race ]; then
		[ "$nany" -gt 0 ] || add "lkmm: race but no RACE marker"
		[ "$nwriter" -gt 0 ] || add "lkmm: race but no RACE(writer) marker"
		[ "$nreader" -gt 0 ] || add "lkmm: race but no RACE(reader) marker"
		[ "$lacks" != none ] || add "lkmm: race with lacks: none"
	elif [ "$lkmm" = unordered ]; then
		# (no data race: every access that takes part is marked; the
		# runtime's weak-memory model delays plain accesses only)
		[ "$nany" -eq 0 ] || add "lkmm: unordered but $nany RACE marker(s)"
		[ "$uwriter" -gt 0 ] || add "lkmm: unordered but no UNORDERED(writer) marker"
		[ "$ureader" -gt 0 ] || add "lkmm: unordered but no UNORDERED(reader) marker"
		[ "$lacks" != none ] || add "lkmm: unordered with lacks: none"
		[ "$delayed" = no ] || add "lkmm: unordered with delayed-in-publisher: $delayed"
		unmarked=$(grep '//[[:space:]]*UNORDERED(' "$src" | sed 's|//.*||' |
			grep -Ev 'READ_ONCE|WRITE_ONCE|smp_|atomic|__sync|volatile|xchg|_bit\(')
		[ -z "$unmarked" ] ||
			add "an UNORDERED line holds no marked access: $(echo "$unmarked" | head -n 1 | sed 's/^[[:space:]]*//')"
	else
		[ "$nany" -eq 0 ] || add "lkmm: $lkmm but $nany RACE marker(s)"
		[ "$lacks" = none ] || add "lkmm: $lkmm with lacks: $lacks"
		[ "$delayed" = no ] || add "lkmm: $lkmm with delayed-in-publisher: $delayed"
	fi
	if [ "$delayed" != no ]; then
		case $lacks in writer|both) ;; *) add "delayed-in-publisher: yes but lacks: $lacks" ;; esac
	fi
	marked=$(grep '//[[:space:]]*RACE(' "$src" | sed 's|//.*||' |
		grep -E 'READ_ONCE|WRITE_ONCE|smp_|atomic|__sync|volatile|xchg|_bit\(' )
	[ -z "$marked" ] || add "a RACE line holds a marked access: $(echo "$marked" | head -n 1 | sed 's/^[[:space:]]*//')"
	if grep -q '^#include <kcsan/lkmm.h>' "$src" && grep -q '^#include <stdatomic.h>' "$src"; then
		add "includes both kcsan/lkmm.h and <stdatomic.h>"
	fi
	grep -q '^int main(int argc, char \*\*argv)' "$src" || add "no 'int main(int argc, char **argv)'"
	grep -q 'pthread_create' "$src" || add "does not use pthread_create"
	grep -q "\`$base.c\` | $lkmm | $lacks | $delayed |" "$here/README.md" 2>/dev/null ||
		add "not listed in README.md with these labels"

	if [ -z "$problems" ]; then
		ok "$base: labels (lkmm: $lkmm, lacks: $lacks, delayed-in-publisher: $delayed, markers: ${nwriter}w/${nreader}r, unordered ${uwriter}w/${ureader}r)"
	else
		bad "$base: labels${problems#;}"
	fi
}

# (two digits or more: 100 onwards too)
files=$(ls "$here"/[0-9][0-9]*-*.c 2>/dev/null)
if [ -z "$files" ]; then
	bad "no corpus programs in $here"
	echo "$pass passed, $fail failed"
	exit 1
fi

dups=$(for f in $files; do basename "$f" | cut -d- -f1; done | sort | uniq -d)
if [ -n "$dups" ]; then
	bad "duplicate program numbers: $(echo $dups)"
else
	ok "program numbers are unique ($(echo "$files" | wc -l | tr -d ' ') programs)"
fi

for src in $files; do
	check_labels "$src"
done

for cc in $compilers; do
	if ! command -v "$cc" >/dev/null 2>&1; then
		bad "$cc: compiler not found"
		continue
	fi
	for src in $files; do
		base=$(basename "$src" .c)
		bin=$tmp/$base-$cc
		# shellcheck disable=SC2086
		if ! "$cc" -std=gnu11 -O1 -pthread -Wall -Wextra -Werror \
		    -I "$root/include" $CFLAGS_EXTRA "$src" -o "$bin" \
		    >"$tmp/log" 2>&1; then
			bad "$base ($cc): build failed"
			sed 's/^/    /' "$tmp/log"
			continue
		fi
		timeout 10 "$bin" "$iters" >"$tmp/log" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ]; then
			if [ "$rc" -eq 124 ]; then
				bad "$base ($cc): timed out after 10 s"
			else
				bad "$base ($cc): exit status $rc"
			fi
			sed 's/^/    /' "$tmp/log"
			continue
		fi
		ok "$base ($cc): $(tail -n 1 "$tmp/log")"
	done
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
