#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# coverage/kernel-capture.sh BUILD_DIR SRC_TREE GCDA_DIR PROJECT OUT FILE...
#
# Turn the counters copied out of the coverage boot (GCDA_DIR/<absolute
# path of each .gcda>, coverage/kernel-boot.sh) into the lcov tracefile OUT,
# test name "kernel", with branch data, for the kernel sources FILE...
# (relative to the tree: lib/klist.c ...).  SF: paths are rewritten from
# SRC_TREE/FILE to PROJECT/FILE: the series copies these files verbatim,
# so kernel and userspace counts land on the same lines.  A file that
# differs from the project's now (edited since the build) is an error, not
# a report with counts on the wrong lines.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# gcc names the .gcda after the object's physical path
build=$(cd "$1" && pwd -P)
src=$(cd "$2" && pwd -P)
gcda=$(cd "$3" && pwd)
project=$(cd "$4" && pwd)
out=$5
shift 5
rc=$top/coverage/lcovrc
# lcov 1.16 under Debian 12's perl warns about itself; keep real errors.
exec 2> >(grep -v "^Subroutine .* redefined at" >&2)

die() {
	echo "kernel-capture: $*" >&2
	exit 1
}

for f in "$@"; do
	cmp -s "$src/$f" "$project/$f" ||
		die "$src/$f differs from $project/$f (edited since the build?)"
done

# gcov must come from the gcc that built the kernel (the .gcno format
# follows the compiler version).
ver=$(sed -n 's/^CONFIG_GCC_VERSION=\([0-9]*\)$/\1/p' \
	"$build/include/config/auto.conf")
[ -n "$ver" ] || die "$build was not built with gcc"
gcov=gcov-$((ver / 10000))
command -v "$gcov" > /dev/null || die "$gcov not found (gcc $ver built the kernel)"

# Each .gcda goes next to its .gcno; counters of an earlier boot must not
# mix in.
find "$build" -name '*.gcda' -delete
n=0
while read -r f; do
	dst=/${f#"$gcda"/}
	case "$dst" in
	"$build"/*) ;;
	*) die "$f: not from the build in $build" ;;
	esac
	[ -f "${dst%.gcda}.gcno" ] || die "no ${dst%.gcda}.gcno for $f"
	cp "$f" "$dst"
	n=$((n + 1))
done < <(find "$gcda" -type f -name '*.gcda')
[ $n -gt 0 ] || die "no .gcda files in $gcda"

dirs=()
for d in $(for f in "$@"; do dirname "$f"; done | sort -u); do
	dirs+=(--directory "$build/$d")
done
patterns=()
for f in "$@"; do
	patterns+=("$src/$f")
done

lcov --config-file "$rc" --quiet --gcov-tool "$gcov" --capture \
	"${dirs[@]}" --test-name kernel --output-file "$out.raw"
lcov --config-file "$rc" --quiet --extract "$out.raw" "${patterns[@]}" \
	--output-file "$out.extracted"
sed "s|^SF:$src/|SF:$project/|" "$out.extracted" > "$out"
rm -f "$out.raw" "$out.extracted"

missing=0
for f in "$@"; do
	grep -qx "SF:$project/$f" "$out" || {
		echo "kernel-capture: no coverage data for $f" >&2
		missing=1
	}
done
[ $missing -eq 0 ] || exit 1
echo "kernel-capture: $n .gcda file(s) -> $out"
