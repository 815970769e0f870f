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
#                        [--tarball FILE] [--jobs N]
#
#   --delay  the defect-patch method, in the kernel world: the tree's
#            lib/klist.c gets an mdelay(1) between klist_release()
#            dropping klist_remove_lock and its late n_klist = NULL, so
#            the window the remover returns in is wide open
#
# The tree is a hard-linked copy of the pristine one qemu-check unpacks
# (WORK/pristine); the files changed are replaced, never written through.
# Both modes share it and the build, WORK/build-6.1-klist, so switching
# mode rebuilds klist.o alone.  The console log of each mode is kept as
# WORK/build-6.1-klist/test-MODE.log.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
project=$(dirname "$here")
work=
tarball=/usr/src/linux-source-6.1.tar.xz
jobs=$(nproc)
delay=

while [ $# -gt 0 ]; do
	case "$1" in
	--delay) delay=1; shift ;;
	--project) project=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	--tarball) tarball=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	*) echo "qemu-kernel-klist: unknown argument $1" >&2; exit 2 ;;
	esac
done
project=$(cd "$project" && pwd)
work=${work:-$project/build/kernel}
mkdir -p "$work"
work=$(cd "$work" && pwd)
name=6.1-klist${delay:+-delay}
src=$work/src-6.1-klist/linux-source-6.1
build=$work/build-6.1-klist

exec 8>"$work/.qemu-check.lock"	# one kernel build at a time
if ! flock -n 8; then
	echo "qemu-kernel-klist: waiting for another kernel build in $work"
	flock 8
fi

"$here/kernel-tree.sh" unpack "$tarball" "$work/pristine"
pristine=$work/pristine/linux-source-6.1
if [ ! -d "$src" ]; then
	mkdir -p "$(dirname "$src")"
	cp -al "$pristine" "$src.tmp"
	mv "$src.tmp" "$src"
fi

# Replace (never write through the hard link) a file of the tree.
put() {	# path-in-tree < content
	local f=$src/$1 tmp
	tmp=$(mktemp "$f.XXXXXX")
	cat > "$tmp"
	if cmp -s "$tmp" "$f" 2>/dev/null; then
		rm -f "$tmp"
	else
		rm -f "$f"
		mv "$tmp" "$f"
	fi
}

put lib/klist-k6-kasan-test.c < "$project/tests/qemu/klist-k6-kasan-test.c"
{ cat "$pristine/lib/Makefile"
  echo 'obj-$(CONFIG_KUNIT) += klist-k6-kasan-test.o'; } | put lib/Makefile
if [ -z "$delay" ]; then
	put lib/klist.c < "$pristine/lib/klist.c"
else
	python3 - "$pristine/lib/klist.c" <<'PY' | put lib/klist.c
import sys
s = open(sys.argv[1]).read()
old = "\tspin_unlock(&klist_remove_lock);\n\tknode_set_klist(n, NULL);\n"
assert s.count(old) == 1, "klist_release() is not 6.1's"
s = s.replace(old, "\tspin_unlock(&klist_remove_lock);\n"
              "\tmdelay(1);\t/* qemu-kernel-klist --delay: K6's window */\n"
              "\tknode_set_klist(n, NULL);\n")
s = s.replace("#include <linux/sched.h>\n",
              "#include <linux/sched.h>\n#include <linux/delay.h>\n", 1)
sys.stdout.write(s)
PY
fi

mkdir -p "$build"
rm -f "$build/test.log"
t0=$(date +%s)
echo "qemu-kernel-klist[$name]: kunit.py run; output in $build/kunit.out"
set +e
(cd "$src" && python3 tools/testing/kunit/kunit.py run \
	--arch=x86_64 --build_dir="$build" \
	--kunitconfig="$project/tests/qemu/kunitconfig" \
	--qemu_args="-smp 2" --jobs="$jobs" --timeout=1200 \
	--raw_output=all klist_k6_kasan) < /dev/null > "$build/kunit.out" 2>&1
rc=$?
set -e
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
