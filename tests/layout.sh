#!/bin/sh
# tests/layout.sh — the analyser's folders depend on each other one way
# only (analyzer/README.md):
#
#   model  <-  frontend, analysis  <-  findings  <-  driver
#
# A file may include headers of its own folder and of the folders to its
# left; frontend and analysis do not include each other.  An include of a
# folder that is not allowed fails, naming the file and the line.
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0

allowed() {  # FOLDER: the folders it may include
	case $1 in
	model) echo "" ;;
	frontend | analysis) echo "model" ;;
	findings) echo "model analysis" ;;
	driver) echo "model frontend analysis findings" ;;
	*) echo "?" ;;
	esac
}

for dir in analyzer/*/; do
	folder=$(basename "$dir")
	ok=$(allowed "$folder")
	bad=0
	if [ "$ok" = "?" ]; then
		echo "FAIL analyzer/$folder: a folder this check does not know (add it to tests/layout.sh and analyzer/README.md)"
		fail=$((fail + 1))
		continue
	fi
	for line in $(grep -n '#include "analyzer/' "$dir"*.[ch] | sed 's/[[:space:]]//g'); do
		used=$(echo "$line" | sed 's/.*#include"analyzer\/\([^/]*\)\/.*/\1/')
		case " $ok " in
		*" $used "*) ;;
		*) echo "     | $line: $folder may not include $used"; bad=1 ;;
		esac
	done
	if [ $bad -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok   analyzer/$folder includes only: ${ok:-nothing of the analyser}"
	else
		fail=$((fail + 1))
		echo "FAIL analyzer/$folder"
	fi
done
# Nothing stays at the top: each file belongs to a concern.
top=$(ls analyzer/*.[ch] 2>/dev/null)
if [ -z "$top" ]; then
	pass=$((pass + 1))
	echo "ok   no source file directly under analyzer/"
else
	fail=$((fail + 1))
	echo "FAIL source files directly under analyzer/: $top"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
