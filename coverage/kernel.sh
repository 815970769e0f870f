#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# coverage/kernel.sh: the kernel half of the coverage dashboard.
#
#   kernel.sh --out DIR [--project DIR] [--work DIR] [--tarball FILE]
#             [--jobs N] [--timeout SECONDS]
#
#   --out      where kernel.info and kernel-boot/ (console log, counters)
#              go (CMake passes ${CMAKE_BINARY_DIR}/coverage)
#   --project  project root (default: parent of coverage/)
#   --work     where trees and builds live, as for qemu-check (default
#              PROJECT/build/kernel; CMake passes COVERAGE_KERNEL_WORK,
#              default ${CMAKE_BINARY_DIR}/kernel)
#   --tarball  default /usr/src/linux-source-6.1.tar.xz
#   --jobs     make -j (default: nproc)
#   --timeout  seconds for the QEMU boot (default 600)
#
# Steps: prepare WORK/src as qemu-check does (unpack once, generate the
# series from the current sources, sync); kunit.py build into
# WORK/build-gcov with coverage/kunitconfig.gcov and gcov switched on for
# the project's lib/ objects only, on make's command line (the shipped
# series carries no coverage switch); boot it (coverage/kernel-boot.sh);
# scan the console as qemu-check does, so a failing case or a splat fails
# the coverage run; capture OUT/kernel.info (coverage/kernel-capture.sh).
# Holds qemu-check's lock in WORK: one kernel build at a time.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-script.sh
. "$here/../scripts/kernel-script.sh"
kernel_script_init coverage-kernel "$(dirname "$here")" 600
out=

# The project's files in the kernel (the series copies them verbatim):
# the only objects built with gcov.  lib/ddm/ is profiled through
# CONFIG_GCOV_PROFILE_DDM (coverage/kunitconfig.gcov); klist.c, one
# object in lib/, through GCOV_PROFILE_klist.o=y on make's command line.
files="lib/klist.c lib/ddm/dd.c lib/ddm/bus.c lib/ddm/object.c
	lib/ddm/uevent.c lib/ddm/class.c"

# shellcheck disable=SC2317 # called from kernel_parse_args
kernel_own_arg() {
	kernel_value_arg --out out "$@"
}
kernel_parse_args "$@"
[ -n "$out" ] || { echo "coverage-kernel: --out is required" >&2; exit 2; }

kernel_work_lock
scripts=$project/scripts
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$work/build-gcov
boot=$out/kernel-boot
# A failed run must not leave the previous run's tracefile for report.sh.
rm -f "$out/kernel.info"

step "preparing the tree in $work, as qemu-check does"
"$scripts/kernel-tree.sh" prepare "$project" "$tarball" "$work"
src=$work/src/linux-source-6.1

# scripts/Makefile.lib adds CFLAGS_GCOV to an object when
# GCOV_PROFILE_<basetarget>.o is y; command-line variables reach every
# sub-make, so no Makefile in the tree changes.  It matches base names
# only, which is why lib/ddm/ (dd.o, bus.o, class.o: names
# drivers/base/ has too) goes by its Kconfig switch instead.
make_opts=(--make_options "GCOV_PROFILE_klist.o=y")

step "kunit.py build in $build; output in $build/kunit-build.out"
mkdir -p "$build"
tb=$(date +%s)
set +e
(cd "$src" && python3 tools/testing/kunit/kunit.py build \
	--arch=x86_64 --build_dir="$build" \
	--kunitconfig="$here/kunitconfig.gcov" \
	--kunitconfig="$work/series/kunitconfig.suites" \
	"${make_opts[@]}" --jobs="$jobs") < /dev/null > "$build/kunit-build.out" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
	step "kunit.py build failed (exit $rc); end of $build/kunit-build.out:"
	tail -60 "$build/kunit-build.out"
	exit 1
fi
step "built in $(( $(date +%s) - tb ))s"

# Exactly our objects carry gcov notes: anything else means the switch
# did not reach make, or reached too much.
want=$(for f in $files; do echo "$build/${f%.c}.gcno"; done | sort)
have=$(find "$build" -name '*.gcno' | sort)
if [ "$want" != "$have" ]; then
	step "unexpected set of .gcno files in $build:"
	diff <(echo "$want") <(echo "$have") | sed 's|^|  |' || true
	exit 1
fi

step "booting under QEMU (timeout ${timeout}s); console in $boot/console.log"
tb=$(date +%s)
"$here/kernel-boot.sh" "$build" "$boot" "$timeout"
step "boot and suites took $(( $(date +%s) - tb ))s"

step "scanning $boot/console.log"
python3 "$project/tests/qemu/scan-console.py" --log "$boot/console.log" \
	--suites "$work/series/suites.json"

step "capturing $out/kernel.info"
# shellcheck disable=SC2086 # $files is a list
"$here/kernel-capture.sh" "$build" "$src" "$boot/share/gcda" "$project" \
	"$out/kernel.info" $files
step "done"
