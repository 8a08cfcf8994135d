#!/bin/sh
# tests/e2e/report-sarif.sh — `kcsan-scan report --format sarif` validates
# against the official OASIS SARIF 2.1.0 JSON schema (tests/data/), for a
# database written by the real scanner (plus races inserted the way the
# runtime records them) and for a hand-made database with awkward content:
# paths with spaces, files outside the root, unknown kinds, races with no
# location.  Needs python3 with the jsonschema module.
. tests/e2e/lib.sh

SCHEMA=$TOP/tests/data/sarif-schema-2.1.0.json

# validate FILE: exit 0 when FILE is a valid SARIF 2.1.0 log.
validate() {
	python3 - "$SCHEMA" "$1" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
log = json.load(open(sys.argv[2]))
v = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
errors = sorted(v.iter_errors(log), key=lambda e: list(e.absolute_path))
for e in errors[:10]:
    print("/".join(str(p) for p in e.absolute_path) + ": " + e.message)
sys.exit(1 if errors else 0)
PY
}

# The scanned tree: the message-passing pattern with C11 relaxed atomics
# (no project header needed), in a directory whose name has a space.
make_tree() {
	mkdir -p "$WORK/my tree/src"
	cat >"$WORK/my tree/src/mp.c" <<'C'
#include <stdatomic.h>

int x;
atomic_int flag;

void writer(void)
{
	x = 1;
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
}

int reader(void)
{
	while (!atomic_load_explicit(&flag, memory_order_relaxed))
		;
	return x;
}
C
}

# Races as the runtime records them: one confirming the first finding, one
# that no static finding explains.
add_races() {
	sqlite3 "$1" <<SQL
INSERT INTO runs(id, command, cwd, started_at) VALUES (1, '["./mp"]', '$WORK', '2026-12-03T10:00:00Z');
INSERT INTO races(id, fingerprint, run_id, kind, object, reordered, a_function, a_file, a_line,
                  a_access, a_marked, b_function, b_file, b_line, b_access, b_marked,
                  observations, first_seen, last_seen)
VALUES (1, 'dyn-1', 1, 'missing-release', 'x', 1, 'writer', '$2/src/mp.c', 8, 'write', 0,
        'reader', '$2/src/mp.c', 16, 'read', 0, 3,
        '2026-12-03T10:00:01Z', '2026-12-03T10:00:09Z'),
       (2, 'dyn-2', 1, 'data-race', 'counter', 0, 'inc', '$2/src/cnt.c', 5, 'rmw', 0,
        'get', '/usr/include/other.h', 9, 'read', 0, 1,
        '2026-12-03T10:00:02Z', '2026-12-03T10:00:02Z');
INSERT INTO race_frames(race_id, side, depth, function, file, line, module_offset)
VALUES (1, 'a', 0, 'writer', '$2/src/mp.c', 8, './mp+0x10'),
       (1, 'b', 0, 'reader', '$2/src/mp.c', 16, './mp+0x20');
INSERT INTO race_evidence(finding_id, race_id)
SELECT id, 1 FROM findings WHERE kind = 'missing-release' LIMIT 1;
SQL
}

# Without a working scanner: the same rows a scan would have written.
fake_scan() {
	sqlite3 "$1" <"$TOP/db/schema.sql" &&
	sqlite3 "$1" <<SQL
PRAGMA foreign_keys = ON;
INSERT INTO scans(id, tool_version, started_at, root, arguments, status)
VALUES (1, '0.1.0', '2026-12-03T09:00:00Z', '$2', '[]', 'ok');
INSERT INTO findings(id, fingerprint, kind, severity, message, variable, flag,
                     fix_file, fix_line, fix_suggestion, scan_id)
VALUES (1, 'aaaa', 'missing-release', 'error', 'plain write to ''x'' is not ordered before the write of ''flag'' that publishes it',
        'x', 'flag', 'src/mp.c', 9, 'atomic_store_explicit(&flag, 1, memory_order_release);', 1),
       (2, 'bbbb', 'missing-acquire', 'error', 'plain read of ''x'' is not ordered after the read of ''flag'' that guards it',
        'x', 'flag', 'src/mp.c', 14, 'atomic_load_explicit(&flag, memory_order_acquire)', 1);
INSERT INTO finding_locations VALUES
 (1, 0, 'plain-access', 'src/mp.c', 8, 2, 'writer', 'write', 0),
 (1, 1, 'publish', 'src/mp.c', 9, 2, 'writer', 'write', 1),
 (1, 2, 'consume', 'src/mp.c', 14, 10, 'reader', 'read', 1),
 (1, 3, 'racing-access', 'src/mp.c', 16, 9, 'reader', 'read', 0),
 (2, 0, 'plain-access', 'src/mp.c', 16, 9, 'reader', 'read', 0),
 (2, 1, 'consume', 'src/mp.c', 14, 10, 'reader', 'read', 1),
 (2, 2, 'publish', 'src/mp.c', 9, 2, 'writer', 'write', 1),
 (2, 3, 'racing-access', 'src/mp.c', 8, 2, 'writer', 'write', 0);
SQL
}

scanned_db() {
	make_tree
	root="$WORK/my tree"
	if "$KS" scan --help >/dev/null 2>&1 &&
	   (cd "$root" && "$KS" scan -q --db "$WORK/s.db" src) >"$WORK/scan.log" 2>&1 &&
	   [ "$(sqlite3 "$WORK/s.db" 'SELECT count(*) FROM findings')" -ge 1 ]; then
		echo "database written by kcsan-scan scan"
	else
		echo "scanner not usable, rows inserted by hand:"
		cat "$WORK/scan.log" 2>/dev/null
		rm -f "$WORK/s.db"
		fake_scan "$WORK/s.db" "$root" || return 1
	fi
	add_races "$WORK/s.db" "$root"
}

scanned_tree_valid() {
	"$KS" report --db "$WORK/s.db" --format sarif -o "$WORK/s.sarif" && validate "$WORK/s.sarif"
}

scanned_tree_content() {
	python3 - "$WORK/s.sarif" "$WORK/my tree" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
run = log["runs"][0]
assert log["version"] == "2.1.0", log["version"]
assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + sys.argv[2].replace(" ", "%20") + "/", run["originalUriBaseIds"]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert rules == ["missing-release", "missing-acquire", "data-race"], rules
res = run["results"]
assert len(res) == 3, len(res)
# confirmed first, then the dynamic-only race, then the static one
assert res[0]["ruleId"] == "missing-release" and res[0]["properties"]["evidence"] == ["static", "dynamic"], res[0]
assert res[0]["properties"]["dynamic"]["observations"] == 3
# a race seen only at run time: its id is made from paths relative to the root
fp = res[1]["partialFingerprints"]["kcsanScan/v1"]
assert len(fp) == 16 and fp != "dyn-2" and res[1]["properties"]["evidence"] == ["dynamic"], fp
assert res[2]["properties"]["evidence"] == ["static"]
for r in res:
    assert rules[r["ruleIndex"]] == r["ruleId"]
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"].get("uriBaseId") == "%SRCROOT%", loc
    assert not loc["artifactLocation"]["uri"].startswith("/"), loc
# the other side of the race is outside the root: an absolute file URI
other = res[1]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
assert other == {"uri": "file:///usr/include/other.h"}, other
PY
}

# A store-buffering finding (corpus 98): its rule, and its four accesses,
# two on each thread's flow.
store_buffering() {
	"$KS" scan -q --db "$WORK/sb.db" "$TOP/tests/corpus/98-sb-lost-wakeup.c" &&
	"$KS" report --db "$WORK/sb.db" --format sarif >"$WORK/sb.sarif" && validate "$WORK/sb.sarif" &&
	python3 - "$WORK/sb.sarif" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
assert rules["missing-full-barrier"]["name"] == "MissingFullBarrier", rules
res = [r for r in run["results"] if r["ruleId"] == "missing-full-barrier"]
assert len(res) == 2, [r["ruleId"] for r in run["results"]]
for r in res:
    assert r["level"] == "error" and len(r["relatedLocations"]) == 3, r
    flows = r["codeFlows"][0]["threadFlows"]
    assert len(flows) == 2 and all(len(f["locations"]) == 2 for f in flows), flows
PY
}

odd_db() {
	sqlite3 "$WORK/odd.db" <"$TOP/db/schema.sql" && sqlite3 "$WORK/odd.db" <<'SQL'
INSERT INTO scans(id, tool_version, started_at, root, arguments, status) VALUES (1, '0.1.0', 'now', '/srv/a b/#tree', '[]', 'ok');
INSERT INTO findings(id, fingerprint, kind, severity, message, variable, flag, scan_id)
VALUES (1, 'z1', 'some-future-kind', 'note', 'n', NULL, NULL, 1),
       (2, 'z2', 'unpaired-barrier', 'warning', 'w', NULL, 'f', 1),
       (3, 'z3', 'missing-acquire', 'error', '', 'v', 'f', 1);
INSERT INTO finding_locations VALUES
 (1, 0, 'barrier', 'dir with space/ü%x.c', 0, 0, NULL, NULL, 0),
 (2, 0, 'barrier', '/elsewhere/h.h', 3, 0, 'f', 'none', 0),
 (2, 1, 'new-role', 'a.c', 4, 1, NULL, 'rmw', 1);
INSERT INTO races(id, fingerprint, kind, object, first_seen, last_seen)
VALUES (1, 'nowhere', 'data-race', NULL, 't', 't');
SQL
}

odd_content_valid() {
	"$KS" report --db "$WORK/odd.db" --format sarif >"$WORK/odd.sarif" && validate "$WORK/odd.sarif"
}

validator_rejects_bad_sarif() {
	# Proves that the schema check has teeth: a wrong level must fail.
	sed 's/"level": "error"/"level": "fatal"/' "$WORK/s.sarif" >"$WORK/bad.sarif" &&
	grep -q fatal "$WORK/bad.sarif" && ! validate "$WORK/bad.sarif" >/dev/null
}

if ! python3 -c 'import jsonschema' 2>/dev/null; then
	echo "python3 jsonschema module missing (apt-get install python3-jsonschema)"
	echo "0 passed, 1 failed"
	exit 1
fi
check "database from a scan plus recorded races" scanned_db
check "SARIF of a scanned tree validates against the 2.1.0 schema" scanned_tree_valid
check "SARIF rules, order, fingerprints, %SRCROOT% and absolute URIs" scanned_tree_content
check "a store-buffering finding: its rule and two threads of two accesses" store_buffering
check "database with odd paths, kinds, roles and a location-less race" odd_db
check "SARIF of odd content validates" odd_content_valid
check "the validator rejects an invalid level" validator_rejects_bad_sarif
finish
