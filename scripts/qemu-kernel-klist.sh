#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-kernel-klist: look for lesson K6 in the kernel's own klist.  Boots
# 6.1 as Debian ships it (its own lib/klist.c, not ours) with one
# kernel-only suite added, tests/qemu/klist-k6-kasan-test.c, under KASAN
# and lockdep, and reports what the suite and KASAN saw.  Not part of
# qemu-check.
#
#   qemu-kernel-klist.sh [--delay] [--project DIR] [--work DIR]
#                        [--tarball FILE] [--jobs N] [--timeout SECONDS]
#
#   --delay  the defect-patch method, in the kernel world: the tree's
#            lib/klist.c gets an mdelay(1) between klist_release()
#            dropping klist_remove_lock and its late n_klist = NULL, so
#            the window the remover returns in is wide open
#   --timeout  seconds for the QEMU run (kunit.py --timeout, default 1200)
#
# The tree is WORK/src-6.1-klist, unpacked once and kept equal to the
# pristine one plus this run's small series (the suite, its Makefile
# line, with --delay the klist.c change) by kernel-tree.sh sync, as
# qemu-check's tree is: a mode switch rewrites klist.c alone, and the
# shared build, WORK/build-6.1-klist, rebuilds klist.o alone.  The
# console log of each mode is kept as WORK/build-6.1-klist/test-MODE.log.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel-script.sh
. "$here/kernel-script.sh"
kernel_script_init qemu-kernel-klist "$(dirname "$here")" 1200
delay=
# shellcheck disable=SC2317 # called from kernel_parse_args
kernel_own_arg() {
	kernel_flag_arg --delay delay "$@"
}
kernel_parse_args "$@"
kernel_work_lock
name=6.1-klist${delay:+-delay}
src=$work/src-6.1-klist/linux-source-6.1
build=$work/build-6.1-klist

"$here/kernel-tree.sh" unpack "$tarball" "$work/pristine"
"$here/kernel-tree.sh" unpack "$tarball" "$work/src-6.1-klist"
pristine=$work/pristine/linux-source-6.1

# This mode's series, for kernel-tree.sh sync: git-style diffs against
# the pristine tree.
series=$work/series-6.1-klist
rm -rf "$series"
mkdir -p "$series"
PYTHONPATH="$here" python3 - "$pristine" "$project/tests/qemu/klist-k6-kasan-test.c" \
	"$series/0001-klist-k6-kasan.patch" "$delay" <<'PY'
import sys
from series_diff import diff
pristine, suite, out, delay = sys.argv[1:5]

def read(path):
    return open(pristine + "/" + path).read()

makefile = read("lib/Makefile")
parts = [diff("lib/klist-k6-kasan-test.c", None, open(suite).read()),
         diff("lib/Makefile", makefile,
              makefile + "obj-$(CONFIG_KUNIT) += klist-k6-kasan-test.o\n")]
if delay:
    # The defect-patch method, in the kernel world: K6's window widened.
    klist = read("lib/klist.c")
    old = "\tspin_unlock(&klist_remove_lock);\n\tknode_set_klist(n, NULL);\n"
    assert klist.count(old) == 1, "klist_release() is not 6.1's"
    new = klist.replace(old, "\tspin_unlock(&klist_remove_lock);\n"
                        "\tmdelay(1);\t/* qemu-kernel-klist --delay: K6's window */\n"
                        "\tknode_set_klist(n, NULL);\n")
    new = new.replace("#include <linux/sched.h>\n",
                      "#include <linux/sched.h>\n#include <linux/delay.h>\n", 1)
    parts.append(diff("lib/klist.c", klist, new))
open(out, "w").write("".join(parts))
PY
"$here/kernel-tree.sh" sync "$series" "$pristine" "$src"

mkdir -p "$build"
rm -f "$build/test.log"
t0=$(date +%s)
echo "qemu-kernel-klist[$name]: kunit.py run; output in $build/kunit.out"
kernel_kunit_run --kunitconfig="$project/tests/qemu/kunitconfig" \
	--raw_output=all klist_k6_kasan
rc=$kernel_rc
if [ ! -s "$build/test.log" ]; then
	echo "qemu-kernel-klist: kunit.py failed (exit $rc):"
	tail -40 "$build/kunit.out"
	exit 1
fi
cp "$build/test.log" "$build/test-$name.log"
echo "qemu-kernel-klist[$name]: $(( $(date +%s) - t0 )) s; what the kernel said:"
grep -aE 'klist_k6_kasan: |BUG: KASAN|Write of size|BUG: kernel NULL|ok [0-9]+ klist_k6|Subtest: klist_k6' \
	"$build/test.log" | sed 's/^/  /' | head -20
kasan=$(grep -ac 'BUG: KASAN' "$build/test.log" || true)
echo "qemu-kernel-klist[$name]: KASAN reports: $kasan (KASAN prints only its first report)"
