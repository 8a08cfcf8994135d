#!/bin/sh
# scripts/embed-profiles.sh — embed the built-in vocabulary profiles
# (profiles/*.prof) into the binary as a table of {name, text} (build step).
# usage: embed-profiles.sh DIR > out.c
set -eu
echo "/* generated from the profiles in $1 by scripts/embed-profiles.sh; do not edit */"
echo "#include <stddef.h>"
echo "struct builtin_profile { const char *name; const char *text; };"
echo "const struct builtin_profile builtin_profiles[] = {"
for f in "$1"/*.prof; do
	name=$(basename "$f" .prof)
	echo "{ \"$name\","
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$f"
	echo "},"
done
echo "{ NULL, NULL } };"
