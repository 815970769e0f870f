#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-check: build the kernel with the project's klist (and ddm, and the
# KUnit suites) and run the suites under QEMU, then scan the console.
#
#   qemu-check.sh [--variant kasan|kcsan] [--project DIR] [--work DIR]
#                 [--tarball FILE] [--jobs N] [--timeout SECONDS]
#                 [--boot-watchdog SECONDS] [--freeze-first-boot]
#
#   --variant  kasan (default): tests/qemu/kunitconfig, build in
#              WORK/build; kcsan: tests/qemu/kunitconfig.kcsan, build in
#              WORK/build-kcsan
#   --project  project root (default: parent of scripts/)
#   --work     where trees and builds live (default PROJECT/build/kernel;
#              CMake passes ${CMAKE_BINARY_DIR}/kernel)
#   --tarball  default /usr/src/linux-source-6.1.tar.xz
#   --jobs     make -j (default: nproc)
#   --timeout  seconds for the QEMU run (kunit.py --timeout, default 1200)
#   --boot-watchdog  seconds from QEMU's start to the first KTAP line
#              (default 180; 0: none); past them the boot has stalled:
#              QEMU is killed and the same kernel booted once more
#   --freeze-first-boot  stop the first boot's VM as it starts (a stall
#              on purpose: shows the watchdog and the second boot)
#
# Steps: kernel-tree.sh prepare (unpack the tarball twice, once as a
# read-only pristine reference and once as the work tree, both cached;
# generate the series from the current sources into WORK/series; sync the
# work tree to pristine+series rewriting only changed files); kunit.py
# run; scan-console.py.
# Runs are serialised with a lock in WORK (one kernel build at a time).

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-script.sh
. "$here/kernel-script.sh"
kernel_script_init qemu-check "$(dirname "$here")" 1200
variant=kasan
kernel_boot_watchdog=180
freeze_first_boot=0
# shellcheck disable=SC2317 # called from kernel_parse_args
kernel_own_arg() {
	kernel_value_arg --variant variant "$@"
	[ "$kernel_shift" -gt 0 ] ||
		kernel_value_arg --boot-watchdog kernel_boot_watchdog "$@"
	[ "$kernel_shift" -gt 0 ] ||
		kernel_flag_arg --freeze-first-boot freeze_first_boot "$@"
}
kernel_parse_args "$@"
case "$kernel_boot_watchdog" in
''|*[!0-9]*)
	echo "qemu-check: --boot-watchdog takes seconds, not '$kernel_boot_watchdog'" >&2
	exit 2 ;;
esac

case "$variant" in
kasan|kcsan) ;;
*)	echo "qemu-check: unknown variant $variant" >&2; exit 2 ;;
esac
kernel_who="qemu-check[$variant]"
kernel_work_lock
case "$variant" in
kasan)	kunitconfig=$project/tests/qemu/kunitconfig; build=$work/build ;;
kcsan)	kunitconfig=$project/tests/qemu/kunitconfig.kcsan
	build=$work/build-kcsan ;;
esac

step "preparing the tree in $work (unpack once, series, sync)"
"$here/kernel-tree.sh" prepare "$project" "$tarball" "$work"
src=$work/src/linux-source-6.1

step "kunit.py run (build, boot, test); output in $build/kunit.out"
mkdir -p "$build"
rm -f "$build/test.log"
kernel_boot_freeze=$freeze_first_boot
kernel_kunit_run --kunitconfig="$kunitconfig" \
	--kunitconfig="$work/series/kunitconfig.suites" --raw_output=all
kernel_boot_freeze=0
first_boot_stalled=$kernel_boot_stalled
# The first boot may stall (the retry below); a second stall fails.
kunit_done() {
	rc=$kernel_rc
	[ "$1" = first ] && [ "$kernel_boot_stalled" = 1 ] && return 0
	[ "$kernel_boot_stalled" = 0 ] || rc=1
	grep -E '^\[[0-9:]{8}\] (Elapsed|Configuring|Building|Starting)' \
		"$build/kunit.out" | sed 's|^|  |' || true
	if [ $rc -ne 0 ] || [ ! -s "$build/test.log" ]; then
		step "kunit.py failed (exit $rc); end of $build/kunit.out:"
		tail -60 "$build/kunit.out"
		exit 1
	fi
}
kunit_done first

# A kernel that never reached KUnit stalled in its own boot, before any
# of the project's code ran but the core's (seen once: 6.1's RCU-tasks
# self-test, 20 min under TCG on a loaded host, then a clean boot in
# 55 s).  The boot watchdog ends such a boot after --boot-watchdog
# seconds instead of kunit.py's --timeout; the same kernel is booted
# once more.  A stall inside the suites is never retried, and a boot
# that stalls twice fails.
if [ "$first_boot_stalled" = 1 ] || ! grep -q 'KTAP version' "$build/test.log"; then
	step "the kernel never reached KUnit; its last console lines:"
	touch "$build/test.log"
	grep -E '^\[ *[0-9]+\.[0-9]+\]' "$build/test.log" | tail -2 |
		sed 's|^|  |' || true
	tail -1 "$build/test.log" | sed 's|^|  |'
	mv "$build/test.log" "$build/test-stalled.log"
	mv "$build/kunit.out" "$build/kunit-stalled.out"
	step "booting the same kernel once more (kunit.py exec; the first console in test-stalled.log)"
	kernel_kunit exec --kunitconfig="$kunitconfig" \
		--kunitconfig="$work/series/kunitconfig.suites" --raw_output=all
	kunit_done second
fi

step "scanning $build/test.log"
set +e
python3 "$project/tests/qemu/scan-console.py" --log "$build/test.log" \
	--suites "$work/series/suites.json"
rc=$?
set -e
step "done: $([ $rc -eq 0 ] && echo PASS || echo FAIL)"
exit $rc
