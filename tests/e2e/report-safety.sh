#!/bin/sh
# tests/e2e/report-safety.sh — what `report -o`, `scan`, `run` and `report`
# must never damage, tried as a hostile user (and CI, as root) would: the
# system's devices, symbolic links, FIFOs, hard-linked and private files,
# the database itself, SQLite files that are not ours; and what they must
# say about an interrupted scan, a read-only database and file names with
# control characters.
. tests/e2e/lib.sh

# A database of ours and a finding in it.
setup() {
	[ -f "$WORK/r.db" ] || make_db "$WORK/r.db" error
}

# The char device case needs a device of our own: mknod is for root.
char_device_written_through() {
	setup || return 1
	if [ "$(id -u)" = 0 ]; then
		dev="$WORK/null" && mknod "$dev" c 1 3 || return 1
	else
		dev=/dev/null
	fi
	"$KS" report --db "$WORK/r.db" --fail-on error -o "$dev"; rc=$?
	[ $rc -eq 1 ] && [ -c "$dev" ] && [ -c /dev/null ] && [ -z "$(ls -A "$WORK" | grep '\.tmp\.')" ]
}

symlink_target_written() {
	setup || return 1
	echo old >"$WORK/target.txt" && ln -s target.txt "$WORK/link.txt" || return 1
	"$KS" report --db "$WORK/r.db" -o "$WORK/link.txt" || return 1
	[ -L "$WORK/link.txt" ] && [ "$(readlink "$WORK/link.txt")" = target.txt ] &&
	expect_in "$WORK/target.txt" "error: message 1" || return 1
	# a dangling link: its target is created, the link stays
	ln -s made.txt "$WORK/dangling.txt" && "$KS" report --db "$WORK/r.db" -o "$WORK/dangling.txt" &&
	[ -L "$WORK/dangling.txt" ] && expect_in "$WORK/made.txt" "error: message 1"
}

fifo_reader_gets_report() {
	setup || return 1
	mkfifo "$WORK/fifo" || return 1
	timeout 20 cat "$WORK/fifo" >"$WORK/from-fifo" &
	reader=$!
	timeout 20 "$KS" report --db "$WORK/r.db" -o "$WORK/fifo"; rc=$?
	wait $reader
	[ $rc -eq 0 ] && [ -p "$WORK/fifo" ] && expect_in "$WORK/from-fifo" "error: message 1"
}

private_file_keeps_mode() {
	setup || return 1
	echo old >"$WORK/private.txt" && chmod 600 "$WORK/private.txt" || return 1
	(umask 022 && "$KS" report --db "$WORK/r.db" -o "$WORK/private.txt") || return 1
	[ "$(stat -c %a "$WORK/private.txt")" = 600 ] && expect_in "$WORK/private.txt" "error: message 1"
}

hard_link_kept() {
	setup || return 1
	echo old >"$WORK/h1.txt" && chmod 600 "$WORK/h1.txt" && ln "$WORK/h1.txt" "$WORK/h2.txt" || return 1
	"$KS" report --db "$WORK/r.db" -o "$WORK/h1.txt" || return 1
	[ "$(stat -c %h "$WORK/h1.txt")" = 2 ] && [ "$(stat -c %a "$WORK/h1.txt")" = 600 ] &&
	expect_in "$WORK/h2.txt" "error: message 1"
}

database_refused() {
	setup || return 1
	cp "$WORK/r.db" "$WORK/r.orig" && make_db "$WORK/other.db" note && cp "$WORK/other.db" "$WORK/other.orig" ||
		return 1
	"$KS" report --db "$WORK/r.db" -o "$WORK/r.db" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && cmp -s "$WORK/r.db" "$WORK/r.orig" || return 1
	# the same database under another name
	ln -s r.db "$WORK/alias.db" && "$KS" report --db "$WORK/r.db" -o "$WORK/alias.db" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && cmp -s "$WORK/r.db" "$WORK/r.orig" || return 1
	# any other SQLite file
	"$KS" report --db "$WORK/r.db" -o "$WORK/other.db" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && cmp -s "$WORK/other.db" "$WORK/other.orig"
}

# A SQLite file of someone else's that happens to have user_version 1 (or
# ours) and even a table called scans: every command refuses it, exit 2,
# and it stays byte for byte what it was (journal mode included).
foreign_db_untouched() {
	sqlite3 "$WORK/foreign.db" "CREATE TABLE scans(x); CREATE TABLE people(name); INSERT INTO people VALUES ('a');
	                            PRAGMA user_version = $(sed -n 's/^PRAGMA user_version = \([0-9]*\);/\1/p' "$TOP/db/schema.sql");" ||
		return 1
	cp "$WORK/foreign.db" "$WORK/foreign.orig"
	printf 'int x;\nvoid f(void) { x = 1; }\n' >"$WORK/f.c"
	for cmd in report scan run; do
		case $cmd in
		report) "$KS" report --db "$WORK/foreign.db" ;;
		scan) "$KS" scan --db "$WORK/foreign.db" "$WORK/f.c" ;;
		run) "$KS" run --db "$WORK/foreign.db" -- true ;;
		esac >/dev/null 2>"$WORK/err"; rc=$?
		[ $rc -eq 2 ] && one_line "$WORK/err" && expect_in "$WORK/err" "not a kcsan-scan database" &&
		cmp -s "$WORK/foreign.db" "$WORK/foreign.orig" || { echo "kcsan-scan $cmd: exit $rc"; return 1; }
	done
	[ ! -e "$WORK/foreign.db-wal" ]
}

# The state an interrupted first scan leaves: a scans row still 'running'
# and no findings.
interrupted_first_scan() {
	make_db "$WORK/int.db" || return 1
	sqlite3 "$WORK/int.db" "UPDATE scans SET status = 'running', finished_at = NULL" || return 1
	"$KS" report --db "$WORK/int.db" >"$WORK/out" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/err" && expect_in "$WORK/err" "did not finish" && [ ! -s "$WORK/out" ]
}

# An interrupted rescan: the last finished scan's findings, a warning, and
# CI (--fail-on) does not pass on them.
interrupted_rescan() {
	make_db "$WORK/int2.db" || return 1
	sqlite3 "$WORK/int2.db" "INSERT INTO scans(id, tool_version, started_at, root, arguments)
	                         VALUES (2, '0.1.0', '2026-12-03T10:00:00Z', '/src/proj', '[]')" || return 1
	"$KS" report --db "$WORK/int2.db" >"$WORK/out" 2>"$WORK/err"; rc=$?
	[ $rc -eq 0 ] && expect_in "$WORK/err" "did not finish" && expect_in "$WORK/out" "no findings" || return 1
	"$KS" report --db "$WORK/int2.db" --fail-on note >"$WORK/out" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && expect_in "$WORK/err" "did not finish"
}

# A real scan's database (WAL) in a directory its reader may not write.
read_only_directory() {
	dir=$(mktemp -d /tmp/kcsan-ro.XXXXXX) || return 1
	printf '#include <kcsan/lkmm.h>\nint x, flag;\nvoid w(void) { x = 1; WRITE_ONCE(flag, 1); }\nint r(void) { if (READ_ONCE(flag)) return x; return 0; }\n' >"$WORK/mp.c"
	(cd "$WORK" && "$KS" scan -q --db "$dir/k.db" mp.c) || { rm -rf "$dir"; return 1; }
	chmod 755 "$dir" && chmod 444 "$dir/k.db" && chmod 555 "$dir"
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$KS" report --db "$dir/k.db" >"$WORK/out" 2>"$WORK/err"
	else
		"$KS" report --db "$dir/k.db" >"$WORK/out" 2>"$WORK/err"
	fi
	rc=$?
	chmod 755 "$dir"
	rm -rf "$dir"
	[ $rc -eq 0 ] && expect_in "$WORK/out" "missing-release" && [ ! -s "$WORK/err" ]
}

# File names and names with newlines and escape sequences: one line per
# diagnostic, nothing raw reaches the terminal.
control_characters_escaped() {
	make_db "$WORK/cc.db" error || return 1
	sqlite3 "$WORK/cc.db" "UPDATE finding_locations SET file = 'src/evil' || char(10) || 'x.c:1:1: error: forged' || char(27) || '[2J.c';
	                       UPDATE findings SET message = 'm' || char(13) || 'n', variable = 'v' || char(7)" || return 1
	"$KS" report --db "$WORK/cc.db" >"$WORK/out" || return 1
	[ "$(wc -l <"$WORK/out")" -eq 3 ] && ! grep -q "$(printf '\033')" "$WORK/out" &&
	! grep -q "$(printf '\r')" "$WORK/out" && expect_in "$WORK/out" 'src/evil\\nx.c:1:1: error: forged\\x1b\[2J.c:12:5: error: m\\x0dn'
}

check "-o to a character device writes through, --fail-on still counts" char_device_written_through
check "-o through a symbolic link writes its target" symlink_target_written
check "-o to a FIFO: its reader gets the report" fifo_reader_gets_report
check "-o over a 0600 file keeps the mode" private_file_keeps_mode
check "-o over a hard-linked file keeps the link" hard_link_kept
check "-o over the database or any SQLite file: exit 2, untouched" database_refused
check "a foreign SQLite file with our user_version: scan, report, run refuse, byte-identical" foreign_db_untouched
check "an interrupted first scan: report says so, exit 2" interrupted_first_scan
check "an interrupted rescan: warning, --fail-on exits 2" interrupted_rescan
check "a database in a read-only directory is read" read_only_directory
check "control characters in names are escaped in text" control_characters_escaped
finish
