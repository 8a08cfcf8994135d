#!/bin/sh
# tests/e2e/report-review.sh — the review-bot workflow end to end, with
# real scans: a pull request that adds a missing release is reported
# against the base's JSON report (--baseline: only the new findings,
# --fail-on counts only them); the head's own report as baseline leaves
# nothing new; an inline `kcsan-scan: ignore` comment suppresses a finding
# (summary.suppressed), a stale one is a note; ids do not depend on where
# the checkout lives; SARIF validates against the 2.1.0 schema, with
# codeFlows, baselineState and suppressions.
. tests/e2e/lib.sh

SCHEMA="$TOP/tests/data/sarif-schema-2.1.0.json"

# The base tree: correct message passing, plus a file-static flag and
# struct data (object keys that carry the file's path).
make_base() {
	mkdir -p "$1/src" || return 1
	cat >"$1/src/queue.c" <<'C'
#include <kcsan/lkmm.h>
struct msg { int payload; int ready; };
static struct msg box;
static int data, flag;

void put(int v) { box.payload = v; smp_store_release(&box.ready, 1); }
int get(void) { if (smp_load_acquire(&box.ready)) return box.payload; return -1; }

void old_writer(void) { data = 1; WRITE_ONCE(flag, 1); }
int old_reader(void) { if (READ_ONCE(flag)) return data; return 0; }
C
}

# The pull request: a new file with a missing release.
add_pr_file() {
	cat >"$1/src/stats.c" <<'C'
#include <kcsan/lkmm.h>
int total, published;

void publish_total(int t)
{
	total = t;
	WRITE_ONCE(published, 1);
}

int read_total(void)
{
	if (smp_load_acquire(&published))
		return total;
	return 0;
}
C
}

scan_json() {  # TREE OUT.json: scan TREE from its root, JSON report into OUT
	(cd "$1" && "$KS" scan -q --db k.db src && "$KS" report --db k.db --format json -o "$2")
	[ -s "$2" ]
}

ids() {  # REPORT.json: the sorted ids
	python3 -c 'import json,sys; print("\n".join(sorted(f["id"] for f in json.load(open(sys.argv[1]))["findings"])))' "$1"
}

summary() {  # REPORT.json KEY
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"].get(sys.argv[2], "-"))' "$1" "$2"
}

pull_request() {
	make_base "$WORK/pr" && scan_json "$WORK/pr" "$WORK/base.json" || return 1
	base_n=$(ids "$WORK/base.json" | wc -l)
	[ "$base_n" -ge 1 ] || { echo "the base has no finding"; return 1; }
	add_pr_file "$WORK/pr" || return 1
	cd "$WORK/pr" || return 1
	"$KS" scan -q --db k.db src; [ $? -le 1 ] || return 1
	"$KS" report --db k.db --baseline "$WORK/base.json" --format json --fail-on error -o "$WORK/new.json"; rc=$?
	[ $rc -eq 1 ] || { echo "--fail-on error with a new missing release: exit $rc"; return 1; }
	# exactly the new findings: all in stats.c, the base's all unchanged
	python3 - "$WORK/new.json" <<'P' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
fs = d["findings"]
assert fs, "no new finding"
assert all(l["file"] == "src/stats.c" for f in fs for l in f["locations"][:1]), fs
assert any(f["kind"] == "missing-release" and f["variable"] == "total" for f in fs), fs
s = d["summary"]
assert s["new"] == len(fs) and s["findings"] == len(fs), s
assert s["absent"] == 0, s
P
	[ "$(summary "$WORK/new.json" unchanged)" -eq "$base_n" ] || return 1
	"$KS" report --db k.db --baseline "$WORK/base.json" >"$WORK/new.txt" &&
	expect_in "$WORK/new.txt" "src/stats.c:6:2: error: plain write to 'total'" &&
	! grep -q "queue.c" "$WORK/new.txt" || return 1
	# the head's own report as baseline: nothing new, exit 0
	"$KS" report --db k.db --format json -o "$WORK/head.json" &&
	"$KS" report --db k.db --baseline "$WORK/head.json" --fail-on error >"$WORK/none.txt" &&
	expect_in "$WORK/none.txt" "no new findings"
}

suppression() {
	make_base "$WORK/sup" && add_pr_file "$WORK/sup" || return 1
	scan_json "$WORK/sup" "$WORK/before.json"
	before=$(ids "$WORK/before.json" | wc -l)
	sed -i 's|^\ttotal = t;$|\ttotal = t;  /* kcsan-scan: ignore(missing-release) */|' "$WORK/sup/src/stats.c"
	# a comment on the line above works too, and one that covers nothing is a note
	sed -i 's|^int total, published;$|int total, published;\n// kcsan-scan: ignore\nstatic int unused_marker;|' "$WORK/sup/src/stats.c"
	scan_json "$WORK/sup" "$WORK/after.json" || return 1
	python3 - "$WORK/after.json" "$before" <<'P' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["suppressed"] == 1, s
kinds = [(f["kind"], f["variable"]) for f in d["findings"]]
assert ("missing-release", "total") not in kinds, kinds
notes = [f for f in d["findings"] if f["kind"] == "unused-suppression"]
assert len(notes) == 1 and notes[0]["severity"] == "note" and notes[0]["locations"][0]["line"] == 3, notes
assert len(d["findings"]) == int(sys.argv[2]) - 1 + 1, (len(d["findings"]), sys.argv[2])
P
	cd "$WORK/sup" && "$KS" report --db k.db --show-suppressed >"$WORK/shown.txt" &&
	expect_in "$WORK/shown.txt" "src/stats.c:8:17: note: suppressed by this comment" || return 1
	# the suppressed finding never fails CI
	"$KS" report --db k.db --fail-on warning >/dev/null; rc=$?
	[ $rc -eq 1 ] || return 1   # other errors of the tree remain
	"$KS" report --db k.db --baseline "$WORK/after.json" --fail-on note >/dev/null
}

ids_independent_of_location() {
	make_base "$WORK/a" && add_pr_file "$WORK/a" || return 1
	deep="$WORK/a-much-longer-directory-name/with/more/levels/of/nesting"
	mkdir -p "$deep" && make_base "$deep" && add_pr_file "$deep" || return 1
	scan_json "$WORK/a" "$WORK/ids1.json" && scan_json "$deep" "$WORK/ids2.json" || return 1
	ids "$WORK/ids1.json" >"$WORK/ids1" && ids "$WORK/ids2.json" >"$WORK/ids2" &&
	[ -s "$WORK/ids1" ] && diff "$WORK/ids1" "$WORK/ids2"
}

sarif_valid_with_flows() {
	make_base "$WORK/sf" && add_pr_file "$WORK/sf" && scan_json "$WORK/sf" "$WORK/sf.json" || return 1
	cd "$WORK/sf" || return 1
	sed -i 's|^\ttotal = t;$|\ttotal = t;  // kcsan-scan: ignore|' src/stats.c
	"$KS" scan -q --db k.db src; [ $? -le 1 ] || return 1
	# baseline: the earlier report less one finding, plus one that is gone
	python3 - "$WORK/sf.json" "$WORK/sf-base.json" <<'P' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
gone = dict(d["findings"][0], id="0123456789abcdef")
d["findings"] = d["findings"][1:] + [gone]
json.dump(d, open(sys.argv[2], "w"))
P
	"$KS" report --db k.db --format sarif --baseline "$WORK/sf-base.json" -o "$WORK/out.sarif" || return 1
	python3 - "$SCHEMA" "$WORK/out.sarif" <<'P'
import json, sys, jsonschema
schema, doc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
results = doc["runs"][0]["results"]
states = {r["baselineState"] for r in results}
assert states == {"new", "unchanged", "absent"}, states
assert sum("suppressions" in r for r in results) == 1, "one suppressed result"
for r in results:
    if r["ruleId"] in ("missing-release", "missing-acquire"):
        flows = r["codeFlows"][0]["threadFlows"]
        assert len(flows) == 2, r
        writer = [l["location"]["message"]["text"] for l in flows[0]["locations"]]
        reader = [l["location"]["message"]["text"] for l in flows[1]["locations"]]
        assert "publishing" in writer[-1], writer
        assert "read of" in reader[0], reader
P
}

bad_baseline() {
	make_db "$WORK/bb.db" error || return 1
	echo '{"schema": "something-else", "findings": []}' >"$WORK/other.json"
	echo 'not json' >"$WORK/bad.json"
	for b in "$WORK/other.json" "$WORK/bad.json" "$WORK/missing.json"; do
		"$KS" report --db "$WORK/bb.db" --baseline "$b" >"$WORK/out" 2>"$WORK/err"; rc=$?
		[ $rc -eq 2 ] && one_line "$WORK/err" && [ ! -s "$WORK/out" ] || { echo "$b: exit $rc"; return 1; }
	done
}

check "pull request: --baseline shows only the new findings, --fail-on counts them" pull_request
check "inline suppressions: summary.suppressed, --show-suppressed, stale comment is a note" suppression
check "ids are the same for the tree at another absolute path" ids_independent_of_location
check "SARIF 2.1.0 valid with codeFlows, baselineState and suppressions" sarif_valid_with_flows
check "a bad baseline: exit 2, one line" bad_baseline
finish
