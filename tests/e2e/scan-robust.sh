#!/bin/sh
# tests/e2e/scan-robust.sh — `kcsan-scan scan` against hostile or awkward
# input (issue 9): files that keep failing, files that crash the parser or
# nest too deep for a recursive walk, checkouts at other paths and at long
# paths, relative compile-database directories, unreadable sources, an
# empty --db, and profiles read from pipes.
. tests/e2e/lib.sh

MP=tests/e2e/data/mp-buggy.c

# The missing-release of the examples: two findings (release and acquire).
write_buggy() {
	cat >"$1" <<'EOC'
#include <kcsan/lkmm.h>
int x, flag;
void use(int);
void w(void) { x = 1; WRITE_ONCE(flag, 1); }
void r(void) { if (READ_ONCE(flag)) use(x); }
EOC
}

ids() {  # DB -> the sorted finding ids of `report --format json`
	"$KS" report --db "$1" --format json |
		python3 -c 'import json,sys; print("\n".join(sorted(f["id"] for f in json.load(sys.stdin)["findings"])))'
}

# A file that still does not parse fails again on every rescan: it is not
# "unchanged", and the exit status stays 1.
failed_stays_failed() {
	mkdir -p "$WORK/ff" && cp "$MP" "$WORK/ff/good.c" && printf 'int broken( {\n' >"$WORK/ff/bad.c"
	"$KS" scan --db "$WORK/ff.db" "$WORK/ff" 2>"$WORK/e1"; rc1=$?
	"$KS" scan --db "$WORK/ff.db" "$WORK/ff" 2>"$WORK/e2"; rc2=$?
	cat "$WORK/e2"
	[ $rc1 -eq 1 ] && [ $rc2 -eq 1 ] && expect_in "$WORK/e2" "0 parsed, 1 unchanged, 1 failed" &&
	expect_in "$WORK/e2" "bad.c:1" &&
	[ "$(sqlite3 "$WORK/ff.db" "SELECT count(*) FROM translation_units WHERE status = 'error'")" -eq 1 ] &&
	printf 'int fixed(void) { return 0; }\n' >"$WORK/ff/bad.c" &&
	"$KS" scan --db "$WORK/ff.db" "$WORK/ff" 2>"$WORK/e3" && expect_in "$WORK/e3" "0 failed"
}

# Pathological files: one that our own walk would recurse 12,000 levels
# into, and two that crash clang's parser itself.  Each fails alone, named,
# with one line; the buggy file next to them is analysed and reported.
crash_isolated() {
	d="$WORK/crash"
	mkdir -p "$d" && write_buggy "$d/buggy.c"
	python3 - "$d" <<'EOP' || return 1
import sys
d = sys.argv[1]
open(d + '/sum.c', 'w').write('int x;\nint f(void) { return ' + '+'.join(['x'] * 12000) + '; }\n')
open(d + '/brackets.c', 'w').write('int y = ' + '(' * 20000 + '1' + ')' * 20000 + ';\n')
open(d + '/elseif.c', 'w').write('int g;\nvoid f(int v) {\n if (v == 0) g = 0;\n' +
    ''.join(' else if (v == %d) g = %d;\n' % (i, i) for i in range(1, 10000)) + '}\n')
EOP
	for j in 1 2; do
		rm -f "$WORK/crash.db"*
		"$KS" scan -j $j --db "$WORK/crash.db" "$d" -- -fbracket-depth=20000 >"$WORK/out" 2>"$WORK/err"; rc=$?
		cat "$WORK/err"
		[ $rc -eq 1 ] || { echo "exit $rc, expected 1"; return 1; }
		expect_in "$WORK/err" "4 files: 1 parsed, 0 unchanged, 3 failed; 2 findings" || return 1
		for f in sum.c brackets.c elseif.c; do
			[ "$(grep -c "$f" "$WORK/err")" -eq 1 ] || { echo "$f not named on one line"; return 1; }
			[ "$(sqlite3 "$WORK/crash.db" "SELECT count(*) FROM translation_units t JOIN files f ON f.id = t.file_id
				WHERE f.path LIKE '%/$f' AND t.status = 'error' AND t.diagnostics <> ''")" -eq 1 ] ||
				{ echo "$f not failed in the database"; return 1; }
		done
		expect_in "$WORK/err" "nested deeper than" || return 1
		"$KS" report --db "$WORK/crash.db" --format json >"$WORK/r.json" || return 1
		python3 - "$WORK/r.json" <<'EOP' || return 1
import json, sys
r = json.load(open(sys.argv[1]))
kinds = sorted(f["kind"] for f in r["findings"])
files = {l["file"] for f in r["findings"] for l in f["locations"]}
assert kinds == ["missing-acquire", "missing-release"], kinds
assert all(f.endswith("buggy.c") for f in files), files
EOP
	done
}

# Finding ids depend on paths relative to the scan root only: the same
# tree (file statics, struct fields, a local whose address escapes, a
# static start routine) at two absolute paths of different lengths.
write_tree5() {
	mkdir -p "$1/sub"
	cat >"$1/sub/statics.c" <<'EOC'
#include <kcsan/lkmm.h>
#include <pthread.h>
void use(int);
static int data, flag;
struct box { int v; int ready; };
static struct box box;
static void *writer(void *a) { data = 1; WRITE_ONCE(flag, 1); box.v = 2; WRITE_ONCE(box.ready, 1); return a; }
static void *reader(void *a) { if (READ_ONCE(flag)) use(data); if (READ_ONCE(box.ready)) use(box.v); return a; }
struct pair { int *v, *ready; };
static void *pw(void *a) { struct pair *p = a; *p->v = 1; WRITE_ONCE(*p->ready, 1); return 0; }
static int local_escapes(void)
{
	pthread_t t;
	int v = 0, ready = 0;
	struct pair p = { &v, &ready };
	pthread_create(&t, 0, pw, &p);
	while (!READ_ONCE(ready))
		;
	use(v);
	pthread_join(t, 0);
	return 0;
}
int main(void)
{
	pthread_t a, b;
	pthread_create(&a, 0, writer, 0);
	pthread_create(&b, 0, reader, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return local_escapes();
}
EOC
}

ids_independent_of_checkout() {
	a="$WORK/c5"
	b="$WORK/a-much-longer-checkout-directory-name/and/deeper/c5"
	write_tree5 "$a" && write_tree5 "$b" || return 1
	(cd "$a" && "$KS" scan -q --db k.db .) && (cd "$b" && "$KS" scan -q --db k.db .) || return 1
	ia=$(ids "$a/k.db") && ib=$(ids "$b/k.db") || return 1
	echo "$a:"; echo "$ia"; echo "$b:"; echo "$ib"
	[ "$(echo "$ia" | wc -l)" -ge 4 ] && [ "$ia" = "$ib" ]
}

# A static start routine reading its own array element: no finding, at a
# short path and at one longer than 170 characters.
write_slots() {
	mkdir -p "$1"
	cat >"$1/slots.c" <<'EOC'
#include <kcsan/lkmm.h>
#include <pthread.h>
struct slot { int data; int ready; };
static struct slot slots[4];
static void *worker(void *arg)
{
	struct slot *s = arg;
	s->data = 1;
	if (READ_ONCE(s->ready))
		return 0;
	WRITE_ONCE(s->ready, s->data);
	return 0;
}
int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], 0, worker, &slots[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], 0);
	return 0;
}
EOC
}

path_length_independent() {
	long=$WORK/$(printf 'long-directory-name-%03d/' 1 2 3 4 5 6 7 8)
	[ ${#long} -gt 170 ] || return 1
	write_slots "$WORK/s6" && write_slots "$long" || return 1
	"$KS" scan --db "$WORK/s6.db" "$WORK/s6/slots.c" 2>"$WORK/e1" &&
	"$KS" scan --db "$WORK/s6l.db" "$long/slots.c" 2>"$WORK/e2" || return 1
	cat "$WORK/e1" "$WORK/e2"
	[ "$(sqlite3 "$WORK/s6.db" "SELECT count(*) FROM findings")" -eq 0 ] &&
	[ "$(sqlite3 "$WORK/s6l.db" "SELECT count(*) FROM findings")" -eq 0 ]
}

# A comma in the path: the link key of the static start routine holds the
# path, and the dependency items that name it ("$KEY:N") are separated by
# commas (analyzer/model/items.h escapes it).  2 false positives before.
path_comma_independent() {
	write_slots "$WORK/s7,with,commas" || return 1
	"$KS" scan --db "$WORK/s7.db" "$WORK/s7,with,commas/slots.c" 2>"$WORK/e1" || return 1
	cat "$WORK/e1"
	[ "$(sqlite3 "$WORK/s7.db" "SELECT count(*) FROM findings")" -eq 0 ]
}

# "directory" relative in compile_commands.json: against the folder that
# holds the file, as clang's tooling resolves it.
relative_directory() {
	d="$WORK/rel"
	mkdir -p "$d/build" "$d/src" && cp "$MP" "$d/src/mp.c"
	echo '[{"directory": "../src", "file": "mp.c", "command": "cc -c mp.c"}]' >"$d/build/compile_commands.json"
	(cd / && "$KS" scan --db "$WORK/rel.db" -p "$d/build") 2>"$WORK/err" || { cat "$WORK/err"; return 1; }
	[ "$(sqlite3 "$WORK/rel.db" "SELECT count(*) FROM findings")" -eq 2 ] &&
	[ "$(sqlite3 "$WORK/rel.db" "SELECT path FROM files f JOIN translation_units t ON t.file_id = f.id")" = "$d/src/mp.c" ] &&
	# -p given as a relative path too
	(cd "$d" && "$KS" scan --db "$WORK/rel2.db" -p build) 2>"$WORK/err" &&
	[ "$(sqlite3 "$WORK/rel2.db" "SELECT count(*) FROM findings")" -eq 2 ]
}

# A source that cannot be read is failed with the real reason.
unreadable_source() {
	d="$WORK/unr"
	mkdir -p "$d/dir.c" && cp "$MP" "$d/good.c"
	echo '[{"directory": "'"$d"'", "file": "gone.c", "command": "cc -c gone.c"},
	       {"directory": "'"$d"'", "file": "dir.c", "command": "cc -c dir.c"},
	       {"directory": "'"$d"'", "file": "good.c", "command": "cc -c good.c"}]' >"$d/compile_commands.json"
	"$KS" scan --db "$WORK/unr.db" -p "$d" 2>"$WORK/err"; rc=$?
	cat "$WORK/err"
	[ $rc -eq 1 ] && expect_in "$WORK/err" "cannot read '$d/gone.c': No such file or directory" &&
	expect_in "$WORK/err" "cannot read '$d/dir.c': Is a directory" &&
	! grep -q "libclang could not parse" "$WORK/err" &&
	[ "$(sqlite3 "$WORK/unr.db" "SELECT count(*) FROM findings")" -eq 2 ] || return 1
	# Unreadable between scans, named on the command line.  Root reads
	# everything: as root, the scans run as nobody (setpriv).
	as=""
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || { echo "no setpriv: permission case not run"; return 0; }
		as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
	p="$WORK/perm"
	chmod 711 "$WORK" && mkdir -p "$p" && chmod 777 "$p" && cp "$MP" "$p/good.c" && chmod 644 "$p/good.c" || return 1
	$as "$KS" scan --db "$p/k.db" "$p/good.c" 2>"$WORK/err" || { cat "$WORK/err"; return 1; }
	chmod 000 "$p/good.c"
	$as "$KS" scan --db "$p/k.db" "$p/good.c" 2>"$WORK/err"; rc=$?
	chmod 644 "$p/good.c"
	cat "$WORK/err"
	[ $rc -eq 1 ] && expect_in "$WORK/err" "cannot read '$p/good.c': Permission denied" &&
	[ "$(sqlite3 "$p/k.db" "SELECT status FROM translation_units")" = error ]
}

# The source deleted between scans while its compile database still names it.
deleted_between_scans() {
	d="$WORK/del"
	mkdir -p "$d" && cp "$MP" "$d/a.c" && cp "$MP" "$d/b.c"
	echo '[{"directory": "'"$d"'", "file": "a.c", "command": "cc -c a.c"},
	       {"directory": "'"$d"'", "file": "b.c", "command": "cc -c b.c"}]' >"$d/compile_commands.json"
	"$KS" scan --db "$WORK/del.db" -p "$d" 2>/dev/null || return 1
	rm "$d/b.c"
	"$KS" scan --db "$WORK/del.db" -p "$d" 2>"$WORK/err"; rc=$?
	cat "$WORK/err"
	[ $rc -eq 1 ] && expect_in "$WORK/err" "cannot read '$d/b.c': No such file or directory"
}

empty_db() {
	"$KS" scan --db "" "$MP" 2>"$WORK/err"; rc=$?
	cat "$WORK/err"
	[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && expect_in "$WORK/err" "--db"
}

# Profiles read from a FIFO and from /dev/stdin, as from a file.
profile_from_pipe() {
	"$KS" scan -q --db "$WORK/pf0.db" --profile tests/e2e/data/custom.prof tests/e2e/data/custom-macros.c &&
	[ "$(sqlite3 "$WORK/pf0.db" "SELECT count(*) FROM findings")" -eq 2 ] || return 1
	mkfifo "$WORK/fifo" || return 1
	cat tests/e2e/data/custom.prof >"$WORK/fifo" &
	"$KS" scan -q --db "$WORK/pf1.db" --profile "$WORK/fifo" tests/e2e/data/custom-macros.c 2>"$WORK/err"; rc=$?
	wait
	cat "$WORK/err"
	[ $rc -eq 0 ] && [ "$(sqlite3 "$WORK/pf1.db" "SELECT count(*) FROM findings")" -eq 2 ] || return 1
	"$KS" scan -q --db "$WORK/pf2.db" --profile /dev/stdin tests/e2e/data/custom-macros.c \
		<tests/e2e/data/custom.prof 2>"$WORK/err"; rc=$?
	cat "$WORK/err"
	[ $rc -eq 0 ] && [ "$(sqlite3 "$WORK/pf2.db" "SELECT count(*) FROM findings")" -eq 2 ]
}

check "a file that still does not parse fails on every rescan" failed_stays_failed
check "a file that crashes the parser or nests too deep fails alone" crash_isolated
check "finding ids do not depend on the checkout's absolute path" ids_independent_of_checkout
check "findings do not depend on the length of the path" path_length_independent
check "findings do not depend on a comma in the path" path_comma_independent
check "a relative \"directory\" is resolved against compile_commands.json's folder" relative_directory
check "a missing or unreadable source is failed with the real reason" unreadable_source
# A findings insert that fails (here a trigger refuses one location) must
# fail the scan and leave the previous findings whole, never attach the
# next locations to the finding before.
failed_findings_insert() (
	cd "$WORK" || exit 1
	mkdir -p fi && cp "$TOP/$MP" fi/mp.c || exit 1
	"$KS" scan -q --db fi.db fi/mp.c && "$KS" report --db fi.db --format json -o before.json || exit 1
	sqlite3 fi.db "CREATE TRIGGER refuse BEFORE INSERT ON finding_locations WHEN NEW.seq = 2
	               BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END;" || exit 1
	echo "/* changed */" >>fi/mp.c
	"$KS" scan -q --db fi.db fi/mp.c 2>err; rc=$?
	[ $rc -eq 2 ] || { echo "exit $rc"; cat err; exit 1; }
	grep -q "cannot store the findings: refused by a test trigger" err || { cat err; exit 1; }
	"$KS" report --db fi.db --format json -o after.json 2>/dev/null; rc=$?
	# the failed analysis kept the last complete findings
	python3 - before.json after.json <<'P'
import json, sys
a, b = (json.load(open(f))["findings"] for f in sys.argv[1:])
assert [f["id"] for f in a] == [f["id"] for f in b], (a, b)
assert all(len(f["locations"]) == 4 for f in b), b
P
)

check "a source deleted between scans is failed with the real reason" deleted_between_scans
check "--db \"\" is a usage error" empty_db
check "--profile from a FIFO or /dev/stdin" profile_from_pipe
check "a findings insert that fails fails the scan, the last findings stay whole" failed_findings_insert
finish
