#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-check: build the kernel with the project's klist (and ddm, and the
# KUnit suites) and run the suites under QEMU, then scan the console.
#
#   qemu-check.sh [--variant kasan|kcsan] [--project DIR] [--work DIR]
#                 [--tarball FILE] [--jobs N] [--timeout SECONDS]
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
# shellcheck disable=SC2317 # called from kernel_parse_args
kernel_own_arg() {
	kernel_value_arg --variant variant "$@"
}
kernel_parse_args "$@"

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
kernel_kunit_run --kunitconfig="$kunitconfig" \
	--kunitconfig="$work/series/kunitconfig.suites" --raw_output=all
kunit_done() {
	rc=$kernel_rc
	grep -E '^\[[0-9:]{8}\] (Elapsed|Configuring|Building|Starting)' \
		"$build/kunit.out" | sed 's|^|  |' || true
	if [ $rc -ne 0 ] || [ ! -s "$build/test.log" ]; then
		step "kunit.py failed (exit $rc); end of $build/kunit.out:"
		tail -60 "$build/kunit.out"
		exit 1
	fi
}
kunit_done

# A kernel that never reached KUnit stalled in its own boot, before any
# of the project's code ran but the core's (seen once: 6.1's RCU-tasks
# self-test, 20 min under TCG on a loaded host, then a clean boot in
# 55 s).  The same kernel is booted once more; a stall inside the
# suites is never retried, and a boot that stalls twice fails.
if ! grep -q 'KTAP version' "$build/test.log"; then
	step "the kernel never reached KUnit; its last console lines:"
	grep -E '^\[ *[0-9]+\.[0-9]+\]' "$build/test.log" | tail -2 |
		sed 's|^|  |' || true
	tail -1 "$build/test.log" | sed 's|^|  |'
	mv "$build/test.log" "$build/test-stalled.log"
	mv "$build/kunit.out" "$build/kunit-stalled.out"
	step "booting the same kernel once more (kunit.py exec; the first console in test-stalled.log)"
	kernel_kunit exec --kunitconfig="$kunitconfig" \
		--kunitconfig="$work/series/kunitconfig.suites" --raw_output=all
	kunit_done
fi

step "scanning $build/test.log"
set +e
python3 "$project/tests/qemu/scan-console.py" --log "$build/test.log" \
	--suites "$work/series/suites.json"
rc=$?
set -e
step "done: $([ $rc -eq 0 ] && echo PASS || echo FAIL)"
exit $rc
