#!/bin/sh
# scripts/embed-sql.sh — turn db/schema.sql into a C string (build step), so
# that the schema has one source and every binary carries it.
# usage: embed-sql.sh SCHEMA.sql SYMBOL > out.c
set -eu
echo "/* generated from $1 by scripts/embed-sql.sh; do not edit */"
echo "const char $2[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$1"
echo ";"
