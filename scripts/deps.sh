#!/bin/sh
# scripts/deps.sh — make sure the build and test dependencies are installed.
#
# Run by 'make deps' (and so by 'make demo' and 'make check').  As root it
# installs what is missing with apt-get; otherwise it prints the exact
# command to run and fails.  Keep this list in step with README.md.
set -eu

PACKAGES="clang-14 libclang-14-dev llvm-14-dev libsqlite3-dev sqlite3 libjansson-dev
libcriterion-dev libdw-dev pkg-config make gcc g++ python3 python3-jsonschema"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
	echo "deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
else
	echo "deps: missing packages:$missing" >&2
	echo "deps: install them with:  sudo apt-get install -y$missing" >&2
	exit 1
fi
