#!/bin/sh
# tests/e2e/dynamic.sh — the dynamic half end to end: programs built with
# `kcsan-scan cc` (clang and gcc), run under `kcsan-scan run` with real
# threads, races recorded into the database by the runtime, and joined to
# the static findings by `kcsan-scan report`.  Detection is statistical:
# the buggy programs are re-run until a race is seen, within a generous
# bound; the fixed twins must never report.
. "$(dirname "$0")/lib.sh"
MP="$TOP/examples/message-passing"
PP="$TOP/tests/e2e/data/dynamic/mp.c"
FAST="skip_watch=0:udelay=50"
cd "$WORK" || exit 1

races() { sqlite3 "$1" 'SELECT count(*) FROM races'; }

cc_modes() {
	c=$1
	KCSAN_CC=$c "$KS" cc -O2 -c "$MP/buggy.c" -o b-$c.o || return 1
	KCSAN_CC=$c "$KS" cc -o b2-$c b-$c.o || return 1            # link only
	KCSAN_CC=$c "$KS" cc -O2 -o b-$c "$MP/buggy.c" || return 1   # both at once
	KCSAN_CC=$c "$KS" cc -O2 -o f-$c "$MP/fixed.c" || return 1
	KCSAN_CC=$c "$KS" cc -O2 -o pp-$c "$PP" || return 1
	KCSAN_CC=$c "$KS" cc -E "$MP/buggy.c" >pre.i || return 1
	KCSAN_CC=$c "$KS" cc -S -o b.s "$MP/buggy.c" && grep -q __tsan_write b.s || return 1
	KCSAN_CC=$c "$KS" cc -fPIC -shared -o lib-$c.so "$MP/fixed.c" || return 1
	for b in b2-$c b-$c; do
		nm "$b" | grep -q ' T __tsan_read4' || { echo "$b has no runtime"; return 1; }
		! ldd "$b" | grep -q libtsan || { echo "$b links libtsan"; return 1; }
	done
	# A shared library leaves the runtime to the executable.
	nm -D lib-$c.so | grep -q ' U __tsan_' && ! nm -D lib-$c.so | grep -q ' T __tsan_'
}

cc_missing() {
	KCSAN_CC=no-such-cc "$KS" cc -c "$MP/buggy.c" 2>err
	[ $? -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && expect_in err "no-such-cc"
}

# Buggy twin: scanned, run until a race is recorded; the report joins it.
buggy_joined() {
	c=$1 db=mp-$c.db
	"$KS" scan -q --db $db "$MP/buggy.c" || return 1
	i=0
	while [ $i -lt 10 ] && [ "$(races $db)" -eq 0 ]; do
		KCSAN_OPTIONS=$FAST "$KS" run --db $db --timeout 120 -- ./b-$c 500 >/dev/null 2>run.err || {
			cat run.err; return 1; }
		i=$((i + 1))
	done
	echo "runs until a race: $i"
	[ "$(races $db)" -gt 0 ] || return 1
	"$KS" report --db $db --format json >r.json || return 1
	python3 - r.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
both = [f for f in d["findings"] if f["evidence"] == ["static", "dynamic"]]
assert both, d
f = both[0]
dyn = f["dynamic"]
assert dyn["observations"] >= 1 and dyn["first_seen"].endswith("Z"), dyn
assert dyn["stacks"] and dyn["stacks"][0][0]["file"].endswith("buggy.c"), dyn
assert f["kind"] in ("missing-release", "missing-acquire"), f
print(f["kind"], f["evidence"], "observations", dyn["observations"], "reordered", dyn["reordered"])
PY
	"$KS" report --db $db --format sarif | grep -q '"dynamic"' || "$KS" report --db $db --format sarif | grep -qi 'observ' || return 1
	"$KS" report --db $db | grep -q 'observed' || return 1
}

fixed_silent() {
	c=$1 db=mpf-$c.db
	"$KS" scan -q --db $db "$MP/fixed.c" || return 1
	for i in 1 2 3; do
		KCSAN_OPTIONS=$FAST "$KS" run --db $db --timeout 120 -- ./f-$c 500 >/dev/null 2>run.err || return 1
		if grep -q 'BUG: KCSAN' run.err; then cat run.err; return 1; fi
		grep -q '^kcsan-scan run: no race seen (the run is recorded in ' run.err || { cat run.err; return 1; }
	done
	[ "$(races $db)" -eq 0 ] && [ "$(sqlite3 $db 'SELECT count(*) FROM runs WHERE exit_status = 0')" -eq 3 ]
}

timeout_124() {
	"$KS" run --db t.db --timeout 1 -- sh -c 'sleep 60 & sleep 60' 2>/dev/null
	rc=$?
	[ $rc -eq 124 ] || { echo "status $rc"; return 1; }
	[ "$(sqlite3 t.db 'SELECT exit_status FROM runs')" = 124 ]
}

status_passthrough() {
	"$KS" run --db t2.db -- sh -c 'exit 7'; [ $? -eq 7 ] || return 1
	"$KS" run --db t2.db -- sh -c 'kill -SEGV $$'; [ $? -eq 139 ] || return 1
	"$KS" run --db t2.db -- ./no-such-program 2>/dev/null; [ $? -eq 127 ] || return 1
	"$KS" run --db t2.db ./x 2>/dev/null; [ $? -eq 2 ] || return 1
	"$KS" run --db t2.db 2>/dev/null; [ $? -eq 2 ]
}

# Two instrumented processes record into one database at the same time.
two_writers() {
	db=two.db
	for try in 1 2 3 4 5; do
		KCSAN_OPTIONS=skip_watch=20:udelay=50 "$KS" run --db $db --timeout 120 -- ./pp-clang 20 >/dev/null 2>a.err &
		KCSAN_OPTIONS=skip_watch=20:udelay=50 "$KS" run --db $db --timeout 120 -- ./pp-gcc 20 >/dev/null 2>b.err &
		wait
		n=$(sqlite3 $db 'SELECT coalesce(sum(observations), 0) FROM races')
		[ "$n" -ge 2 ] && break
	done
	echo "observations after $try round(s): $n"
	sqlite3 $db 'SELECT id, exit_status FROM runs'
	cat a.err b.err | grep -v '^ \|^$\|^=\|^BUG\|^read\|^write\|^value' | head -5
	[ "$n" -ge 2 ] && [ "$(sqlite3 $db 'PRAGMA integrity_check')" = ok ] &&
	[ "$(sqlite3 $db 'SELECT count(*) FROM runs WHERE exit_status = 0')" -eq $((2 * try)) ] &&
	! grep -q 'cannot record' a.err b.err
}

# A race with no static candidate is a finding of its own: a flagless
# counter race, which the static pass has nothing to say about.
dynamic_only() {
	db=cnt.db
	KCSAN_CC=gcc "$KS" cc -O2 -o counter "$TOP/tests/e2e/data/dynamic/counter.c" || return 1
	"$KS" scan -q --db $db "$TOP/tests/e2e/data/dynamic/counter.c" || return 1
	[ "$(sqlite3 $db 'SELECT count(*) FROM findings')" -eq 0 ] || { echo "the static pass found something"; return 1; }
	for try in 1 2 3 4 5; do
		KCSAN_OPTIONS=skip_watch=20:udelay=50 "$KS" run --db $db --timeout 120 -- ./counter 20 >/dev/null 2>cnt.err
		[ "$(races $db)" -ge 1 ] && break
	done
	"$KS" report --db $db --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = [f for f in d["findings"] if f["evidence"] == ["dynamic"]]
assert f and f[0]["variable"] == "hits" and f[0]["kind"] == "data-race", d'
}

# Reports people can read: a race between two functions of a header that
# the program includes through '../' (DWARF: validate/../include/racy.h).
# The stderr report gives each access's file:line (module+offset after
# it); the database and the JSON report give the normalised path and a
# line, never 0; run's last line counts the races seen, new or not.
header_lines() {
	c=$1 db=hdr-$c.db
	rm -rf hdr-$c && cp -r "$TOP/tests/e2e/data/dynamic/hdr" hdr-$c || return 1
	(cd hdr-$c && KCSAN_CC=$c "$KS" cc -O1 -g -o prog validate/prog.c) || return 1
	found=0 again=0
	for try in 1 2 3 4 5 6 7 8 9 10; do
		KCSAN_OPTIONS=skip_watch=20:udelay=50 "$KS" run --db $db --timeout 120 -- ./hdr-$c/prog 20 \
			>/dev/null 2>hdr.err || { cat hdr.err; return 1; }
		[ "$(races $db)" -ge 1 ] || continue
		if [ $found -eq 0 ]; then
			found=$try
			cp hdr.err hdr-first.err
			# stderr: function, then file:line, then module+offset.
			grep -Eq '^ #0 racy_(bump|peek) [^ ]*/include/racy\.h:[1-9][0-9]* \(.*\+0x[0-9a-f]+\)$' hdr.err ||
				{ echo "no 'function file:line (module+offset)' frame:"; cat hdr.err; return 1; }
			! grep -q '/\.\./' hdr.err || { echo "un-normalised path:"; cat hdr.err; return 1; }
			expect_in hdr.err "races\{0,1\} seen ([1-9][0-9]* new) recorded in" || return 1
		elif grep -q 'race.* seen (0 new)' hdr.err; then
			again=$try
			break
		fi
	done
	echo "first race on run $found, seen again (0 new) on run $again"
	[ $found -gt 0 ] && [ $again -gt 0 ] || { cat hdr.err; return 1; }
	[ "$(sqlite3 $db "SELECT count(*) FROM races WHERE a_file LIKE '%/../%' OR b_file LIKE '%/../%'
	                  OR a_line IS NULL OR a_line < 1 OR b_line < 1")" -eq 0 ] ||
		{ sqlite3 $db 'SELECT * FROM races'; return 1; }
	[ "$(sqlite3 $db "SELECT count(*) FROM race_frames WHERE file LIKE '%/../%' OR line < 1
	                  OR (file IS NULL) <> (line IS NULL)")" -eq 0 ] ||
		{ sqlite3 $db 'SELECT * FROM race_frames'; return 1; }
	"$KS" report --db $db --format json >hdr.json || return 1
	python3 - hdr.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["evidence"] == ["dynamic"]]
assert f, d
for loc in f[0]["locations"]:
    assert loc["file"].endswith("/include/racy.h") and "/../" not in loc["file"], loc
    assert isinstance(loc["line"], int) and loc["line"] > 0, loc
for stack in f[0]["dynamic"]["stacks"]:
    for fr in stack:
        assert fr["file"] is None or "/../" not in fr["file"], fr
        assert (fr["file"] is None) == (fr["line"] is None), fr
        assert fr["line"] is None or fr["line"] > 0, fr
print([(l["function"], l["file"].split("/")[-2:], l["line"]) for l in f[0]["locations"]])
PY
}

# Code at line 0 (clang gives '#line 0' code that line, as it does code it
# merges): no races row, frame or report line says 0; the write's side is
# placed at its caller, writer() at line0.c:37.
line_zero() {
	db=l0.db
	KCSAN_CC=clang "$KS" cc -O1 -g -o line0 "$TOP/tests/e2e/data/dynamic/line0.c" || return 1
	for try in 1 2 3 4 5 6 7 8 9 10; do
		KCSAN_OPTIONS=skip_watch=20:udelay=50 "$KS" run --db $db --timeout 120 -- ./line0 20 >/dev/null 2>l0.err
		[ "$(races $db)" -ge 1 ] && break
	done
	[ "$(races $db)" -ge 1 ] || { echo "no race in $try runs"; return 1; }
	sqlite3 $db 'SELECT a_function, a_line, b_function, b_line FROM races'
	[ "$(sqlite3 $db 'SELECT count(*) FROM races WHERE a_line = 0 OR b_line = 0')" -eq 0 ] || return 1
	[ "$(sqlite3 $db 'SELECT count(*) FROM race_frames WHERE line = 0')" -eq 0 ] || return 1
	[ "$(sqlite3 $db "SELECT count(*) FROM races WHERE (a_function = 'writer' AND a_line = 37)
	                  OR (b_function = 'writer' AND b_line = 37)")" -eq 1 ] || return 1
	! grep -q '\.c:0\b' l0.err || { cat l0.err; return 1; }
	"$KS" report --db $db --format json >l0.json || return 1
	python3 - l0.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
assert f, d
for x in f:
    for loc in x["locations"]:
        assert loc["line"] is None or loc["line"] > 0, loc
    for stack in x["dynamic"]["stacks"]:
        for fr in stack:
            assert fr["line"] is None or fr["line"] > 0, fr
PY
	"$KS" report --db $db --format sarif | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["runs"][0]["results"]:
    for l in r["locations"]:
        reg = l["physicalLocation"].get("region")
        assert reg is None or reg["startLine"] > 0, l'
}

# Processes that create one database at the same time all record their run.
concurrent_create() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rm -f cc.db cc.db-wal cc.db-shm
		"$KS" run --db cc.db -- true 2>cc1.err & "$KS" run --db cc.db -- true 2>cc2.err &
		"$KS" run --db cc.db -- true 2>cc3.err &
		wait
		n=$(sqlite3 cc.db 'SELECT count(*) FROM runs')
		[ "$n" -eq 3 ] || { echo "round $i: $n runs recorded"; cat cc1.err cc2.err cc3.err; return 1; }
	done
}

# A process that aborts right after its report keeps the report.
abort_keeps() {
	db=ab.db
	for try in 1 2 3; do
		KCSAN_OPTIONS=skip_watch=20:udelay=50 "$KS" run --db $db --timeout 120 -- ./pp-gcc 30 abort >/dev/null 2>ab.err
		rc=$?
		[ $rc -eq 134 ] && break
	done
	[ $rc -eq 134 ] || { echo "status $rc"; cat ab.err; return 1; }
	[ "$(races $db)" -ge 1 ]
}

check "cc: clang compile, link, both, -E, -S, -shared" cc_modes clang
check "cc: gcc compile, link, both, -E, -S, -shared" cc_modes gcc
check "cc: missing compiler is one line, status 2" cc_missing
check "run: --timeout kills the process group, status 124" timeout_124
check "run: exit status passes through (7, 128+SIGSEGV, 127, usage 2)" status_passthrough
for c in clang gcc; do
	check "buggy twin ($c): race recorded, report joins static+dynamic" buggy_joined $c
	check "fixed twin ($c): three runs, no race" fixed_silent $c
done
check "two processes write one database at once" two_writers
check "a race without a static candidate: evidence dynamic" dynamic_only
check "a write at line 0 (clang): placed at its caller, never line 0" line_zero
for c in clang gcc; do
	check "header through '../' ($c): file:line on stderr, normalised paths, races seen" header_lines $c
done
check "three runs creating one database at once all record" concurrent_create
check "abort right after a report keeps the report" abort_keeps
finish
