#!/bin/sh
# tests/e2e/report-confidence.sh — one finding per site and findings ranked
# by confidence, with real scans: a plain write published by two flags is
# one finding with the second pairing inside it, and keeps its id when a
# flag goes; textbook message passing between threads the tree starts is
# high confidence (an error), a flag that is a counter and data unrelated
# to the flag are low (notes); --min-confidence lists, counts and fails on
# only what is sure enough; text, JSON and SARIF say how sure and why.
. tests/e2e/lib.sh

# TREE [FLAGS]: a program whose main() writes 'data' and then publishes it
# through 'ready' and, unless FLAGS is "one", through 'done' too.
make_mp() {
	mkdir -p "$1/src" || return 1
	{
		printf '#include <kcsan/lkmm.h>\n#include <pthread.h>\nint data, ready, done;\n'
		printf 'static void *reader(void *a) { (void)a; while (!READ_ONCE(ready)) ; return (void *)(long)data; }\n'
		if [ "${2:-two}" = two ]; then
			printf 'static void *checker(void *a) { (void)a; if (READ_ONCE(done)) return (void *)(long)data; return 0; }\n'
		else
			printf 'static void *checker(void *a) { return a; }\n'
		fi
		printf 'int main(void) {\n\tpthread_t r, c;\n'
		printf '\tpthread_create(&r, 0, reader, 0);\n\tpthread_create(&c, 0, checker, 0);\n'
		printf '\tdata = 42;\n\tWRITE_ONCE(ready, 1);\n\tWRITE_ONCE(done, 1);\n'
		printf '\tpthread_join(r, 0);\n\tpthread_join(c, 0);\n\treturn 0;\n}\n'
	} >"$1/src/mp.c"
}

# Library code: data unrelated to its flag (two structs through two
# pointers), a counter taken for a flag, and an index read from a flag.
make_lib() {
	mkdir -p "$1/src" || return 1
	cat >"$1/src/lib.c" <<'C'
#include <kcsan/lkmm.h>
struct s { int v; };
struct t { int ready; };
void put(struct s *p, struct t *q) { p->v = 1; WRITE_ONCE(q->ready, 1); }
int get(struct s *p, struct t *q) { if (READ_ONCE(q->ready)) return p->v; return 0; }

int ticket, slots[16];
void take(int v) { slots[3] = v; atomic_inc(&ticket); }
int peek(void) { if (atomic_read(&ticket)) return slots[3]; return 0; }

/* a count that is also stored (reset between rounds) is a flag: readers
   may wait for it; so is a phase set to 1 */
int rounds, results[4];
void arrive(int v) { results[1] = v; atomic_inc(&rounds); }
void restart(void) { atomic_set(&rounds, 0); }
int seen(void) { if (atomic_read(&rounds) == 2) return results[1]; return 0; }
int phase, outcome[4];
void step(int v) { outcome[1] = v; atomic_inc(&phase); }
void begin(void) { atomic_set(&phase, 1); }
int done(void) { if (atomic_read(&phase) == 2) return outcome[1]; return 0; }

int table[8], at;
void fill(void) { table[2] = 7; WRITE_ONCE(at, 2); }
int look(void) { int i = READ_ONCE(at); return table[i]; }
C
}

json() {  # TREE OUT.json [REPORT OPTIONS]: scan TREE, JSON report into OUT
	tree=$1 out=$2
	shift 2
	(cd "$tree" && rm -f k.db* && "$KS" scan -q --db k.db src; "$KS" report --db k.db --format json -o "$out" "$@")
	[ -s "$out" ]
}

py() {  # REPORT.json PYTHON: run PYTHON with the findings as F
	python3 -c "import json,sys; F=json.load(open(sys.argv[1]))['findings']; $2" "$1"
}

one_finding_per_site() {
	make_mp "$WORK/two" && json "$WORK/two" "$WORK/two.json" || return 1
	# data = 42 (line 10) pairs with both flags: one finding, the other
	# pairing inside it
	n=$(py "$WORK/two.json" 'print(sum(1 for f in F if f["locations"][0]["line"] == 10))')
	[ "$n" = 1 ] || { echo "findings at the plain write: $n (want 1)"; cat "$WORK/two.json"; return 1; }
	flags=$(py "$WORK/two.json" 'f=[f for f in F if f["locations"][0]["line"] == 10][0]; print(f["flag"], *sorted(c["flag"] for c in f["counterparts"]))')
	case $flags in
	"ready done"|"done ready") ;;
	*) echo "flags of the site: '$flags' (want ready and done)"; return 1 ;;
	esac
	# the id names the site: the same with one flag only
	make_mp "$WORK/one" one && json "$WORK/one" "$WORK/one.json" || return 1
	a=$(py "$WORK/two.json" 'print([f["id"] for f in F if f["locations"][0]["line"] == 10][0])')
	b=$(py "$WORK/one.json" 'print([f["id"] for f in F if f["locations"][0]["line"] == 10][0])')
	[ "$a" = "$b" ] || { echo "the site's id changed with its flags: $a, $b"; return 1; }
}

confidence_levels() {
	make_mp "$WORK/c" && make_lib "$WORK/c" && json "$WORK/c" "$WORK/c.json" || return 1
	# textbook message passing between the tree's threads: high, an error
	py "$WORK/c.json" '
mp = [f for f in F if f["locations"][0]["file"].endswith("mp.c")]
lib = [f for f in F if f["locations"][0]["file"].endswith("lib.c")]
assert mp and lib, "findings in both files"
for f in mp:
    assert f["confidence"] == "high" and f["severity"] == "error", f
    assert any("threads" in e for e in f["confidence_evidence"]), f
for f in lib:
    if f["flag"] not in ("at", "phase", "rounds"):
        assert f["confidence"] == "low" and f["severity"] == "note", f
# an index read from the flag is no pointer to the data
index = [f for f in lib if f["flag"] == "at"]
assert index and not any("pointer" in e for f in index for e in f["confidence_evidence"]), index
assert all(f["confidence"] == "medium" for f in index), index   # tied in fill() only
counter = [f for f in lib if f["flag"] == "ticket"]
assert counter and all(any(e.startswith("against:") and "counter" in e for e in f["confidence_evidence"]) for f in counter), counter
reset = [f for f in lib if f["flag"] == "rounds"]
assert reset and not any("counter" in e for f in reset for e in f["confidence_evidence"]), reset
flag = [f for f in lib if f["flag"] == "phase"]
assert flag and not any("counter" in e for f in flag for e in f["confidence_evidence"]), flag
assert all(f["confidence"] == "medium" for f in flag), flag   # tied on both sides, no threads
# surest first
order = {"high": 0, "medium": 1, "low": 2}
assert [order[f["confidence"]] for f in F] == sorted(order[f["confidence"]] for f in F), "not ordered by confidence"
' || return 1
}

min_confidence() {
	[ -f "$WORK/c/k.db" ] || { make_mp "$WORK/c" && make_lib "$WORK/c" && json "$WORK/c" "$WORK/c.json"; } || return 1
	cd "$WORK/c" || return 1
	all=$("$KS" report --db k.db --format json | py /dev/stdin 'print(len(F))')
	high=$("$KS" report --db k.db --format json --min-confidence high | py /dev/stdin 'print(len(F), all(f["confidence"] == "high" for f in F))')
	[ "$high" = "3 True" ] && [ "$all" -gt 3 ] || { echo "high: '$high' of $all"; return 1; }
	"$KS" report --db k.db --min-confidence medium >"$WORK/t.txt" || return 1
	expect_in "$WORK/t.txt" "8 findings: 3 errors, 5 warnings, 0 notes" || return 1
	expect_in "$WORK/t.txt" "note: confidence high: both sides run in threads" || return 1
	"$KS" report --db k.db --format sarif --min-confidence high -o "$WORK/s.sarif" || return 1
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["results"]
assert len(r) == 3 and all(x["rank"] == 90 and x["properties"]["confidence"] == "high" and x["properties"]["confidence_evidence"] for x in r), r' "$WORK/s.sarif" || return 1
	# the low findings alone do not fail --fail-on note once filtered out
	"$KS" report --db k.db --min-confidence high --fail-on warning >/dev/null; rc=$?
	[ $rc -eq 1 ] || { echo "--fail-on warning with 3 high findings: exit $rc"; return 1; }
	"$KS" report --db k.db --min-confidence sure >"$WORK/o.txt" 2>"$WORK/e.txt"; rc=$?
	[ $rc -eq 2 ] && one_line "$WORK/e.txt" && expect_in "$WORK/e.txt" "unknown level 'sure' for --min-confidence" &&
		[ ! -s "$WORK/o.txt" ] || { echo "bad level: exit $rc"; cat "$WORK/e.txt"; return 1; }
}

# A site with a lockset race and an ordering pairing, both high: the data is
# written holding a lock at two sites (a check-then-lock initialisation),
# and the unlocked check is the defect: its race comes first, the missing
# release with the counter inside.
lock_protected_first() {
	mkdir -p "$WORK/l/src" || return 1
	cat >"$WORK/l/src/init.c" <<'C'
#include <kcsan/lkmm.h>
#include <pthread.h>
int initialized, counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *worker(void *a) {
	if (!initialized) {
		pthread_mutex_lock(&m);
		initialized = 1;
		atomic_inc(&counter);
		pthread_mutex_unlock(&m);
	}
	return a;
}
int main(void) {
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], 0, worker, 0);
	while (atomic_read(&counter) < 1)
		;
	pthread_mutex_lock(&m);
	initialized = 0;
	atomic_set(&counter, 0);
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	return 0;
}
C
	json "$WORK/l" "$WORK/l.json" || return 1
	py "$WORK/l.json" '
f = [f for f in F if f["locations"][0]["line"] == 6]
assert len(f) == 1 and f[0]["kind"] == "data-race" and f[0]["confidence"] == "high", f
assert [c["kind"] for c in f[0]["counterparts"]] == ["missing-release"], f
' || return 1
}

check "one finding per site: two flags, one finding, the id names the site" one_finding_per_site
check "a lock-protected variable read without the lock: the race first" lock_protected_first
check "confidence: message passing between threads high, counters and unrelated data low" confidence_levels
check "--min-confidence: text, JSON, SARIF, --fail-on; a bad level is one line, exit 2" min_confidence
finish
