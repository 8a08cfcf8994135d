#!/bin/sh
# tests/e2e/scan-cli.sh — `kcsan-scan scan` as a user meets it: bad input,
# compile databases, incremental rescans, parallel scans, profiles.
. tests/e2e/lib.sh

MP=tests/e2e/data/mp-buggy.c

count_findings() {  # DB -> number of findings
	sqlite3 "$1" "SELECT count(*) FROM findings"
}

missing_path() {
	"$KS" scan --db "$WORK/a.db" no/such/file.c 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && expect_in "$WORK/err" "no/such/file.c" &&
	[ ! -e "$WORK/a.db" ]
}

usage_error() {
	"$KS" scan --bogus 2>"$WORK/err"; [ $? -eq 2 ] && expect_in "$WORK/err" "unknown option" &&
	"$KS" scan -j x "$MP" 2>"$WORK/err"; [ $? -eq 2 ] &&
	"$KS" frobnicate 2>"$WORK/err"; [ $? -eq 2 ]
}

help_matches() {
	"$KS" scan --help >"$WORK/h" && expect_in "$WORK/h" "--profile" && expect_in "$WORK/h" "--db"
}

bad_compdb() {
	mkdir -p "$WORK/bd" && printf '[{"directory": "/tmp", "file": ' >"$WORK/bd/compile_commands.json"
	"$KS" scan --db "$WORK/b.db" "$MP" >/dev/null 2>&1 || return 1
	before=$(sqlite3 "$WORK/b.db" "SELECT count(*) FROM scans")
	"$KS" scan --db "$WORK/b.db" -p "$WORK/bd" 2>"$WORK/err"; rc=$?
	after=$(sqlite3 "$WORK/b.db" "SELECT count(*) FROM scans")
	[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && expect_in "$WORK/err" "malformed" &&
	[ "$before" = "$after" ] && [ "$(count_findings "$WORK/b.db")" -eq 2 ]
}

compdb_scan() {
	mkdir -p "$WORK/cd/src" && cp "$MP" "$WORK/cd/src/mp.c"
	cat >"$WORK/cd/compile_commands.json" <<JSON
[{"directory": "$WORK/cd", "file": "src/mp.c",
  "command": "cc -c -O2 -I include -DNDEBUG -o src/mp.o src/mp.c"}]
JSON
	"$KS" scan --db "$WORK/c.db" -p "$WORK/cd" 2>"$WORK/err" && [ "$(count_findings "$WORK/c.db")" -eq 2 ]
}

# The database of a build with CC="kcsan-scan cc" under bear (issue 13 item
# 3): per file the wrapper's own command, the real compiler it runs, and
# -- when clang runs its front end as a process of its own -- "clang -cc1"
# with flags only the compiler proper takes (-mrelocation-model...).  The
# three commands are the real ones: the wrapper's, the compiler command it
# prints with KCSAN_CC_VERBOSE, and that command's -cc1 line from clang -###.
# Written in the order they run, the -cc1 entry last (it used to replace
# the others, and libclang refused it).  Only the wrapper's entry is
# scanned: the file parses, with the wrapper's -D flag.
compdb_wrapper_entries() {
	d=$WORK/wd
	mkdir -p "$d/src" && cp "$MP" "$d/src/mp.c"
	cd "$d" || return 1
	wrapper="$KS cc -c -O2 -DKCSAN_FROM_WRAPPER=1 -o src/mp.o src/mp.c"
	KCSAN_CC=clang KCSAN_CC_VERBOSE=1 $wrapper 2>inner.txt || return 1
	inner=$(tail -n 1 inner.txt)
	# shellcheck disable=SC2086
	cc1=$($inner -### 2>&1 | grep -- '"-cc1"' | tail -n 1)
	[ -n "$cc1" ] || { echo "no -cc1 line from: $inner -###"; return 1; }
	printf '#ifndef KCSAN_FROM_WRAPPER\n#error the wrapper entry was not the one scanned\n#endif\n' >>src/mp.c
	python3 - "$d" "$wrapper" "$inner" "$cc1" <<'PY' || return 1
import json, sys
d, cmds = sys.argv[1], sys.argv[2:]
json.dump([{"directory": d, "file": "src/mp.c", "command": c} for c in cmds],
          open(d + "/compile_commands.json", "w"), indent=1)
PY
	"$KS" scan --db "$WORK/w.db" -p "$d" 2>err || { cat err; return 1; }
	cat err
	expect_in err "1 files: 1 parsed" || expect_in err "1 file: 1 parsed" || return 1
	[ "$(count_findings "$WORK/w.db")" -eq 2 ]
}

# The wrapper writes the compile database itself (issue 13 item 3):
# KCSAN_COMPILE_DB set, a two-file program (the writer and the reader of a
# message-passing bug in separate files) built by `make -j2` with
# CC="kcsan-scan cc"; the database holds exactly one entry per source (the
# wrapper's command, an absolute file, the -o), stays so after a rebuild,
# and `scan -p` finds the cross-file finding through it.  Then eight
# compiles at once into one database: all eight entries, valid JSON (the
# lock).  And a file that is not a compile database is left byte for byte
# as it was, the compile still done.  Control: the same build without
# KCSAN_COMPILE_DB writes no database.
compdb_written_by_wrapper() {
	d=$WORK/wdb
	mkdir -p "$d" && cd "$d" || return 1
	cat >shared.h <<'C'
#define READ_ONCE(v) (*(const volatile __typeof__(v) *)&(v))
#define WRITE_ONCE(v, val) (*(volatile __typeof__(v) *)&(v) = (val))
extern int x, flag;
void *writer(void *arg);
void *reader(void *arg);
C
	cat >writer.c <<'C'
#include "shared.h"
int x, flag;
void *writer(void *arg)
{
	x = 42;
	WRITE_ONCE(flag, 1);
	return arg;
}
C
	cat >reader.c <<'C'
#include <pthread.h>
#include <stdio.h>
#include "shared.h"
void *reader(void *arg)
{
	if (READ_ONCE(flag))
		printf("%d\n", x);
	return arg;
}
int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
C
	printf 'prog: writer.o reader.o\n\t$(CC) -o prog writer.o reader.o\n%%.o: %%.c shared.h\n\t$(CC) -O1 -DFROM_MAKE=1 -c -o $@ $<\n' >Makefile
	make -j2 CC="$KS cc" >make0.log 2>&1 || { cat make0.log; return 1; }
	[ ! -e compile_commands.json ] || { echo "written without KCSAN_COMPILE_DB"; return 1; }
	rm -f ./*.o prog
	KCSAN_COMPILE_DB=$d/compile_commands.json make -j2 CC="$KS cc" >make.log 2>&1 || { cat make.log; return 1; }
	touch writer.c reader.c
	KCSAN_COMPILE_DB=$d/compile_commands.json make -j2 CC="$KS cc" >>make.log 2>&1 || { cat make.log; return 1; }
	python3 - "$d" <<'PY' || return 1
import json, os, sys
d = sys.argv[1]
db = json.load(open(d + "/compile_commands.json"))
files = sorted(e["file"] for e in db)
want = [d + "/reader.c", d + "/writer.c"]
assert files == want, files
for e in db:
    a = e["arguments"]
    assert os.path.basename(a[0]) == "kcsan-scan" and a[1] == "cc", a
    assert "-DFROM_MAKE=1" in a and e["directory"] == d, e
    assert e["output"] == os.path.basename(e["file"])[:-2] + ".o", e
print("entries:", len(db))
PY
	"$KS" scan --db "$WORK/wdb.db" -p "$d" 2>err || { cat err; return 1; }
	cat err
	expect_in err "2 files: 2 parsed" || return 1
	[ "$(count_findings "$WORK/wdb.db")" -ge 1 ] || return 1
	# Eight compiles at once, one database.
	mkdir -p par && cd par || return 1
	for i in 1 2 3 4 5 6 7 8; do printf 'int f%d(int a) { return a + %d; }\n' $i $i >f$i.c; done
	for i in 1 2 3 4 5 6 7 8; do
		KCSAN_COMPILE_DB=$d/par/cc.json "$KS" cc -c -o f$i.o f$i.c &
	done
	wait
	python3 -c 'import json,sys; db=json.load(open(sys.argv[1])); n=len(db); print("parallel entries:", n); sys.exit(n != 8)' cc.json || return 1
	[ ! -e cc.json.tmp.* ] 2>/dev/null || { echo "temporary copy left"; ls; return 1; }
	# Not a compile database: left alone, the compile done.
	echo '{"not": "an array"}' >bad.json
	cp bad.json bad.orig
	rm -f f1.o
	KCSAN_COMPILE_DB=$d/par/bad.json "$KS" cc -c -o f1.o f1.c 2>warn || return 1
	cat warn
	[ -f f1.o ] && cmp -s bad.json bad.orig && expect_in warn "KCSAN_COMPILE_DB=.*bad.json: not a JSON array"
}

unparsable_skipped() {
	mkdir -p "$WORK/up" && cp "$MP" "$WORK/up/good.c" && printf 'int broken( {\n' >"$WORK/up/bad.c"
	"$KS" scan --db "$WORK/u.db" "$WORK/up" 2>"$WORK/err"; rc=$?
	[ $rc -eq 1 ] && expect_in "$WORK/err" "bad.c:1" && expect_in "$WORK/err" "error:" &&
	[ "$(count_findings "$WORK/u.db")" -eq 2 ]
}

unwritable_db() {
	mkdir -p "$WORK/ro" && chmod 555 "$WORK/ro"
	if [ "$(id -u)" = 0 ]; then
		# root writes anywhere: use a path under a regular file instead
		"$KS" scan --db "$MP/k.db" "$MP" 2>"$WORK/err"; rc=$?
	else
		"$KS" scan --db "$WORK/ro/k.db" "$MP" 2>"$WORK/err"; rc=$?
	fi
	[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ]
}

other_schema() {
	sqlite3 "$WORK/v.db" "CREATE TABLE t(x); PRAGMA user_version = 7;"
	"$KS" scan --db "$WORK/v.db" "$MP" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(sqlite3 "$WORK/v.db" 'PRAGMA user_version')" = 7 ] &&
	[ "$(sqlite3 "$WORK/v.db" "SELECT count(*) FROM sqlite_master")" = 1 ]
}

incremental() {
	mkdir -p "$WORK/inc" && cp "$MP" "$WORK/inc/a.c" && cp tests/e2e/data/mp-fixed.c "$WORK/inc/b.c"
	printf '#define FLAG_VALUE 1\n' >"$WORK/inc/local.h"
	printf '#include "local.h"\nint use_flag(void) { return FLAG_VALUE; }\n' >"$WORK/inc/c.c"
	"$KS" scan --db "$WORK/i.db" "$WORK/inc" 2>"$WORK/e1" && expect_in "$WORK/e1" "3 parsed, 0 unchanged" &&
	"$KS" scan --db "$WORK/i.db" "$WORK/inc" 2>"$WORK/e2" && expect_in "$WORK/e2" "0 parsed, 3 unchanged" &&
	[ "$(count_findings "$WORK/i.db")" -eq 2 ] &&
	printf '#define FLAG_VALUE 2\n' >"$WORK/inc/local.h" &&
	"$KS" scan --db "$WORK/i.db" "$WORK/inc" 2>"$WORK/e3" && expect_in "$WORK/e3" "1 parsed, 2 unchanged" &&
	"$KS" scan --db "$WORK/i.db" "$WORK/inc" -- -DEXTRA 2>"$WORK/e4" && expect_in "$WORK/e4" "3 parsed, 0 unchanged" &&
	rm "$WORK/inc/a.c" && "$KS" scan --db "$WORK/i.db" "$WORK/inc" -- -DEXTRA 2>"$WORK/e5" &&
	[ "$(count_findings "$WORK/i.db")" -eq 0 ]
}

# A static inline function of a header is walked and stored once per tree:
# by the first TU (by path) that defines it; the others list it in
# skipped_functions.  When that copy goes (its TU vanished), the TUs that
# relied on it are parsed again, and the findings are those of a fresh
# scan.  A header that defines main() in some TU (a harness) keeps one copy
# per TU.
header_copies() (
	d=$WORK/hc && mkdir -p "$d" && cd "$d" || exit 1
	cat >mp.h <<'EOH'
#include <kcsan/lkmm.h>
extern int x, flag;
static inline void writer(void) { x = 1; WRITE_ONCE(flag, 1); }
static inline int reader(void) { while (!READ_ONCE(flag)) ; return x; }
EOH
	printf '#include "mp.h"\nint x, flag;\nvoid a_write(void) { writer(); }\n' >a.c
	printf '#include "mp.h"\nint b_read(void) { return reader(); }\n' >b.c
	cat >c.c <<'EOC'
#include <pthread.h>
#include "mp.h"
static void *w(void *p) { writer(); return p; }
static void *r(void *p) { reader(); return p; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, r, 0);
  pthread_join(t, 0); pthread_join(u, 0); return 0; }
EOC
	copies="SELECT count(*) FROM functions WHERE name = 'writer'"
	"$KS" scan -j 1 --db one.db a.c b.c c.c 2>e1 && expect_in e1 "3 parsed" &&
	[ "$(sqlite3 one.db "$copies")" = 1 ] &&
	[ "$(sqlite3 one.db "SELECT count(*) FROM skipped_functions WHERE link_key LIKE '%writer'")" = 2 ] &&
	[ "$(count_findings one.db)" -ge 1 ] || { echo "one copy"; cat e1; return 1; }
	# -j 2 may store a second copy; the findings are the same
	"$KS" scan -j 2 --db two.db c.c b.c a.c 2>/dev/null &&
	"$KS" report --db one.db --format json >one.json && "$KS" report --db two.db --format json >two.json &&
	cmp one.json two.json || { echo "-j 2 differs"; return 1; }
	rm a.c && "$KS" scan -j 1 --db one.db b.c c.c 2>e2 && expect_in e2 "2 parsed, 0 unchanged" &&
	[ "$(sqlite3 one.db "$copies")" -ge 1 ] &&
	"$KS" scan --db fresh.db b.c c.c 2>/dev/null &&
	"$KS" report --db one.db --format json >again.json && "$KS" report --db fresh.db --format json >fresh.json &&
	cmp again.json fresh.json && [ "$(count_findings fresh.db)" -ge 1 ] || { echo "after a.c vanished"; cat e2; return 1; }
	# harness.h defines main() unless NO_MAIN: in a.c it does, in b.c not
	cat >harness.h <<'EOH'
#include <pthread.h>
int n;
static inline void bump(void) { n++; }
#ifndef NO_MAIN
static void *t(void *p) { bump(); return p; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0); return 0; }
#endif
EOH
	printf '#include "harness.h"\n' >h1.c
	printf '#define NO_MAIN\n#include "harness.h"\nvoid more(void) { bump(); }\n' >h2.c
	"$KS" scan --db h.db h1.c h2.c 2>/dev/null &&
	[ "$(sqlite3 h.db "SELECT count(*) FROM functions WHERE name = 'bump'")" = 2 ] &&
	[ "$(sqlite3 h.db "SELECT count(*) FROM skipped_functions")" = 0 ] || { echo "harness"; return 1; }
)

parallel_same() {
	"$KS" scan -q -j 1 --db "$WORK/j1.db" tests/e2e/data && "$KS" scan -q -j 2 --db "$WORK/j2.db" tests/e2e/data &&
	q="SELECT kind || fingerprint FROM findings ORDER BY 1" &&
	[ "$(sqlite3 "$WORK/j1.db" "$q")" = "$(sqlite3 "$WORK/j2.db" "$q")" ] &&
	[ -n "$(sqlite3 "$WORK/j1.db" "$q")" ]
}

parallel_analysis_same() {
	# -j N runs the whole-tree analysis in threads too (analysis/split.c):
	# the report of a tree of many files, ids and order included, is the
	# same byte for byte in 1, 2 and 4.
	set -- examples tests/e2e/data/mp-buggy.c tests/e2e/data/mp-fixed.c tests/corpus/[0-4]*.c
	for j in 1 2 4; do
		"$KS" scan -q -j "$j" --db "$WORK/t$j.db" "$@" &&
		"$KS" report --db "$WORK/t$j.db" --format json >"$WORK/t$j.json" || return 1
	done
	[ "$(grep -c '"id"' "$WORK/t1.json")" -ge 20 ] &&
	cmp "$WORK/t1.json" "$WORK/t2.json" && cmp "$WORK/t1.json" "$WORK/t4.json"
}

user_profile() {
	# A project spelling its primitives its own way: without the profile the
	# macros are unknown (no finding); with it, the bug is found.
	"$KS" scan -q --db "$WORK/p0.db" tests/e2e/data/custom-macros.c && [ "$(count_findings "$WORK/p0.db")" -eq 0 ] &&
	"$KS" scan -q --db "$WORK/p1.db" --profile tests/e2e/data/custom.prof tests/e2e/data/custom-macros.c &&
	[ "$(count_findings "$WORK/p1.db")" -eq 2 ]
}

# docs/history/real-code-reviews.md weakness 7: autotools' -I../include -include config.h.
# gcc finds config.h along the -I chain, not in the entry's directory.
include_along_i_chain() {
	d="$WORK/inc7"
	mkdir -p "$d/inc" "$d/src" && echo '#define T int' >"$d/inc/config.h" && echo 'T x;' >"$d/src/a.c"
	echo '[{"directory":"'"$d"'/src","file":"a.c","arguments":["cc","-I../inc","-include","config.h","-c","a.c"]}]' \
		>"$d/compile_commands.json"
	(cd "$d/src" && cc -I../inc -include config.h -c a.c -o /dev/null) || return 1
	"$KS" scan --db "$WORK/inc7.db" -p "$d" 2>"$WORK/err" || { cat "$WORK/err"; return 1; }
	[ "$(sqlite3 "$WORK/inc7.db" "SELECT count(*) FROM translation_units WHERE status = 'ok'")" -eq 1 ]
}

# -include FILE that does exist in the entry's directory is found there.
include_in_directory() {
	d="$WORK/inc7b"
	mkdir -p "$d/src" && echo '#define T int' >"$d/src/local.h" && echo 'T y;' >"$d/src/b.c"
	echo '[{"directory":"'"$d"'/src","file":"b.c","command":"cc -include local.h -c b.c"}]' \
		>"$d/compile_commands.json"
	"$KS" scan --db "$WORK/inc7b.db" -p "$d" 2>"$WORK/err" || { cat "$WORK/err"; return 1; }
	[ "$(sqlite3 "$WORK/inc7b.db" "SELECT count(*) FROM translation_units WHERE status = 'ok'")" -eq 1 ]
}

local_atomic_in_project_macro() {
	# OVS's test-atomic.c: a block-local atomic declared and used inside a
	# project macro (the atomics are clang's <stdatomic.h> macros, so no
	# vocabulary site of the file covers &x).  Its address goes only to
	# atomic builtins: it is no shared object, let alone a flag.
	cat >"$WORK/la.c" <<'EOC'
#include <stdatomic.h>
int g;
#define ROUND_TRIP(T) { T x = 1; int v; atomic_store(&x, 2); v = atomic_load(&x); g += v; }
void f(void) { ROUND_TRIP(atomic_int); }
EOC
	"$KS" scan --db "$WORK/la.db" "$WORK/la.c" 2>"$WORK/err" || { cat "$WORK/err"; return 1; }
	[ "$(sqlite3 "$WORK/la.db" "SELECT count(*) FROM objects WHERE display = 'x'")" -eq 0 ] &&
	[ "$(sqlite3 "$WORK/la.db" "SELECT count(*) FROM objects WHERE display = 'g'")" -eq 1 ]
}

bad_profile() {
	printf 'my_store frobnicate relaxed\n' >"$WORK/bad.prof"
	"$KS" scan --db "$WORK/bp.db" --profile "$WORK/bad.prof" "$MP" 2>"$WORK/err"; rc=$?
	[ $rc -eq 2 ] && expect_in "$WORK/err" "bad.prof:1" && [ ! -e "$WORK/bp.db" ]
}

# A user profile that gives a built-in name another meaning: one warning
# line naming the profile's line and both meanings; the same meaning, or a
# new name, is silent.
profile_clash_warns() {
	printf 'atomic_read  read  acquire\n' >"$WORK/clash.prof"
	printf 'READ_ONCE  read  relaxed  lvalue=1\nmy_read  read  acquire\n' >"$WORK/same.prof"
	"$KS" scan -q --db "$WORK/cl.db" --profile "$WORK/clash.prof" "$MP" 2>"$WORK/err" || return 1
	one_line "$WORK/err" && expect_in "$WORK/err" "clash.prof:1: 'atomic_read' replaces the built-in lkmm entry (read relaxed) with another meaning (read acquire)" || return 1
	"$KS" scan -q --db "$WORK/cl2.db" --profile "$WORK/same.prof" "$MP" 2>"$WORK/err2" || return 1
	[ ! -s "$WORK/err2" ] || { echo "unexpected warning:"; cat "$WORK/err2"; return 1; }
}

# libclang (and libLLVM) are loaded by scan only: the commands run once
# per test process or compiled file start without them (analyzer/frontend/libclang.c).
libclang_only_for_scan() (
	cd "$WORK" || exit 1
	printf 'int x;\nint main(void) { return x; }\n' >lc.c
	# The dynamic linker's lines naming a library that kcsan-scan itself
	# needs or loads (cc runs a compiler, which needs libclang-cpp).
	by_us='file=[^ ]*libclang[^ ]* .*by [^ ]*kcsan-scan'
	LD_DEBUG=files "$KS" scan -q --db lc.db lc.c 2>scan.ld || return 1
	grep -q "$by_us" scan.ld || { echo "scan did not load libclang"; return 1; }
	LD_DEBUG=files "$KS" cc -O1 -o lc lc.c 2>cc.ld || return 1
	LD_DEBUG=files "$KS" run --db lc.db -- ./lc 2>run.ld || return 1
	LD_DEBUG=files "$KS" report --db lc.db >/dev/null 2>report.ld || return 1
	! grep "$by_us" cc.ld run.ld report.ld
)

# KCSAN_LIBCLANG names the library scan loads; a wrong one is one line and
# exit status 2 before the database is created.
bad_libclang() (
	cd "$WORK" || exit 1
	KCSAN_LIBCLANG=/no/such/libclang.so "$KS" scan --db lc1.db "$TOP/$MP" 2>err1; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <err1)" -eq 1 ] && expect_in err1 /no/such/libclang.so &&
	[ ! -e lc1.db ] || { cat err1; return 1; }
	not_clang=$(ldd "$KS" | sed -n 's/.*libsqlite3[^ ]* => \([^ ]*\).*/\1/p')
	KCSAN_LIBCLANG=$not_clang "$KS" scan --db lc2.db "$TOP/$MP" 2>err2; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <err2)" -eq 1 ] && expect_in err2 "has no clang_" &&
	[ ! -e lc2.db ] || { cat err2; return 1; }
	cat err1 err2
)

check "missing path: exit 2, one line, no database" missing_path
check "usage errors exit 2" usage_error
check "--help names the options" help_matches
check "malformed compile_commands.json: exit 2, database untouched" bad_compdb
check "compile_commands.json scan" compdb_scan
check "compile database of a kcsan-scan cc build: the wrapper's entries, no -cc1" compdb_wrapper_entries
check "KCSAN_COMPILE_DB: the wrapper writes the database under make -j2; scan -p reads it" compdb_written_by_wrapper
check "-include FILE found along the -I chain, as gcc does" include_along_i_chain
check "-include FILE found in the entry's directory" include_in_directory
check "a file that does not parse is reported and skipped" unparsable_skipped
check "unwritable database: exit 2" unwritable_db
check "database of another schema version is refused, not rewritten" other_schema
check "incremental rescans" incremental
check "a header function is stored once, and again when its copy vanishes" header_copies
check "-j 1 and -j 2 give the same findings" parallel_same
check "-j 1, 2 and 4: the same report, byte for byte, on a tree of many files" parallel_analysis_same
check "user profile file" user_profile
check "bad profile file: exit 2 naming the line" bad_profile
check "a profile that changes a built-in name's meaning warns" profile_clash_warns
check "libclang is loaded by scan only" libclang_only_for_scan
check "KCSAN_LIBCLANG: not found or not libclang: exit 2, one line, no database" bad_libclang
check "a local atomic inside a project macro is no shared object" local_atomic_in_project_macro
finish
