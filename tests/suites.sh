# tests/suites.sh — what the end-to-end runners share (sourced): run_suite
# NAME CMD... runs one suite, shows its output and adds its closing
# "N passed, M failed" line to the totals; finish_suites NAME prints them.
total_pass=0
total_fail=0

run_suite() {
	name=$1
	shift
	echo "=== $name"
	"$@" >build/suite.log 2>&1
	rc=$?
	cat build/suite.log
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' build/suite.log | tail -n 1)
	p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	[ -n "$p" ] || p=0
	[ -n "$f" ] || f=0
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1     # the suite failed without saying so
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

finish_suites() {
	echo "=== $1"
	echo "$total_pass passed, $total_fail failed"
	[ "$total_fail" -eq 0 ]
}
