#!/bin/sh
# bench/ovs-generate.sh SRC CONFIG_H — make the generated sources an Open
# vSwitch build would have, in the extracted tree SRC, with OVS's own
# scripts, and a config.h at CONFIG_H.
#
# Used by scan-bench.sh: without them a third of OVS's lib/ does not parse,
# and the benchmark would measure a tree no real build sees.  Each one is
# made the way OVS's automake rules make it (include/automake.mk,
# lib/automake.mk, ovsdb/automake.mk, vtep/automake.mk, tests/automake.mk):
#
#   include/odp-netlink.h          sed -f build-aux/extract-odp-netlink-h
#   include/odp-netlink-macros.h   sh build-aux/extract-odp-netlink-macros-h
#   lib/dirs.c                     sed over lib/dirs.c.in (installed paths)
#   with python3 (OVS's scripts, PYTHONPATH=python, as run_python does):
#   lib/ofp-errors.inc, lib/ofp-msgs.inc        extract-ofp-errors, -msgs
#   lib/meta-flow.inc, lib/nx-match.inc         extract-ofp-fields
#   lib/ofp-actions.inc1, lib/ofp-actions.inc2  extract-ofp-actions
#   lib/vswitch-idl.[ch], lib/ovsdb-server-idl.[ch], vtep/vtep-idl.[ch],
#   tests/idltest.[ch]                          ovsdb/ovsdb-idlc.in
#
# config.h holds only what parsing needs: HAVE_NLA_BITFIELD32 when the
# system's <linux/netlink.h> has struct nla_bitfield32, found by compiling
# configure's own test (acinclude.m4, OVS_CHECK_LINUX_NETLINK) with $CLANG
# (clang-14); without it OVS's include/linux/netlink.h defines the struct a
# second time and every file that includes odp-netlink.h fails.  The rest of
# configure's output is not needed to parse (scan-bench.sh passes VERSION
# and the like with -D).  Not made: what needs another platform or library
# (datapath-windows' headers, DPDK).
# Prints one line per group; exits 1 if the two odp-netlink headers (which
# need only sed and sh) cannot be made.  A missing python3 leaves the
# python-made files out (their .c files then do not parse and are not
# selected), with a warning.
set -u
SRC=$1
CONFIG_H=$2
CLANG=${CLANG:-clang-14}
cd "$SRC" || exit 1

printf '#include <linux/netlink.h>\nint main(void) { struct nla_bitfield32 x = { 0 }; (void)x; return 0; }\n' |
	"$CLANG" -fsyntax-only -x c - 2> /dev/null && have_bf32=1 || have_bf32=
{
	echo "/* Made by kcsan-scan's bench/ovs-generate.sh, not by configure. */"
	[ -n "$have_bf32" ] && echo "#define HAVE_NLA_BITFIELD32 1"
} > "$CONFIG_H" || exit 1
echo "ovs-generate: $CONFIG_H${have_bf32:+ (HAVE_NLA_BITFIELD32)}"

# gen OUT CMD...: runs CMD into OUT.tmp, then renames (as OVS's rules do),
# so that a failed run leaves no half file.
gen() {
	out=$1; shift
	if "$@" > "$out.tmp" 2> "$out.err"; then
		mv "$out.tmp" "$out" && rm -f "$out.err"
	else
		printf 'ovs-generate: cannot make %s:\n' "$out" >&2
		cat "$out.err" >&2
		rm -f "$out.tmp" "$out.err"
		return 1
	fi
}

gen include/odp-netlink.h sed -f build-aux/extract-odp-netlink-h include/linux/openvswitch.h || exit 1
gen include/odp-netlink-macros.h sh -f build-aux/extract-odp-netlink-macros-h include/odp-netlink.h || exit 1
# The paths of an installed OVS (what --prefix=/usr --localstatedir=/var
# --sysconfdir=/etc give); only their being strings matters to a parser.
gen lib/dirs.c sed -e 's,[@]srcdir[@],.,g' \
	-e 's,[@]LOGDIR[@],"/var/log/openvswitch",g' \
	-e 's,[@]RUNDIR[@],"/var/run/openvswitch",g' \
	-e 's,[@]DBDIR[@],"/etc/openvswitch",g' \
	-e 's,[@]bindir[@],"/usr/bin",g' \
	-e 's,[@]sysconfdir[@],"/etc",g' \
	-e 's,[@]pkgdatadir[@],"/usr/share/openvswitch",g' lib/dirs.c.in || exit 1
echo "ovs-generate: include/odp-netlink.h include/odp-netlink-macros.h lib/dirs.c"

if ! command -v python3 > /dev/null 2>&1; then
	echo "ovs-generate: warning: no python3: the ofp-*.inc and OVSDB IDL files are not made" >&2
	exit 0
fi
PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH
ok=0
gen lib/ofp-errors.inc python3 build-aux/extract-ofp-errors \
	include/openvswitch/ofp-errors.h include/openflow/openflow-common.h || ok=1
gen lib/ofp-msgs.inc python3 build-aux/extract-ofp-msgs include/openvswitch/ofp-msgs.h lib/ofp-msgs.inc || ok=1
gen lib/meta-flow.inc python3 build-aux/extract-ofp-fields meta-flow include/openvswitch/meta-flow.h || ok=1
gen lib/nx-match.inc python3 build-aux/extract-ofp-fields nx-match include/openvswitch/meta-flow.h || ok=1
gen lib/ofp-actions.inc1 python3 build-aux/extract-ofp-actions prototypes lib/ofp-actions.c || ok=1
gen lib/ofp-actions.inc2 python3 build-aux/extract-ofp-actions definitions lib/ofp-actions.c || ok=1
echo "ovs-generate: lib/ofp-errors.inc lib/ofp-msgs.inc lib/meta-flow.inc lib/nx-match.inc lib/ofp-actions.inc1 lib/ofp-actions.inc2"

# idl BASE SCHEMA...: BASE.ovsidl from the schema and BASE.ann, then
# BASE.h and BASE.c.
idl() {
	base=$1; shift
	gen "$base.ovsidl" python3 ovsdb/ovsdb-idlc.in annotate "$@" "$base.ann" &&
	gen "$base.h" python3 ovsdb/ovsdb-idlc.in c-idl-header "$base.ovsidl" &&
	gen "$base.c" python3 ovsdb/ovsdb-idlc.in c-idl-source "$base.ovsidl" &&
	echo "ovs-generate: $base.c $base.h"
}
idl lib/vswitch-idl vswitchd/vswitch.ovsschema || ok=1
idl lib/ovsdb-server-idl ovsdb/_server.ovsschema || ok=1
idl vtep/vtep-idl vtep/vtep.ovsschema || ok=1
idl tests/idltest tests/idltest.ovsschema || ok=1
[ "$ok" = 0 ] || echo "ovs-generate: warning: some python-made files are missing (above)" >&2
exit 0
