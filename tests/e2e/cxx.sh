#!/bin/sh
# tests/e2e/cxx.sh — C++ through `kcsan-scan c++` (issue 13): programs
# built with clang++ and g++ (KCSAN_CXX), also through a kcsan-c++ symlink,
# run under `kcsan-scan run`: a correct program with std::thread,
# std::atomic and virtual calls, and a C++ main linking an instrumented C
# object, exit 0 without a race; the racy C++ message-passing twin is
# recorded (re-run until it is, within a bound) and its fixed twin never.
. "$(dirname "$0")/lib.sh"
D="$TOP/tests/e2e/data/cxx"
FAST="skip_watch=20:udelay=50"
cd "$WORK" || exit 1

races() { sqlite3 "$1" 'SELECT count(*) FROM races'; }

# Linked with our runtime, not libtsan.
runtime_not_tsan() {
	nm "$1" | grep -q ' T __tsan_vptr_update' || { echo "$1 has no runtime"; return 1; }
	! ldd "$1" | grep -q libtsan || { echo "$1 links libtsan"; return 1; }
}

# A correct program: builds, runs under `kcsan-scan run`, status 0, no race.
correct() {
	c=$1 db=ok-$c.db
	KCSAN_CXX=$c "$KS" c++ -O2 -o obj-$c "$D/objects.cpp" || return 1
	runtime_not_tsan obj-$c || return 1
	for i in 1 2; do
		KCSAN_OPTIONS=skip_watch=0:udelay=20 "$KS" run --db $db --timeout 120 -- ./obj-$c >out 2>err || {
			cat out err; return 1; }
		! grep -q 'BUG: KCSAN' err || { cat err; return 1; }
	done
	[ "$(races $db)" -eq 0 ]
}

# A C++ main and an instrumented C object (compiled by the other compiler
# family, to mix them), linked by `kcsan-scan c++`.
c_object() {
	c=$1 cc=$2 db=cm-$c.db
	KCSAN_CC=$cc "$KS" cc -O2 -c -o counter.o "$D/counter.c" || return 1
	KCSAN_CXX=$c "$KS" c++ -O2 -I"$D" -c -o cmain.o "$D/cmain.cpp" || return 1
	KCSAN_CXX=$c "$KS" c++ -o cm-$c cmain.o counter.o || return 1
	runtime_not_tsan cm-$c || return 1
	KCSAN_OPTIONS=skip_watch=0:udelay=20 "$KS" run --db $db --timeout 120 -- ./cm-$c >out 2>err || {
		cat out err; return 1; }
	grep -q 'count=4000' out && ! grep -q 'BUG: KCSAN' err && [ "$(races $db)" -eq 0 ]
}

# The racy twin is recorded, (reordered); the fixed one never.  Built
# through a symlink named kcsan-c++.
message_passing() {
	c=$1
	ln -sf "$KS" kcsan-c++ || return 1
	KCSAN_CXX=$c ./kcsan-c++ -O2 -o mpb-$c "$D/mp.cpp" || return 1
	KCSAN_CXX=$c ./kcsan-c++ -O2 -DFIXED -o mpf-$c "$D/mp.cpp" || return 1
	i=0
	while [ $i -lt 5 ] && [ "$(races mpb-$c.db 2>/dev/null || echo 0)" -eq 0 ]; do
		KCSAN_OPTIONS=$FAST "$KS" run --db mpb-$c.db --timeout 120 -- ./mpb-$c 20 >out 2>err || {
			cat out err; return 1; }
		i=$((i + 1))
	done
	echo "runs until a race: $i"
	[ "$(races mpb-$c.db)" -gt 0 ] && grep -q '(reordered)' err || { cat out err; return 1; }
	for i in 1 2 3; do
		KCSAN_OPTIONS=$FAST "$KS" run --db mpf-$c.db --timeout 120 -- ./mpf-$c 2 >out 2>err || {
			cat out err; return 1; }
		! grep -q 'BUG: KCSAN' err || { cat err; return 1; }
	done
	[ "$(races mpf-$c.db)" -eq 0 ]
}

missing() {
	KCSAN_CXX=no-such-cxx "$KS" c++ -c "$D/mp.cpp" 2>err
	[ $? -eq 2 ] && one_line err && expect_in err "KCSAN_CXX"
}

for c in clang++ g++; do
	check "c++ ($c): std::thread, std::atomic, virtual calls, run, no race" correct $c
	check "c++ ($c): racy message passing recorded, fixed twin silent (kcsan-c++ symlink)" \
		message_passing $c
done
check "c++ (clang++): C++ main linking an instrumented C object (gcc)" c_object clang++ gcc
check "c++ (g++): C++ main linking an instrumented C object (clang)" c_object g++ clang
check "c++: missing compiler is one line naming KCSAN_CXX, status 2" missing
finish
