#!/bin/sh
# tests/e2e/runtime-options.sh — the runtime's options are one table
# (runtime/options_table.h): every option of it is listed by
# `kcsan-scan run --help` with its default and named by the manual page
# with the same default, and the runtime parses every one of them: a good
# value shows in the verbose=1 line, a bad one gives exactly one line on
# stderr and is ignored.  The runtime's environment variables are listed
# by --help too.
. tests/e2e/lib.sh
cd "$WORK" || exit 1

TABLE=$TOP/runtime/options_table.h
# "NAME KIND DEFAULT" for every X(...) line of the table.
sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\), *\([A-Z]*\), *\([0-9]*\),.*/\1 \2 \3/p' "$TABLE" >table.txt
sed -n 's/^[[:space:]]*X(\(KCSAN_ENV_[A-Z_]*\),.*/\1/p' "$TABLE" >env-macros.txt

cat >quiet.c <<'C'
int x;
int main(void) { x = 1; return x - 1; }
C

table_is_read() {
	# The sed above must see the whole table, or every check below
	# would pass on nothing.
	[ "$(wc -l <table.txt)" -ge 16 ] && grep -q '^log_path LOG $' table.txt &&
		[ "$(grep -c '^[[:space:]]*X([a-z]' "$TABLE")" -eq "$(wc -l <table.txt)" ] &&
		grep -q '^db_wait LONG 600$' table.txt || { cat table.txt; return 1; }
}

help_lists_every_option() {
	"$KS" run --help >help.txt || return 1
	while read -r name kind def; do
		[ "$kind" = LOG ] && want="$name=FILE" || want="$name=$def"
		grep -q "^  $want " help.txt || { echo "--help lacks '$want'"; cat help.txt; return 1; }
	done <table.txt
	# Nothing listed that the table lacks.
	n=$(sed -n '/^runtime options/,/^$/p' help.txt | grep -c '^  [a-z0-9_]*=')
	[ "$n" -eq "$(wc -l <table.txt)" ] || { echo "--help lists $n options"; return 1; }
	for v in KCSAN_DB KCSAN_RUN_ID KCSAN_OPTIONS KCSAN_FOCUS_SITES; do
		grep -q "^  $v " help.txt || { echo "--help lacks $v"; return 1; }
	done
	[ "$(wc -l <env-macros.txt)" -eq 4 ]
}

man_names_every_option() {
	# The KCSAN_OPTIONS entry of ENVIRONMENT, as ".B name=default" or
	# ".BI name= FILE".
	sed -n '/^\.B KCSAN_OPTIONS$/,/^\.TP$/p' "$TOP/man/kcsan-scan.1" >man.txt
	[ -s man.txt ] || return 1
	while read -r name kind def; do
		if [ "$kind" = LOG ]; then
			grep -q "^\.BI $name= FILE$" man.txt
		else
			grep -q "^\.B $name=$def$" man.txt
		fi || { echo "the manual lacks $name (default '$def')"; return 1; }
	done <table.txt
	n=$(grep -c '^\.BI\{0,1\} [a-z0-9_]*=' man.txt)
	[ "$n" -eq "$(wc -l <table.txt)" ] || { echo "the manual names $n options"; return 1; }
}

build() {
	"$KS" cc -O1 -o quiet quiet.c 2>build.err || { cat build.err; return 1; }
}

# Every option set to a value other than its default: each shows in the
# verbose=1 line (the log file, since log_path is one of them).
good_values_are_taken() {
	build || return 1
	opts="verbose=1"
	while read -r name kind def; do
		case $name in
		verbose) ;;
		log_path) opts="$opts:log_path=$WORK/k.log" ;;
		*) opts="$opts:$name=$((def + 3))" ;;
		esac
	done <table.txt
	KCSAN_OPTIONS=$opts ./quiet 2>good.err || { cat good.err; return 1; }
	[ ! -s good.err ] || { cat good.err; return 1; }
	line=$(grep '^kcsan: options:' k.log) || { cat k.log; return 1; }
	while read -r name kind def; do
		case $name in
		verbose) want="verbose=1" ;;
		log_path) want="log_path=$WORK/k.log" ;;
		*) want="$name=$((def + 3))" ;;
		esac
		case " ${line#kcsan: options:} " in
		*" $want "*) ;;
		*) echo "verbose line lacks '$want': $line"; return 1 ;;
		esac
	done <table.txt
}

# A bad value for each option: exactly one line, naming it.
bad_values_one_line_each() {
	build || return 1
	while read -r name kind def; do
		if [ "$kind" = LOG ]; then
			KCSAN_OPTIONS="$name=$WORK/no/such/dir/k.log" ./quiet 2>bad.err
			want="kcsan: cannot open log_path '$WORK/no/such/dir/k.log': No such file or directory (using stderr)"
		else
			KCSAN_OPTIONS="$name=-1" ./quiet 2>bad.err
			want="kcsan: KCSAN_OPTIONS: bad value '-1' for $name (ignored)"
		fi
		[ "$(cat bad.err)" = "$want" ] || { echo "$name:"; cat bad.err; return 1; }
		if [ "$kind" != LOG ]; then
			KCSAN_OPTIONS="$name=12x" ./quiet 2>bad.err
			[ "$(cat bad.err)" = "kcsan: KCSAN_OPTIONS: bad value '12x' for $name (ignored)" ] ||
				{ echo "$name:"; cat bad.err; return 1; }
		fi
	done <table.txt
	KCSAN_OPTIONS="no_such_option=1" ./quiet 2>bad.err
	[ "$(cat bad.err)" = "kcsan: KCSAN_OPTIONS: unknown option 'no_such_option' (ignored)" ] ||
		{ cat bad.err; return 1; }
}

# An int option beyond an int is refused, not wrapped around.
int_overflow_refused() {
	build || return 1
	KCSAN_OPTIONS="verbose=1:enabled=4294967296" ./quiet 2>big.err
	grep -q "^kcsan: KCSAN_OPTIONS: bad value '4294967296' for enabled (ignored)$" big.err &&
		grep -q ' enabled=1 ' big.err || { cat big.err; return 1; }
}

check "the table is read by this test" table_is_read
check "run --help lists every option with its default, and the environment" help_lists_every_option
check "the manual names every option with the table's default" man_names_every_option
check "a good value of every option is taken (verbose=1 shows it)" good_values_are_taken
check "a bad value of every option: one line, ignored" bad_values_one_line_each
check "an int option beyond an int: one line, default kept" int_overflow_refused
finish
