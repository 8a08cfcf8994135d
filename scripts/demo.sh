#!/bin/sh
# scripts/demo.sh — `make demo`: scan every bundled example and print what
# kcsan-scan reports.  Each twin is scanned on its own, as the separate
# program it is, into build/demo/NAME-TWIN.db.
set -eu
KS=build/kcsan-scan
out=build/demo
mkdir -p "$out"
total=0
for dir in examples/*/; do
	name=$(basename "$dir")
	for twin in buggy fixed; do
		src="$dir$twin.c"
		[ -f "$src" ] || continue
		db="$out/$name-$twin.db"
		rm -f "$db" "$db-wal" "$db-shm"
		echo "== $src"
		"$KS" scan -q --db "$db" "$src"
		"$KS" report --db "$db" --format text
		echo
	done
done
echo "The JSON and SARIF forms: build/kcsan-scan report --db $out/message-passing-buggy.db --format json|sarif"
