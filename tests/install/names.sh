#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Names: neither installed library, static or shared, defines a name
# outside its own (klist_*, klist_port_*, kfast_*, ddm_*, __ddm_*,
# shim_*, __shim_*, __lockdep_no_validate__): the shim's kernel
# functions are klist_port_NAME (cmake/KlistNames.cmake), the
# explorer's internals local.  And a program that defines every one of
# those kernel names itself, and some of the explorer's (names-user.c),
# links against each flavour, static and shared, and runs its own.
set -eu
build=$1
user=$2
names=$3
. "$(dirname "$0")/install-prefix.sh"
install_into "$build" install-test-names
own='^(klist_|kfast_|ddm_|__ddm_|shim_|__shim_|__lockdep_no_validate__$)'
for pc in klist-port klist-port-fast; do
	libdir=$(pkg-config --variable=libdir $pc)
	bad=$(nm -g --defined-only "$libdir/lib$pc.a" | awk 'NF == 3 { print $3 }' |
		grep -Ev "$own" | sort -u || true)
	[ -z "$bad" ] || { echo "lib$pc.a defines:" $bad; exit 1; }
	bad=$(nm -D --defined-only "$libdir/lib$pc.so" | awk '{ sub(/@.*/, "", $3); print $3 }' |
		grep -Ev "$own|^KLIST_PORT_0$" | sort -u || true)
	[ -z "$bad" ] || { echo "lib$pc.so defines:" $bad; exit 1; }
done
{
	sed 's/.*/NAME(&)/' "$names"
	for n in ctl_hash ctl_touch dfs_next dfs_reset dpor_next dpor_record; do
		echo "NAME($n)"
	done
} > "$prefix/names-defs.h"
for pc in klist-port klist-port-fast; do
	cflags="$(pkg-config --cflags $pc) -I$prefix"
	libdir=$(pkg-config --variable=libdir $pc)
	${CC:-cc} -std=c11 -Wall -Werror $cflags -o "$prefix/names-shared-$pc" "$user" \
		$(pkg-config --libs $pc)
	LD_LIBRARY_PATH=$libdir "$prefix/names-shared-$pc"
	${CC:-cc} -std=c11 -Wall -Werror $cflags -o "$prefix/names-static-$pc" "$user" \
		"$libdir/lib$pc.a" -pthread
	"$prefix/names-static-$pc"
	echo "$pc: no foreign name defined; a program with $(wc -l < "$prefix/names-defs.h") of them links, static and shared: ok"
done
# The fix undone: the tests' archive in the build tree (klist-port-static,
# the objects with the shim's names as they are) must fail the same link.
src_include=$(dirname "$0")/../../include
if ${CC:-cc} -std=c11 -I"$build/public/checked" -I"$src_include" -I"$prefix" \
	-o "$prefix/names-undone" "$user" "$build/libklist-port.a" -pthread \
	> "$prefix/names-undone.log" 2>&1; then
	echo "the unprefixed archive linked too: this test cannot fail"; exit 1
fi
grep -q "multiple definition of .yield'" "$prefix/names-undone.log" ||
	{ cat "$prefix/names-undone.log"; echo "the unprefixed archive failed otherwise"; exit 1; }
echo "canary: the archive with the shim's names unprefixed fails to link ($(grep -c 'multiple definition' "$prefix/names-undone.log") multiple definitions, yield among them): ok"
