#!/bin/sh
# tests/header/run.sh — the tests of include/kcsan/lkmm.h, with every
# compiler given (default: gcc clang).  Prints one line per check and
# "N passed, M failed" last; exits 1 if anything failed.  POSIX sh.
#
#   compile_all      every primitive, -Wall -Wextra -Werror, run: value
#                    semantics (-O0, -O2; and with -DKCSAN_INSTRUMENTED=1 and
#                    no runtime linked: the weak hooks are absent)
#   strict           -std=c11 -Wpedantic and strict warnings: nothing from
#                    the header
#   mp_thread        two-thread message passing, locks, store buffering
#   clash            <stdatomic.h> with kcsan/lkmm.h, both orders: exactly one
#                    error, the header's message
#   abi-only         the runtime's view (KCSAN_LKMM_ABI_ONLY): strong hooks
#   markers          what each primitive tells the runtime (barrier markers,
#                    hooks, access order) under -fsanitize=thread, linked
#                    against a stub runtime instead of libtsan; also hooks
#                    only, without TSan
#   compile_all/tsan the value semantics under -fsanitize=thread
#   cross (clang)    compiles for arm64, POWER, RISC-V, ARMv7, i686; arm64
#                    fully ordered RMW has a full fence on each side
#
# Usage: tests/header/run.sh [COMPILER...]
# Environment: MP_ROUNDS (default 20000) for mp_thread.

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
compilers=${*:-gcc clang}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kcsan-header.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

inc="-I$root/include"
warn="-std=gnu11 -Wall -Wextra -Werror"
strict="-std=c11 -Wall -Wextra -Wpedantic -Werror -Wshadow -Wconversion
	-Wsign-conversion -Wcast-qual -Wundef -Wstrict-prototypes
	-Wmissing-prototypes -Wredundant-decls -Wdeclaration-after-statement"
message='kcsan/lkmm.h: cannot be combined with <stdatomic.h> in one translation unit'
log=$tmp/log

pass=0
fail=0
ok() {
	echo "ok   $1"
	pass=$((pass + 1))
}
bad() {
	echo "FAIL $1"
	[ -s "$log" ] && sed 's/^/    /' "$log" | head -n 40
	fail=$((fail + 1))
}
skip() {
	echo "skip $1"
}

# run NAME BINARY [ARGS]: runs it (timeout 120 s); passes if it exits 0 and
# its last line is "N passed, 0 failed".
run() {
	name=$1
	shift
	timeout 120 "$@" >"$log" 2>&1
	rc=$?
	last=$(tail -n 1 "$log")
	if [ "$rc" -eq 0 ] && echo "$last" | grep -Eq '^[0-9]+ passed, 0 failed$'; then
		ok "$name: $last"
	elif [ "$rc" -eq 124 ]; then
		bad "$name: timed out"
	else
		bad "$name: exit status $rc"
	fi
}

# build NAME COMMAND...: runs a compile/link command; on failure records it.
build() {
	name=$1
	shift
	if "$@" >"$log" 2>&1; then
		return 0
	fi
	bad "$name: build failed: $*"
	return 1
}

for cc in $compilers; do
	if ! command -v "$cc" >/dev/null 2>&1; then
		: >"$log"
		bad "$cc: compiler not found"
		continue
	fi
	if "$cc" -dM -E - </dev/null 2>/dev/null | grep -q __clang__; then
		is_clang=1
		distinguish_volatile="-mllvm -tsan-distinguish-volatile=1"
	else
		is_clang=0
		distinguish_volatile="--param=tsan-distinguish-volatile=1"
	fi
	o=$tmp/$(basename "$cc")
	mkdir -p "$o"

	# --- compile_all: every primitive, value semantics ---
	for opt in -O0 -O2; do
		# shellcheck disable=SC2086
		build "compile_all ($cc $opt)" "$cc" $warn $opt "$inc" \
			"$here/compile_all.c" -o "$o/compile_all$opt" &&
			run "compile_all ($cc $opt)" "$o/compile_all$opt"
	done
	# shellcheck disable=SC2086
	build "compile_all, hooks on, no runtime ($cc)" "$cc" $warn -O2 \
		-DKCSAN_INSTRUMENTED=1 "$inc" "$here/compile_all.c" -o "$o/compile_all-hooks" &&
		run "compile_all, hooks on, no runtime ($cc)" "$o/compile_all-hooks"

	# --- strict ISO C and strict warnings ---
	# shellcheck disable=SC2086
	build "strict ($cc)" "$cc" $strict "$inc" -c "$here/strict.c" -o "$o/strict.o" &&
		ok "strict ($cc): -std=c11 -Wpedantic -Wconversion -Wshadow ... clean"
	# shellcheck disable=SC2086
	build "strict, -fsanitize=thread ($cc)" "$cc" $strict -O2 -fsanitize=thread "$inc" \
		-c "$here/strict.c" -o "$o/strict-tsan.o" &&
		ok "strict, -fsanitize=thread ($cc): clean"

	# --- two threads ---
	# shellcheck disable=SC2086
	build "mp_thread ($cc)" "$cc" $warn -O2 -pthread "$inc" "$here/mp_thread.c" \
		-o "$o/mp_thread" &&
		run "mp_thread ($cc)" "$o/mp_thread" "${MP_ROUNDS:-20000}"

	# --- <stdatomic.h> clash, both orders ---
	for order in stdatomic-first lkmm-first; do
		def=
		[ "$order" = lkmm-first ] && def=-DLKMM_FIRST
		name="clash, $order ($cc)"
		# no -Werror: the header itself must make this an error
		# shellcheck disable=SC2086
		if "$cc" -std=gnu11 -Wall -Wextra $def "$inc" -c "$here/clash_stdatomic.c" \
			-o "$o/clash.o" >"$log" 2>&1; then
			bad "$name: compiled, but must not"
			continue
		fi
		errors=$(grep -Ec ':[0-9]+:([0-9]+:)? (fatal )?error:' "$log")
		first=$(grep -E ':[0-9]+:([0-9]+:)? (fatal )?error:' "$log" | head -n 1)
		if [ "$errors" -eq 1 ] && echo "$first" | grep -qF "$message"; then
			ok "$name: one error, the header's message"
		else
			bad "$name: expected exactly one error saying '$message', got $errors"
		fi
	done

	# --- the runtime's view of the header ---
	# shellcheck disable=SC2086
	if build "abi-only stub runtime ($cc)" "$cc" $warn -O2 "$inc" -c \
		"$here/stub_runtime.c" -o "$o/stub.o"; then
		nm "$o/stub.o" >"$log" 2>&1
		if grep -q ' T __kcsan_assert_exclusive$' "$log" &&
		   grep -q ' T __kcsan_disable_current$' "$log" &&
		   grep -q ' T __kcsan_enable_current$' "$log"; then
			ok "abi-only ($cc): KCSAN_LKMM_ABI_ONLY gives strong hook definitions"
		else
			bad "abi-only ($cc): hooks are not strong (T) symbols"
		fi
	else
		continue	# every test below links the stub
	fi

	# --- markers: hooks only, no TSan ---
	# shellcheck disable=SC2086
	build "markers, hooks only ($cc)" "$cc" $warn -O2 -DKCSAN_INSTRUMENTED=1 "$inc" \
		"$here/markers.c" "$o/stub.o" -o "$o/markers-hooks" &&
		run "markers, hooks only ($cc)" "$o/markers-hooks"

	# --- markers under -fsanitize=thread, against the stub runtime ---
	for opt in -O0 -O2; do
		for dv in no yes; do
			extra=
			label="$cc $opt"
			if [ "$dv" = yes ]; then
				extra="$distinguish_volatile -DDISTINGUISH_VOLATILE"
				label="$label, tsan-distinguish-volatile"
			fi
			# shellcheck disable=SC2086
			build "markers, -fsanitize=thread ($label)" "$cc" $warn $opt \
				-fsanitize=thread $extra "$inc" -c "$here/markers.c" \
				-o "$o/markers.o" &&
			build "markers, link with stub runtime ($label)" "$cc" \
				"$o/markers.o" "$o/stub.o" -o "$o/markers" &&
			run "markers, -fsanitize=thread ($label)" "$o/markers"
		done
	done

	# --- value semantics under -fsanitize=thread ---
	# shellcheck disable=SC2086
	build "compile_all, -fsanitize=thread ($cc)" "$cc" $warn -O1 -fsanitize=thread \
		"$inc" -c "$here/compile_all.c" -o "$o/compile_all-tsan.o" &&
	build "compile_all, link with stub runtime ($cc)" "$cc" \
		"$o/compile_all-tsan.o" "$o/stub.o" -o "$o/compile_all-tsan" &&
	run "compile_all, -fsanitize=thread ($cc)" "$o/compile_all-tsan"

	# --- other targets (clang can cross-compile a header-only TU) ---
	if [ "$is_clang" -eq 1 ]; then
		for target in aarch64-linux-gnu powerpc64le-linux-gnu riscv64-linux-gnu \
			      armv7a-linux-gnueabihf i686-linux-gnu; do
			name="cross $target ($cc)"
			if ! "$cc" --target="$target" -x c -c /dev/null -o "$o/probe.o" >/dev/null 2>&1; then
				skip "$name: target not supported by $cc"
				continue
			fi
			# shellcheck disable=SC2086
			build "$name" "$cc" --target="$target" $strict -O2 "$inc" -c \
				"$here/strict.c" -o "$o/strict-$target.o" &&
				ok "$name: strict.c compiles"
		done
		objdump=
		for d in llvm-objdump llvm-objdump-14 "$(dirname "$(command -v "$cc")")/llvm-objdump"; do
			if command -v "$d" >/dev/null 2>&1; then
				objdump=$d
				break
			fi
		done
		printf '%s\n' '#include <kcsan/lkmm.h>' 'atomic_t v;' 'int x, y;' \
			'int full_rmw(void) { x = 1; int r = atomic_fetch_add(1, &v); return r + y; }' \
			>"$tmp/full.c"
		name="cross aarch64: atomic_fetch_add() between two full fences ($cc)"
		if [ -z "$objdump" ]; then
			skip "$name: no llvm-objdump"
		elif "$cc" --target=aarch64-linux-gnu -std=gnu11 -O2 "$inc" -c "$tmp/full.c" \
			-o "$o/full.o" >"$log" 2>&1 &&
		     "$objdump" -d "$o/full.o" >"$log" 2>&1; then
			# dmb ish, then the exclusive load/store (or an LSE ldadd*), then dmb ish
			seq=$(grep -Eo 'dmb[[:space:]]+ish$|ld[a]?xr|ldadd[a-z]*|st[l]?xr' "$log" |
				sed 's/[[:space:]]\{1,\}/ /g' | tr '\n' ',')
			if echo "$seq" | grep -Eq '^dmb ish,(ld[a]?xr,st[l]?xr|ldadd[a-z]*),dmb ish,$'; then
				ok "$name"
			else
				bad "$name: instruction sequence was $seq"
			fi
		else
			bad "$name: build or disassembly failed"
		fi
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
