#!/bin/sh
# tests/e2e/focus.sh — the runtime's focus on the static candidates (issue 3
# item 5), with real instrumented binaries and threads: candidates loaded
# from the database and mapped to code through the line table, whatever the
# paths look like at scan and compile time; the barriers only the static
# pass sees (inline asm behind a macro) applied, and those the inline-asm
# barrier plugin announces, focus or not; a hot candidate paced, a
# rarely run one watched every time; focus off with --no-focus, with no
# database, with no candidates, with a broken database.
. "$(dirname "$0")/lib.sh"
EX="$TOP/examples"
MP="$EX/message-passing"
ASM="$TOP/tests/e2e/data/focus/asm-barrier.c"
CKH="$TOP/tests/e2e/data/focus/ck-handover.c"
PACE="$TOP/tests/e2e/data/focus/pace.c"
GATE="$TOP/tests/e2e/data/focus/gate.c"
WATCHERS="$TOP/tests/e2e/data/focus/watchers.c"
cd "$WORK" || exit 1

# focus_count FILE: "N M" from the "kcsan: focus: N candidates, M addresses" line.
focus_count() { sed -n 's/^kcsan: focus: \([0-9]*\) candidates, \([0-9]*\) addresses.*/\1 \2/p' "$1"; }

loads_candidates() {
	"$KS" scan -q --db mp.db "$MP/buggy.c" || return 1
	"$KS" cc -O2 -o mp "$MP/buggy.c" || return 1
	KCSAN_OPTIONS=verbose=1 "$KS" run --db mp.db -- ./mp 10 >/dev/null 2>err || return 1
	grep 'focus:' err
	# The runtime's own units (runtime/*.c, linked in with their line
	# tables: no candidate there) are not read; buggy.c's is.
	units=$(sed -n "s/.*mapped to code in [0-9]* us (\([0-9]*\) units read, \([0-9]*\) of the runtime's skipped)$/\1 \2/p" err)
	set -- $units
	[ "${1:-0}" -ge 1 ] && [ "${2:-0}" -ge "$(ls "$TOP"/runtime/*.c | wc -l)" ] ||
		{ echo "units read, skipped: ${units:-none}"; return 1; }
	set -- $(focus_count err)
	# buggy.c's finding: x = value (writer) and value = x (reader); the
	# reader's *arg = ... is a candidate of no finding, not focused.
	[ "$(sqlite3 mp.db 'SELECT count(*) FROM candidates')" -eq 3 ] &&
	[ "${1:-0}" -eq 2 ] && [ "${2:-0}" -gt 0 ]
}

# Scanned by a relative path, compiled by an absolute one; and the other
# way round with a relative name in the line table (-fdebug-prefix-map).
paths_rel_abs() {
	(cd "$EX" && "$KS" scan -q --db "$WORK/rel.db" message-passing/buggy.c) || return 1
	"$KS" cc -O2 -o abs "$MP/buggy.c" || return 1
	KCSAN_OPTIONS=verbose=1 KCSAN_DB=$WORK/rel.db ./abs 5 >/dev/null 2>err1 || return 1
	"$KS" scan -q --db abs.db "$MP/buggy.c" || return 1
	for c in clang gcc; do
		(cd "$EX" && KCSAN_CC=$c "$KS" cc -O2 -fdebug-prefix-map="$EX"=. \
			-o "$WORK/rel-$c" message-passing/buggy.c) || return 1
		readelf --debug-dump=line rel-$c | grep -q "$EX" && { echo "rel-$c: absolute path in the line table"; return 1; }
		KCSAN_OPTIONS=verbose=1 KCSAN_DB=$WORK/abs.db ./rel-$c 5 >/dev/null 2>err-$c || return 1
	done
	grep -h 'focus:' err1 err-clang err-gcc
	for f in err1 err-clang err-gcc; do
		set -- $(focus_count $f)
		[ "${1:-0}" -eq 2 ] || { echo "$f: ${1:-no} candidates"; return 1; }
	done
}

# With focus the writer's race is found at the default sampling rate.
focus_detects() {
	n=0
	for i in 1 2 3; do
		"$KS" run --db mp.db --timeout 20 -- ./mp 200 >/dev/null 2>err
		grep -q 'BUG: KCSAN' err && n=$((n + 1))
	done
	echo "runs reporting with focus: $n/3"
	[ $n -ge 2 ]
}

# A correct program whose barrier is inline assembly: silent with focus
# (static barrier applied), reported without (the control: watching every
# access, the mfence is invisible to the runtime).  max_delay_pct=0: every
# access really watched, not capped by the delay budget.  Built without the
# inline-asm barrier plugin (KCSAN_ASM_PLUGIN empty), which would apply the
# mfence in both runs (ck_handover below).
asm_barrier() {
	"$KS" scan -q --db asm.db "$ASM" || return 1
	[ "$(sqlite3 asm.db 'SELECT count(*) FROM candidates')" -eq 0 ] || return 1
	KCSAN_ASM_PLUGIN= "$KS" cc -O2 -o asm "$ASM" || return 1
	KCSAN_OPTIONS=skip_watch=0:verbose=1 "$KS" run --db asm.db -- ./asm 5 >/dev/null 2>err || return 1
	grep 'focus:' err && grep -q 'static barriers' err || return 1
	for i in 1 2 3 4 5; do
		KCSAN_OPTIONS=skip_watch=0:max_delay_pct=0 "$KS" run --db asm.db --timeout 60 -- ./asm 200 >/dev/null 2>err || return 1
		if grep -q 'BUG: KCSAN' err; then echo "false report with focus:"; cat err; return 1; fi
	done
	# (statistical: on a loaded machine it can take a few more runs)
	n=0
	for i in $(seq 1 25); do
		KCSAN_OPTIONS=skip_watch=0:max_delay_pct=0 "$KS" run --db asm.db --no-focus --timeout 60 -- ./asm 400 >/dev/null 2>err || return 1
		grep -q 'BUG: KCSAN' err && { n=$i; break; }
	done
	echo "without focus: reported at run $n (control)"
	[ $n -gt 0 ]
}

# focus_sites FILE: the "N candidates, M addresses, K marked sites, B
# static barriers" that focus took, and where it read them from.
focus_sites() {
	sed -n 's/^kcsan: focus: \([0-9]* candidates, .* static barriers\)$/\1/p' "$1"
}
focus_source() {
	sed -n "s/^kcsan: focus: start-up [0-9]* us: [0-9]* sites read from \(.*\) in [0-9]* us, .*/\1/p" "$1"
}

# `run` reads focus's sites from the database once and hands them to every
# process of the run in a list (KCSAN_FOCUS_SITES, db/focus_sites.h): a
# process takes the same candidates, addresses, marked sites and static
# barriers from it as from the database itself (KCSAN_DB set by hand: no
# list); a damaged list, or one made for another database, is ignored and
# the database read.  The list is gone when run exits; --no-focus makes
# none.  (mp.db, asm.db and their programs: the tests above.)
sites_list() {
	for p in mp asm; do
		KCSAN_OPTIONS=verbose=1 "$KS" run --db $p.db -- \
			sh -c 'echo "$KCSAN_FOCUS_SITES" >list-name && cp "$KCSAN_FOCUS_SITES" list-$0 && exec ./$0 5' $p \
			>/dev/null 2>err-l || return 1
		[ "$(focus_source err-l)" = "the run's list" ] || { cat err-l; return 1; }
		[ -s "list-$p" ] && [ ! -e "$(cat list-name)" ] || { echo "list $(cat list-name) left behind"; return 1; }
		KCSAN_OPTIONS=verbose=1 KCSAN_DB=$WORK/$p.db ./$p 5 >/dev/null 2>err-d || return 1
		[ "$(focus_source err-d)" = "the database" ] || { cat err-d; return 1; }
		echo "$p: $(focus_sites err-l) (list); $(focus_sites err-d) (database)"
		[ -n "$(focus_sites err-l)" ] && [ "$(focus_sites err-l)" = "$(focus_sites err-d)" ] || return 1
		# Damaged: the last record cut short.
		head -c -2 list-$p >cut-$p
		KCSAN_OPTIONS=verbose=1 KCSAN_DB=$WORK/$p.db KCSAN_FOCUS_SITES=$WORK/cut-$p ./$p 5 >/dev/null 2>err-c || return 1
		[ "$(focus_source err-c)" = "the database" ] && [ "$(focus_sites err-c)" = "$(focus_sites err-d)" ] ||
			{ echo "damaged list:"; cat err-c; return 1; }
	done
	# mp's list with asm's database: asm's sites, from its database.
	KCSAN_OPTIONS=verbose=1 KCSAN_DB=$WORK/asm.db KCSAN_FOCUS_SITES=$WORK/list-mp ./asm 5 >/dev/null 2>err-o || return 1
	KCSAN_OPTIONS=verbose=1 KCSAN_DB=$WORK/asm.db ./asm 5 >/dev/null 2>err-a || return 1
	[ "$(focus_source err-o)" = "the database" ] && [ "$(focus_sites err-o)" = "$(focus_sites err-a)" ] ||
		{ echo "another database's list:"; cat err-o; return 1; }
	"$KS" run --db mp.db --no-focus -- sh -c 'echo "${KCSAN_FOCUS_SITES-none}"' >nf 2>/dev/null || return 1
	[ "$(cat nf)" = none ]
}

# Barriers the instrumentation never sees, applied by the inline-asm
# barrier plugin (clang) in focus and --no-focus runs alike: a Concurrency
# Kit hand-over whose ck_pr_fence_store() is an empty asm (named a wmb by
# profiles/examples/ck.prof, given as KCSAN_PROFILE) is never reported, at
# -O0 and -O2; the same program without the fence is.  And the mfence of
# asm-barrier.c is applied without focus too.
ck_handover() {
	prof=$TOP/profiles/examples/ck.prof
	[ -f "$TOP/build/kcsan-asm.so" ] || { echo "no build/kcsan-asm.so (llvm-14-dev missing?)"; return 1; }
	for o in -O0 -O2; do
		KCSAN_PROFILE=$prof "$KS" cc $o -o ckh$o "$CKH" || return 1
	done
	KCSAN_PROFILE=$prof "$KS" cc -O2 -DNO_FENCE -o ckh-bare "$CKH" || return 1
	"$KS" scan -q --profile "$prof" --db ckh.db "$CKH" || return 1
	"$KS" scan -q --profile "$prof" --db ckb.db "$CKH" -- -DNO_FENCE || return 1
	for f in "" --no-focus; do
		for o in -O0 -O2; do
			for i in 1 2; do
				KCSAN_OPTIONS=skip_watch=10:max_delay_pct=0 "$KS" run --db ckh.db $f \
					--timeout 120 -- ./ckh$o 20000 >/dev/null 2>err || return 1
				if grep -q 'BUG: KCSAN' err; then echo "false report ($o $f):"; cat err; return 1; fi
			done
		done
		n=0
		for i in 1 2 3 4 5; do
			KCSAN_OPTIONS=skip_watch=10:max_delay_pct=0 "$KS" run --db ckb.db $f \
				--timeout 120 -- ./ckh-bare 20000 >/dev/null 2>err || return 1
			grep -q 'data-race in consumer / producer' err && grep -q '(reordered)' err && { n=$i; break; }
		done
		echo "without the fence ${f:-focus}: reported at run $n"
		[ $n -gt 0 ] || return 1
	done
	"$KS" cc -O2 -o asm-plugin "$ASM" || return 1
	for i in 1 2 3; do
		KCSAN_OPTIONS=skip_watch=0:max_delay_pct=0 "$KS" run --db asm.db --no-focus --timeout 60 \
			-- ./asm-plugin 200 >/dev/null 2>err || return 1
		if grep -q 'BUG: KCSAN' err; then echo "mfence not applied without focus:"; cat err; return 1; fi
	done
}

# focus_taken FILE: "BURST PACED ADDRESSES MS PACE_US" from the verbose
# summary "kcsan: focus: B taken in bursts, P paced, N addresses, T ms
# active, pace U us".
focus_taken() {
	sed -n 's/^kcsan: focus: \([0-9]*\) taken in bursts, \([0-9]*\) paced, \([0-9]*\) addresses, \([0-9]*\) ms active, pace \([0-9]*\) us$/\1 \2 \3 \4 \5/p' "$1"
}

# pace.c has 7 candidates, 2 of them in its finding (data's write and
# read; the others are loop bounds and a result store): focus loads those
# 2.  Published 2,000,000 times in a tight loop, past each site's burst
# the candidates are watched at most once per site per pace of the run --
# a bound the runtime cannot exceed however loaded the machine -- and far
# fewer than once per 64 executions (the pacing before).
pace_hot() {
	"$KS" scan -q --db pace.db "$PACE" || return 1
	[ "$(sqlite3 pace.db 'SELECT count(*) FROM candidates')" -eq 7 ] || return 1
	"$KS" cc -O2 -o pace "$PACE" || return 1
	KCSAN_OPTIONS=verbose=1 "$KS" run --db pace.db -- ./pace hot 2000000 >/dev/null 2>err || return 1
	grep 'focus:' err
	set -- $(focus_count err)
	[ "${1:-0}" -eq 2 ] || { echo "${1:-no} candidates loaded, not the finding's 2"; return 1; }
	set -- $(focus_taken err)
	[ $# -eq 5 ] || return 1
	[ "$1" -le $((64 * $3)) ] || { echo "burst: $1 > 64 x $3"; return 1; }
	[ "$2" -le $(($3 * ($4 * 1000 / $5 + 1))) ] || { echo "paced: $2 > $3 x ($4 ms / $5 us + 1)"; return 1; }
	[ $(($1 + $2)) -le 20000 ] || { echo "$(($1 + $2)) watched of 2000000"; return 1; }
}

# A long-lived thread running the candidate once per 20 ms: past the burst
# (focus_burst=0) every execution is still watched: each of the 10 rounds
# runs both of the finding's candidates (the writer's and the reader's).
pace_rare() {
	KCSAN_OPTIONS=verbose=1:focus_burst=0 "$KS" run --db pace.db -- ./pace rare 10 >/dev/null 2>err || return 1
	grep 'taken in bursts' err
	set -- $(focus_taken err)
	[ $# -eq 5 ] && [ "$1" -eq 0 ] && [ "$2" -ge 20 ]
}

# With focus active, an access outside focused code stays on the inline
# fast path (runtime/fastpath.h): gate.c's main thread makes 100 focused
# publications (99 of them in the main thread) and 200,000 plain accesses in a function of no finding; of
# its accesses, those that left the fast path (the runtime's own count,
# verbose=1) are at least the 63 focused writes of data of its burst (64,
# one of them the writer thread's) -- the count counts -- and far fewer
# than the 200,000 (before, every access of a focused run left it).  (The
# marked writes of flag leave it only with a delayed access in flight:
# hot_marked.)  Counts, not time.
gate_inline() {
	"$KS" scan -q --db gate.db "$GATE" || return 1
	"$KS" cc -O1 -o gate "$GATE" || return 1
	KCSAN_OPTIONS=verbose=1 "$KS" run --db gate.db -- ./gate 100 100000 >/dev/null 2>err || return 1
	grep 'kcsan: focus: [0-9]* candidates\|kcsan: gate:' err
	n=$(sed -n 's/^kcsan: gate: \([0-9]*\) accesses of the exiting thread left the inline fast path$/\1/p' err)
	set -- $(focus_count err)
	[ "${1:-0}" -ge 1 ] || { echo "focus not active"; return 1; }
	[ -n "$n" ] && [ "$n" -ge 63 ] && [ "$n" -lt 30000 ]
}

# A hot focused site stays on the inline fast path between its watches:
# gate.c's main thread runs the reader's line (a focused read of data and
# a write of *out) 1,000,000 times after its 99 publications.  Its
# departures from the fast path (verbose=1) stay under the 30,000 of
# gate_inline, far from the 2,000,000 accesses of that line -- before,
# each of them left it: the write to be told it was not of the
# candidate's kind, the read to be told it was not due -- and the site is
# still watched: it was set aside, and every focused site had its burst.
# Counts, not time.
hot_inline() {
	KCSAN_OPTIONS=verbose=1 "$KS" run --db gate.db -- ./gate 100 1000 1000000 >/dev/null 2>err || return 1
	grep 'kcsan: focus: \|kcsan: gate:' err
	n=$(sed -n 's/^kcsan: gate: \([0-9]*\) accesses of the exiting thread left the inline fast path$/\1/p' err)
	aside=$(sed -n 's/^kcsan: focus: hot sites set aside until due \([0-9]*\) times$/\1/p' err)
	set -- $(focus_taken err)
	[ $# -eq 5 ] && [ "$1" -ge 64 ] || { echo "no burst taken"; return 1; }
	[ -n "$n" ] && [ "$n" -ge 99 ] && [ "$n" -lt 30000 ] && [ "${aside:-0}" -ge 1 ]
}

# A hot marked site (gate.c's WRITE_ONCE of flag, the access the
# candidate pairs with) stays on the inline fast path when its thread has
# no delayed access: 1,000,000 publications, each a focused plain write of
# data -- set aside between its paced watches -- and the marked write.
# Before, every marked write in focused code left the fast path to learn
# that, without a delayed access, focus wanted nothing of it (1,000,000
# departures).  Counts, not time.
hot_marked() {
	KCSAN_OPTIONS=verbose=1 "$KS" run --db gate.db -- ./gate 1000000 1000 >/dev/null 2>err || return 1
	grep 'kcsan: focus: \|kcsan: gate:' err
	n=$(sed -n 's/^kcsan: gate: \([0-9]*\) accesses of the exiting thread left the inline fast path$/\1/p' err)
	set -- $(focus_taken err)
	[ $# -eq 5 ] && [ "$1" -ge 64 ] || { echo "no burst taken"; return 1; }
	[ -n "$n" ] && [ "$n" -lt 30000 ]
}

# While a writer's focused watches keep a watchpoint set up most of the
# time (every execution of its site focused, the whole budget), the main
# thread's 4,000,000 accesses to a page none of its slots share stay on the
# inline fast path: watchers.c.  Before, every access made while any
# watchpoint existed left it (1.5 million of them here).  Counts, not time.
watched_elsewhere() {
	"$KS" scan -q --db watchers.db "$WATCHERS" || return 1
	"$KS" cc -O1 -o watchers "$WATCHERS" || return 1
	KCSAN_OPTIONS=verbose=1:focus_burst=1000000000:max_delay_pct=100 \
		"$KS" run --db watchers.db -- ./watchers 2000000 >/dev/null 2>err || return 1
	grep 'kcsan: focus: [0-9]* candidates\|kcsan: windows:\|kcsan: gate:' err
	n=$(sed -n 's/^kcsan: gate: \([0-9]*\) accesses of the exiting thread left the inline fast path$/\1/p' err)
	focused=$(sed -n 's/^kcsan: windows: [0-9]* sampled, \([0-9]*\) focused.*/\1/p' err)
	set -- $(focus_count err)
	[ "${1:-0}" -ge 1 ] && [ "${focused:-0}" -ge 1 ] || { echo "focus not active, or no focused watch"; return 1; }
	[ -n "$n" ] && [ "$n" -lt 20000 ]
}

# Focus off: --no-focus, no database, no candidates, a broken database.
# The program runs and samples as usual each time.
focus_off() {
	KCSAN_OPTIONS=verbose=1 "$KS" run --db mp.db --no-focus -- ./mp 5 >/dev/null 2>e1 || return 1
	expect_in e1 'focus: off (focus=0)' || return 1
	KCSAN_OPTIONS=verbose=1 ./mp 5 >/dev/null 2>e2 || return 1
	expect_in e2 'focus: off (no KCSAN_DB)' || return 1
	"$KS" scan -q --db fixed.db "$MP/fixed.c" || return 1
	"$KS" cc -O2 -o mpf "$MP/fixed.c" || return 1
	KCSAN_OPTIONS=verbose=1 "$KS" run --db fixed.db -- ./mpf 5 >/dev/null 2>e3 || return 1
	expect_in e3 'focus: off' || return 1
	echo "not a database" >bad.db
	KCSAN_OPTIONS=verbose=1 KCSAN_DB=$WORK/bad.db ./mp 5 >/dev/null 2>e4 || return 1
	expect_in e4 'focus: off' || return 1
	KCSAN_OPTIONS=verbose=1 KCSAN_DB=$WORK/none/x.db ./mp 5 >/dev/null 2>e5 || return 1
	expect_in e5 'focus: off' || return 1
	# Without verbose, nothing is said.
	KCSAN_DB=$WORK/bad.db ./mp 5 >/dev/null 2>e6 || return 1
	! grep -q focus e6
	cat e1 e2 e3 e4 e5 | grep 'focus:'
}

check "focus loads the candidates of the executable" loads_candidates
check "focus matches relative and absolute paths (scan, compile; clang, gcc)" paths_rel_abs
check "focus detects the writer-side race at default sampling" focus_detects
check "static inline-asm barrier applied: no false report with focus" asm_barrier
check "run lists focus's sites once for its processes; a bad list falls back to the database" sites_list
check "inline-asm barriers applied by the plugin, with and without focus (CK hand-over)" ck_handover
check "focus paces a hot candidate: bounded watches per pace" pace_hot
check "focus watches a rarely run candidate at every execution" pace_rare
check "focus active: accesses outside focused code stay on the inline fast path" gate_inline
check "focus active: a hot site's executions stay on the inline fast path between watches" hot_inline
check "focus active: a hot marked site stays on the inline fast path without a delayed access" hot_marked
check "another thread's watchpoints leave the accesses far from them on the inline fast path" watched_elsewhere
check "focus off: --no-focus, no database, no candidates, broken database" focus_off
finish
