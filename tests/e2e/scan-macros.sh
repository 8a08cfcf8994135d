#!/bin/sh
# tests/e2e/scan-macros.sh — macro arguments are found with libclang's
# tokens, in lists of any length, for names of any length (issue 10):
# a project macro of 14 parameters whose body uses a vocabulary macro with
# a 150-character name (and one of 2 parameters: only the name is long),
# a vocabulary macro of 15 arguments whose object is its last, and an
# argument list with commas and quotes inside a comment.
# Each buggy writer is reported; the correct twins are not.  (The front end
# used to keep 12 arguments and skip names of 128 characters or more.)
. tests/e2e/lib.sh

LONG=STORE_$(printf 'X%.0s' $(seq 1 150))

# The vocabulary of these files: two stores with the long name, a store
# of 15 arguments naming its object by the last one, and lvalue forms of
# an acquire load and of a relaxed and a release store.
write_profile() {
	cat >"$1" <<EOP
${LONG}_RELAXED   write   relaxed  lvalue=1
${LONG}_RELEASE   write   release  lvalue=1
MANY_STORE        write   relaxed  obj=14
MANY_STORE_REL    write   release  obj=14
LOAD_ACQ          read    acquire  lvalue=1
STORE_RLX         write   relaxed  lvalue=1
STORE_REL         write   release  lvalue=1
EOP
}

# FILE LONGSTORE MANY LOAD STORE: a writer and a reader per case;
# LONGSTORE is the long-named store, MANY the 15-argument one, LOAD the
# readers' load, STORE the store of the third writer.
write_case() {
	cat >"$1" <<EOC
#include <kcsan/lkmm.h>
int data1, flag1, data2, flag2, data3, flag3, data4, flag4;
void use(int);
#define ${LONG}_RELAXED(x, v) ((x) = (v))
#define ${LONG}_RELEASE(x, v) ((x) = (v))
#define MANY_STORE(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, v, p) (*(p) = (v))
#define MANY_STORE_REL(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, v, p) (*(p) = (v))
#define LOAD_ACQ(x) (x)
#define STORE_RLX(x, v) ((x) = (v))
#define STORE_REL(x, v) ((x) = (v))
/* The project's own wrapper: 14 parameters, the flag the last. */
#define PUBLISH14(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, f) \\
	$2(f, 1)
/* ... and one of 2: only the name is long. */
#define PUBLISH2(a, f) $2(f, a)

void w1(void) { data1 = 1; PUBLISH14(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, flag1); }
void r1(void) { if ($4(flag1)) use(data1); }

void w2(void) { data2 = 1; $3(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, &flag2); }
void r2(void) { if ($4(flag2)) use(data2); }

/* Only parentheses protect a comma; comments are no part of the list. */
void w3(void) { data3 = 1; $5(flag3 /* don't, "ever" */, (1, 1)); }
void r3(void) { if ($4(flag3)) use(data3); }

void w4(void) { data4 = 1; PUBLISH2(1, flag4); }
void r4(void) { if ($4(flag4)) use(data4); }
EOC
}

# DB -> "kind variable flag" of each finding, sorted
findings() {
	sqlite3 "$1" "SELECT kind, variable, flag FROM findings ORDER BY 2, 1"
}

buggy_reported() (
	cd "$WORK" || exit 1
	write_profile m.prof
	write_case buggy.c "${LONG}_RELAXED" MANY_STORE READ_ONCE STORE_RLX
	"$KS" scan -q --db b.db --profile m.prof buggy.c || exit 1
	findings b.db >got
	# a release missing in each writer, an acquire in each reader
	cat >want <<'W'
missing-acquire|data1|flag1
missing-release|data1|flag1
missing-acquire|data2|flag2
missing-release|data2|flag2
missing-acquire|data3|flag3
missing-release|data3|flag3
missing-acquire|data4|flag4
missing-release|data4|flag4
W
	diff want got
)

fixed_not_reported() (
	cd "$WORK" || exit 1
	write_profile m.prof
	write_case fixed.c "${LONG}_RELEASE" MANY_STORE_REL LOAD_ACQ STORE_REL
	"$KS" scan -q --db f.db --profile m.prof fixed.c || exit 1
	findings f.db >got
	[ ! -s got ] || { cat got; exit 1; }
)

check "14 macro parameters, 15 arguments, a 150-character name, a comment in a list: each reported" buggy_reported
check "the correct twins are not reported" fixed_not_reported
finish
