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

# make_db FILE SEVERITY...: a database from db/schema.sql with one finding
# per SEVERITY given (none: an empty report).
make_db() {
	db=$1
	shift
	sqlite3 "$db" <"$TOP/db/schema.sql" || return 1
	sqlite3 "$db" "INSERT INTO scans(id, tool_version, started_at, root, arguments, status)
	               VALUES (1, '0.1.0', '2026-12-03T09:00:00Z', '/src/proj', '[]', 'ok')" || return 1
	n=0
	for sev in "$@"; do
		n=$((n + 1))
		sqlite3 "$db" "INSERT INTO findings(id, fingerprint, kind, severity, message, variable, flag, scan_id)
		               VALUES ($n, 'fp$n', 'missing-release', '$sev', 'message $n', 'x', 'flag', 1);
		               INSERT INTO finding_locations VALUES
		               ($n, 0, 'plain-access', 'src/f$n.c', 12, 5, 'writer', 'write', 0),
		               ($n, 1, 'publish', 'src/f$n.c', 13, 5, 'writer', 'write', 1);" || return 1
	done
}

one_line() {  # FILE: exactly one line of text
	[ "$(wc -l <"$1")" -eq 1 ] || { echo "expected one line:"; cat "$1"; return 1; }
}
