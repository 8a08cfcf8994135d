# bench/stats.awk — the statistics the runtime benchmarks print
# (runtime-bench.sh, runtime-real.sh): median, quantile, a confidence
# interval of the median, lowest and highest of a space-separated list of
# numbers.  Prepended to each
# script's own awk program.

# sorted(s, a): the list's numbers into a[1..k] in ascending order; k.
function sorted(s, a,   k, i, j, t) {
	k = split(s, a, " ")
	for (i = 2; i <= k; i++)		# insertion sort: a few hundred values at most
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return k
}
function median(s,   a, k) {
	k = sorted(s, a)
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
# quantile(s, q): the q-quantile (0 <= q <= 1) of the list, interpolated
# between the two nearest values (type 7, R's default: quantile(s, 0.5) is
# the median; 0.25 and 0.75 bound the interquartile range).
function quantile(s, q,   a, k, h, lo) {
	k = sorted(s, a)
	if (k == 0) return 0
	h = (k - 1) * q + 1; lo = int(h)
	if (lo >= k) return a[k] + 0
	return a[lo] + (h - lo) * (a[lo + 1] - a[lo])
}
# median_ci(s, side): a distribution-free 95 % confidence interval of the
# median (order statistics: ranks n/2 -+ 0.98 sqrt(n), the binomial's
# normal approximation), its lower bound for side < 0, upper for side > 0;
# for fewer than 6 values it is the whole range.
function median_ci(s, side,   a, k, r) {
	k = sorted(s, a)
	if (k == 0) return 0
	if (side < 0) {
		r = int(k / 2 - 0.98 * sqrt(k))
		if (r < 1) r = 1
	} else {
		r = k / 2 + 1 + 0.98 * sqrt(k)
		r = (r == int(r) ? r : int(r) + 1)
		if (r > k) r = k
	}
	return a[r] + 0
}
