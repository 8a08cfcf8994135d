#!/bin/sh
# tests/e2e/report-cli.sh — `kcsan-scan report` as CI meets it: usage
# errors, missing and foreign databases (exit 2, one line, file untouched),
# --fail-on levels (exit 1), the three formats, and -o written atomically.
. tests/e2e/lib.sh

missing_db() {
	"$KS" report --db "$WORK/absent.db" >"$WORK/out" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && expect_in "$WORK/err" "absent.db" &&
	[ ! -e "$WORK/absent.db" ] && [ ! -s "$WORK/out" ]
}

default_db_is_cwd() {
	mkdir -p "$WORK/cwd" && make_db "$WORK/cwd/kcsan.db" error &&
	(cd "$WORK/cwd" && "$KS" report) >"$WORK/out" && expect_in "$WORK/out" "src/f1.c:12:5: error: message 1"
}

other_version() {
	# a kcsan-scan database of another version: our tables, another number
	sqlite3 "$WORK/v7.db" <"$TOP/db/schema.sql" && sqlite3 "$WORK/v7.db" "PRAGMA user_version = 7;"
	"$KS" report --db "$WORK/v7.db" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && expect_in "$WORK/err" "version 7" &&
	[ "$(sqlite3 "$WORK/v7.db" 'PRAGMA user_version')" = 7 ] &&
	[ "$(sqlite3 "$WORK/v7.db" 'PRAGMA journal_mode')" = delete ]
}

foreign_db() {
	sqlite3 "$WORK/f.db" "CREATE TABLE people(name)"
	"$KS" report --db "$WORK/f.db" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" &&
	[ "$(sqlite3 "$WORK/f.db" 'SELECT count(*) FROM sqlite_master')" = 1 ]
}

not_a_database() {
	printf 'int main(void) { return 0; }\n' >"$WORK/src.c"
	cp "$WORK/src.c" "$WORK/src.orig"
	"$KS" report --db "$WORK/src.c" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && cmp -s "$WORK/src.c" "$WORK/src.orig"
}

empty_file_db() {
	: >"$WORK/empty.db"
	"$KS" report --db "$WORK/empty.db" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && [ ! -s "$WORK/empty.db" ]
}

usage_errors() {
	make_db "$WORK/u.db" error || return 1
	"$KS" report --db "$WORK/u.db" --format xml 2>"$WORK/err"; [ $? -eq 2 ] && one_line "$WORK/err" &&
		expect_in "$WORK/err" "xml" || return 1
	"$KS" report --db "$WORK/u.db" --fail-on fatal 2>"$WORK/err"; [ $? -eq 2 ] && one_line "$WORK/err" &&
		expect_in "$WORK/err" "fatal" || return 1
	"$KS" report --db "$WORK/u.db" --bogus 2>"$WORK/err"; [ $? -eq 2 ] && one_line "$WORK/err" || return 1
	"$KS" report --db "$WORK/u.db" stray 2>"$WORK/err"; [ $? -eq 2 ] && one_line "$WORK/err" || return 1
	"$KS" report --db 2>"$WORK/err"; [ $? -eq 2 ] && one_line "$WORK/err"
}

help_lists_options() {
	"$KS" report --help >"$WORK/h" && expect_in "$WORK/h" "--fail-on" && expect_in "$WORK/h" "--format" &&
	expect_in "$WORK/h" "--db" && expect_in "$WORK/h" "-o"
}

fail_on_levels() {
	make_db "$WORK/none.db" && make_db "$WORK/n.db" note && make_db "$WORK/w.db" warning note &&
	make_db "$WORK/e.db" note error || return 1
	for case in "none error 0" "none note 0" "n error 0" "n warning 0" "n note 1" \
		    "w error 0" "w warning 1" "w note 1" "e error 1" "e warning 1" "e note 1"; do
		set -- $case
		"$KS" report --db "$WORK/$1.db" --fail-on "$2" >/dev/null 2>&1; rc=$?
		[ $rc -eq "$3" ] || { echo "$1.db --fail-on $2: exit $rc, expected $3"; return 1; }
	done
	# without --fail-on, findings do not fail the command
	"$KS" report --db "$WORK/e.db" >/dev/null
}

fail_on_with_output() {
	make_db "$WORK/o.db" error || return 1
	"$KS" report --db "$WORK/o.db" --format=json --fail-on=error -o "$WORK/o.json"; rc=$?
	[ $rc -eq 1 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["summary"]["errors"] == 1' "$WORK/o.json"
}

formats() {
	make_db "$WORK/fm.db" warning || return 1
	"$KS" report --db "$WORK/fm.db" >"$WORK/t" && expect_in "$WORK/t" "src/f1.c:12:5: warning: message 1 \[kcsan-scan:missing-release\]" &&
	expect_in "$WORK/t" "src/f1.c:13:5: note: publishing write to 'flag' here" &&
	[ "$(tail -n 1 "$WORK/t")" = "1 finding: 0 errors, 1 warning, 0 notes" ] &&
	"$KS" report --db "$WORK/fm.db" --format json >"$WORK/j" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"] == "kcsan-scan-report/1"; assert d["findings"][0]["id"] == "fp1"' "$WORK/j" &&
	"$KS" report --db "$WORK/fm.db" --format sarif >"$WORK/s" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"] == "2.1.0"' "$WORK/s"
}

empty_report() {
	make_db "$WORK/em.db" || return 1
	"$KS" report --db "$WORK/em.db" >"$WORK/t" && [ "$(cat "$WORK/t")" = "no findings" ]
}

output_file() {
	make_db "$WORK/of.db" error || return 1
	echo "old content" >"$WORK/report.txt"
	(umask 022 && "$KS" report --db "$WORK/of.db" -o "$WORK/report.txt") >"$WORK/stdout" || return 1
	[ ! -s "$WORK/stdout" ] && expect_in "$WORK/report.txt" "error: message 1" &&
	! grep -q "old content" "$WORK/report.txt" &&
	[ "$(stat -c %a "$WORK/report.txt")" = 644 ] &&
	[ -z "$(ls -A "$WORK" | grep '\.tmp\.')" ]
}

output_failure_leaves_nothing() {
	make_db "$WORK/of2.db" error || return 1
	mkdir -p "$WORK/outdir/target" && echo keep >"$WORK/outdir/target/inside"
	# the output path is a directory: the rename fails
	"$KS" report --db "$WORK/of2.db" -o "$WORK/outdir/target" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && [ -d "$WORK/outdir/target" ] &&
	[ "$(ls -A "$WORK/outdir")" = target ] || return 1
	# the output directory does not exist
	"$KS" report --db "$WORK/of2.db" -o "$WORK/no/such/dir/r.txt" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && expect_in "$WORK/err" "no/such/dir/r.txt" && [ ! -e "$WORK/no" ]
}

check "missing database: exit 2, one line, nothing created" missing_db
check "default database is ./kcsan.db" default_db_is_cwd
check "database of another schema version: exit 2, untouched" other_version
check "foreign SQLite database: exit 2, untouched" foreign_db
check "a file that is not a database: exit 2, untouched" not_a_database
check "an empty file: exit 2, untouched" empty_file_db
check "usage errors: exit 2 with one line" usage_errors
check "--help lists the options" help_lists_options
check "--fail-on error|warning|note" fail_on_levels
check "--fail-on with -o still writes the report" fail_on_with_output
check "text, json and sarif formats" formats
check "no findings" empty_report
check "-o replaces the file atomically with normal permissions" output_file
check "-o failure leaves no file behind" output_failure_leaves_nothing
finish
