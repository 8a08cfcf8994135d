#!/bin/sh
# bench/histfix/run.sh — issue 12's acceptance benchmark: real historical
# fixes of missing memory ordering / racy plain accesses in C.
#
# For every case of bench/histfix/cases.tsv (a fix commit of a public
# repository and its parent) it extracts the listed C files, and the
# include directories named in the case's cflags, at the PARENT and at the
# FIX commit into two scratch trees, scans each tree with
#
#     build/kcsan-scan scan -j 1 -q --db X.db FILES -- CFLAGS
#     build/kcsan-scan report --db X.db --format json
#
# and decides:
#
#   parent hit   a finding of the parent scan has a location (its
#                `locations`, or those of its `counterparts`) in one of the
#                case's files on a line inside the case's fixed_lines, and
#                its `variable` or its `flag` contains the last field name
#                of the case's object (`prev->next` -> `next`,
#                `lcore_config[].state` -> `state`, `*lock` -> `lock`); an
#                object may list alternatives separated by `|`.
#   fix clean    no finding of the fix scan does the same, on the fixed
#                lines carried over to the fix version (diff -U0 of the two
#                extracted files: a line inside a changed hunk maps to the
#                hunk's new lines, any other line shifts by the hunk sizes
#                above it).
#   counted      parent hit AND fix clean.
#
# A file that does not parse (kcsan-scan skips such a file), a repository
# or commit that cannot be had, a scan that fails or times out: the case is
# a miss and the reason is printed; the run goes on with the next case.
# It prints a table and "N of M (P %)", and writes the same table to
# $WORK/results.tsv.  It is a benchmark, not a test: it exits 0 whatever
# the figure (1 only when it cannot set up at all).
#
# Where the repositories come from:
#   HISTFIX_MIRRORS=DIR  bare mirrors already on disk, looked up as
#                        DIR/OWNER+NAME/repo, DIR/OWNER+NAME.git,
#                        DIR/OWNER+NAME or DIR/OWNER/NAME.git (the layout of
#                        /work/.mirror); nothing is written into them.
#   otherwise            `git clone --bare --filter=blob:none
#                        https://github.com/OWNER/NAME` into the cache
#                        directory (first argument, or HISTFIX_CACHE,
#                        default build/histfix/repos); only the blobs of
#                        the extracted paths are fetched.
# Fetched code only ever lands in build/ (or HISTFIX_WORK); never in the
# repository's tracked files.
#
# Usage:  sh bench/histfix/run.sh [CACHE_DIR]
# Environment:
#   HISTFIX_MIRRORS   see above
#   HISTFIX_CACHE     clone cache (default build/histfix/repos)
#   HISTFIX_WORK      scratch trees, databases, logs (default build/histfix/work)
#   HISTFIX_ONLY      space-separated case ids to run (default: all)
#   HISTFIX_PARSE_ONLY=1  only extract and scan, print whether each file
#                     parses (used to set up a case's cflags without
#                     looking at its findings)
#   HISTFIX_TIMEOUT   seconds per scan (default 600)
#   KCSAN_SCAN        the program (default build/kcsan-scan)
# Needs: git, tar, jq, awk, diff; timeout(1) if present.
set -u

cd "$(dirname "$0")/../.." || exit 1
TOP=$(pwd)
KS=${KCSAN_SCAN:-$TOP/build/kcsan-scan}
CASES=$TOP/bench/histfix/cases.tsv
CACHE=${1:-${HISTFIX_CACHE:-$TOP/build/histfix/repos}}
WORK=${HISTFIX_WORK:-$TOP/build/histfix/work}
MIRRORS=${HISTFIX_MIRRORS:-}
ONLY=${HISTFIX_ONLY:-}
PARSE_ONLY=${HISTFIX_PARSE_ONLY:-0}
TMO=${HISTFIX_TIMEOUT:-600}
TAB=$(printf '\t')

die() { printf 'histfix: %s\n' "$*" >&2; exit 1; }
[ -x "$KS" ] || die "no $KS (run make first)"
[ -r "$CASES" ] || die "no $CASES"
for t in git tar jq awk diff; do
	command -v "$t" >/dev/null 2>&1 || die "needs $t"
done
if command -v timeout >/dev/null 2>&1; then TIMEOUT="timeout $TMO"; else TIMEOUT=; fi
mkdir -p "$WORK" "$CACHE" || die "cannot create $WORK or $CACHE"

# ---------------------------------------------------------------------------
# Repositories

# gitdir OWNER/NAME: prints the git directory holding the repository, cloning
# it into $CACHE when there is no mirror; returns 1 when none can be had.
gitdir() {
	_r=$1 _flat=$(printf '%s' "$1" | tr / +)
	if [ -n "$MIRRORS" ]; then
		for _d in "$MIRRORS/$_flat/repo" "$MIRRORS/$_flat.git" "$MIRRORS/$_flat" "$MIRRORS/$_r.git"; do
			if [ -d "$_d" ] && git --git-dir="$_d" rev-parse --git-dir >/dev/null 2>&1; then
				printf '%s\n' "$_d"
				return 0
			fi
		done
		return 1
	fi
	_d=$CACHE/$_flat.git
	if [ ! -d "$_d" ]; then
		git clone -q --bare --filter=blob:none "https://github.com/$_r" "$_d" >&2 || { rm -rf "$_d"; return 1; }
	fi
	printf '%s\n' "$_d"
}

# is_clone GITDIR: true for a partial clone of ours (not a mirror).
is_clone() { [ -z "$MIRRORS" ]; }

# have_commit GITDIR SHA (fetching once into a clone that lacks it).
have_commit() {
	git --git-dir="$1" cat-file -e "$2^{commit}" 2>/dev/null && return 0
	is_clone || return 1
	git --git-dir="$1" fetch -q --filter=blob:none origin >&2 2>/dev/null
	git --git-dir="$1" cat-file -e "$2^{commit}" 2>/dev/null
}

# extract GITDIR SHA DEST PATH...: the paths (files or directories) at SHA
# into DEST.  In a partial clone the blobs are fetched in one batch first
# (git archive would otherwise fetch them one by one).
extract() {
	_g=$1 _sha=$2 _dest=$3
	shift 3
	mkdir -p "$_dest"
	# Only the paths that exist at this commit (git archive refuses the
	# whole list for one that does not; an include directory may be newer
	# or older than the commit).
	_keep=
	for _p in "$@"; do
		git --git-dir="$_g" cat-file -e "$_sha:$_p" 2>/dev/null && _keep="$_keep $_p"
	done
	[ -n "$_keep" ] || return 0
	# shellcheck disable=SC2086
	set -- $_keep
	if is_clone; then
		# shellcheck disable=SC2046
		git --git-dir="$_g" fetch -q --no-tags --no-write-fetch-head --filter=blob:none origin \
			$(git --git-dir="$_g" ls-tree -r "$_sha" -- "$@" | awk '$2 == "blob" { print $3 }') \
			>/dev/null 2>&1 || true
	fi
	# A mirror may lack its largest blobs: git archive then complains about
	# files we did not ask for and still exits 0.  The caller checks that
	# the files it needs are there.
	git --git-dir="$_g" archive "$_sha" -- "$@" 2>>"$_dest.archive.log" | tar -x -C "$_dest"
}

# ---------------------------------------------------------------------------
# Matching

# lastname OBJECT: the last field name of one spelling of the object.
lastname() {
	printf '%s\n' "$1" | sed -e 's/\[[^]]*\]//g' -e 's/.*->//' -e 's/.*\.//' -e 's/^[*&(]*//' -e 's/[)]*$//'
}

# names OBJECT: the last field names of all its alternatives, one a line.
names() {
	printf '%s\n' "$1" | tr '|' '\n' | while IFS= read -r _o; do
		[ -n "$_o" ] && lastname "$_o"
	done
}

# sites JSON TREE: one line per location of every finding:
#   file (relative to TREE) TAB line TAB variable TAB flag TAB kind
sites() {
	jq -r --arg t "$2/" '
		.findings[] as $f
		| ([$f.locations[]] + [$f.counterparts[]?.locations[]?])[]
		| [(.file | if startswith($t) then .[($t | length):] else . end),
		   (.line | tostring), ($f.variable // ""), ($f.flag // ""), $f.kind]
		| @tsv' "$1"
}

# ranges_of FIXED_LINES FILE: the ranges of FILE, "lo-hi" one a line.
ranges_of() {
	printf '%s\n' "$1" | tr ',' '\n' | awk -F: -v f="$2" '$1 == f { n = split($2, r, ";"); for (i = 1; i <= n; i++) print r[i] }'
}

# map_ranges OLD NEW: reads "lo-hi" ranges of OLD on stdin, prints them
# carried over to NEW through diff -U0.
map_ranges() {
	cat >"$1.ranges-in"
	diff -U0 "$1" "$2" >"$1.diff"
	awk '
		/^@@/ {
			split(substr($2, 2), o, ","); split(substr($3, 2), n, ",")
			h++; os[h] = o[1] + 0; oc[h] = (o[2] == "" ? 1 : o[2] + 0)
			ns[h] = n[1] + 0; nc[h] = (n[2] == "" ? 1 : n[2] + 0)
			next
		}
		function map(l, want_hi,   i, d) {
			d = 0
			for (i = 1; i <= h; i++) {
				if (oc[i] > 0 && l >= os[i] && l < os[i] + oc[i])
					return want_hi ? ns[i] + (nc[i] > 0 ? nc[i] - 1 : 1) : ns[i]
				if (oc[i] == 0 && l > os[i]) d += nc[i]
				else if (oc[i] > 0 && l >= os[i] + oc[i]) d += nc[i] - oc[i]
			}
			return l + d
		}
		/^[0-9]+-[0-9]+$/ { split($0, r, "-"); print map(r[1] + 0, 0) "-" map(r[2] + 0, 1) }
	' "$1.diff" "$1.ranges-in"
}

# hits SITES FILES RANGES_FOR(version) NAMES: prints the matching sites.
#   $1 sites file, $2 file of "path TAB lo TAB hi", $3 file of names.
hits() {
	awk -F'\t' -v R="$2" -v N="$3" '
		BEGIN {
			while ((getline l < R) > 0) { split(l, a, "\t"); nr++; rp[nr] = a[1]; rl[nr] = a[2]; rh[nr] = a[3] }
			while ((getline l < N) > 0) if (l != "") nn[++nm] = l
		}
		{
			ok = 0
			for (i = 1; i <= nr; i++)
				if ($1 == rp[i] && $2 + 0 >= rl[i] && $2 + 0 <= rh[i]) { ok = 1; break }
			if (!ok) next
			for (j = 1; j <= nm; j++)
				if (index($3, nn[j]) || index($4, nn[j])) { print; next }
		}' "$1"
}

# ---------------------------------------------------------------------------
# One version of one case

# scan_version DIR DB FILES(csv) CFLAGS: scans; prints "ok" or the reason.
scan_version() {
	_dir=$1 _db=$2 _files=$3 _cflags=$4
	for _f in $(printf '%s' "$_files" | tr ',' ' '); do
		[ -f "$_dir/$_f" ] || { printf 'missing %s\n' "$_f"; return; }
	done
	rm -f "$_db"
	# The cflags are split on blanks on purpose (no flag of ours holds one).
	# shellcheck disable=SC2086
	(cd "$_dir" && $TIMEOUT "$KS" scan -j 1 -q --db "$_db" $(printf '%s' "$_files" | tr ',' ' ') \
		-- $_cflags -idirafter "$_dir/.histfix-stubs") >"$_db.out" 2>"$_db.err"
	_rc=$?
	if grep -q 'does not parse' "$_db.err"; then
		printf 'does not parse: %s\n' "$(grep -m1 -E ': (fatal )?error:' "$_db.err" | sed "s|$_dir/||g")"
		return
	fi
	if grep -q 'skipped' "$_db.err"; then
		printf 'skipped: %s\n' "$(grep -m1 skipped "$_db.err" | sed "s|$_dir/||g")"
		return
	fi
	if [ "$_rc" = 124 ]; then printf 'scan timed out (%ss)\n' "$TMO"; return; fi
	[ -s "$_db" ] || { printf 'scan failed (exit %s): %s\n' "$_rc" "$(head -c 200 "$_db.err")"; return; }
	printf 'ok\n'
}

# ---------------------------------------------------------------------------
# The cases

RES=$WORK/results.tsv
printf 'case\tparent_hit\tfix_clean\tcounted\tnote\n' >"$RES"
total=0 counted=0

# The TSV is read on fd 3 so that nothing inside the loop eats it.
exec 3<"$CASES"
read -r _header <&3
while IFS="$TAB" read -r id repo fix parent files fixed object shape summary url cflags stubs <&3; do
	[ -n "$id" ] || continue
	if [ -n "$ONLY" ]; then
		case " $ONLY " in *" $id "*) ;; *) continue ;; esac
	fi
	total=$((total + 1))
	[ "$cflags" = "-" ] && cflags=
	[ "$stubs" = "-" ] && stubs=
	note= phit=no fclean=- cnt=no
	cw=$WORK/$id
	rm -rf "$cw"
	mkdir -p "$cw"

	g=$(gitdir "$repo") || g=
	if [ -z "$g" ]; then
		note="repository $repo not available"
	elif ! have_commit "$g" "$parent" || ! have_commit "$g" "$fix"; then
		note="commit not available in $g"
	fi

	if [ -z "$note" ]; then
		# Paths to extract: the files, and every repo-relative -I / -include /
		# -isystem / -iquote argument of the cflags.
		# The files the fixed lines are in (usually the scanned files; a
		# header that cannot stand alone is reached through a file that
		# includes it).
		ffiles=$(printf '%s\n' "$fixed" | tr ',' '\n' | sed 's/:.*//' | sort -u)
		paths="$(printf '%s' "$files" | tr ',' ' ') $ffiles"
		inc=$(printf '%s\n' $cflags | sed -n -e 's/^-I\([^/].*\)/\1/p' -e 's/^-isystem\([^/].*\)/\1/p' -e 's/^-iquote\([^/].*\)/\1/p')
		prev=
		for a in $cflags; do
			case $prev in -include | -imacros) case $a in /*) ;; *) inc="$inc $a" ;; esac ;; esac
			prev=$a
		done
		for v in parent fix; do
			if [ $v = parent ]; then sha=$parent; else sha=$fix; fi
			# shellcheck disable=SC2086
			extract "$g" "$sha" "$cw/$v" $paths $inc
			mkdir -p "$cw/$v/.histfix-stubs"
			for s in $(printf '%s' "$stubs" | tr ',' ' '); do
				mkdir -p "$(dirname "$cw/$v/.histfix-stubs/$s")"
				: >"$cw/$v/.histfix-stubs/$s"
			done
			st=$(scan_version "$cw/$v" "$cw/$v.db" "$files" "$cflags")
			eval "st_$v=\$st"
		done
		if [ "$PARSE_ONLY" = 1 ]; then
			printf '%-30s parent: %s\n%-30s fix:    %s\n' "$id" "$st_parent" "" "$st_fix"
			continue
		fi
		if [ "$st_parent" != ok ]; then
			note="parent: $st_parent"
		else
			names "$object" >"$cw/names"
			: >"$cw/ranges.parent"
			: >"$cw/ranges.fix"
			for f in $ffiles; do
				ranges_of "$fixed" "$f" | awk -F- -v f="$f" '{ print f "\t" $1 "\t" $2 }' >>"$cw/ranges.parent"
				ranges_of "$fixed" "$f" | map_ranges "$cw/parent/$f" "$cw/fix/$f" |
					awk -F- -v f="$f" '{ print f "\t" $1 "\t" $2 }' >>"$cw/ranges.fix"
			done
			if "$KS" report --db "$cw/parent.db" --format json >"$cw/parent.json" 2>"$cw/parent.report.err"; then
				sites "$cw/parent.json" "$cw/parent" >"$cw/parent.sites"
				hits "$cw/parent.sites" "$cw/ranges.parent" "$cw/names" >"$cw/parent.hits"
				[ -s "$cw/parent.hits" ] && phit=yes
				note="parent: $(jq '.findings | length' "$cw/parent.json") findings, $(wc -l <"$cw/parent.hits" | tr -d ' ') sites on the fixed lines naming the object"
			else
				phit=ERR note="parent: report failed"
			fi
			if [ "$st_fix" != ok ]; then
				fclean=ERR note="$note; fix: $st_fix"
			elif "$KS" report --db "$cw/fix.db" --format json >"$cw/fix.json" 2>"$cw/fix.report.err"; then
				sites "$cw/fix.json" "$cw/fix" >"$cw/fix.sites"
				hits "$cw/fix.sites" "$cw/ranges.fix" "$cw/names" >"$cw/fix.hits"
				if [ -s "$cw/fix.hits" ]; then fclean=no; else fclean=yes; fi
				note="$note; fix: $(jq '.findings | length' "$cw/fix.json") findings"
			else
				fclean=ERR note="$note; fix: report failed"
			fi
		fi
	fi
	[ "$phit" = yes ] && [ "$fclean" = yes ] && cnt=yes && counted=$((counted + 1))
	printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$phit" "$fclean" "$cnt" "$note" >>"$RES"
done
exec 3<&-

[ "$PARSE_ONLY" = 1 ] && exit 0

# The table.
printf '%-28s %-11s %-10s %-8s %s\n' case "parent hit" "fix clean" counted note
tail -n +2 "$RES" | while IFS="$TAB" read -r id phit fclean cnt note; do
	printf '%-28s %-11s %-10s %-8s %s\n' "$id" "$phit" "$fclean" "$cnt" "$note"
done
if [ "$total" -gt 0 ]; then
	pct=$(awk -v n="$counted" -v m="$total" 'BEGIN { printf "%.0f", 100 * n / m }')
else
	pct=0
fi
printf '\n%s of %s (%s %%)\n' "$counted" "$total" "$pct"
exit 0
