# bench/stats.awk — the statistics the runtime benchmarks print
# (runtime-bench.sh, runtime-real.sh): median, lowest and highest of a
# space-separated list of numbers.  Prepended to each script's own awk
# program.

function median(s,   a, k, i, j, t) {
	k = split(s, a, " ")
	for (i = 2; i <= k; i++)		# insertion sort: a few values
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return ((k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2)
}
function lowest(s,   a, k, i, m) {
	k = split(s, a, " "); m = a[1]
	for (i = 2; i <= k; i++) if (a[i] + 0 < m + 0) m = a[i]
	return m
}
function highest(s,   a, k, i, m) {
	k = split(s, a, " "); m = a[1]
	for (i = 2; i <= k; i++) if (a[i] + 0 > m + 0) m = a[i]
	return m
}
