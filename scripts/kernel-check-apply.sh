#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Apply the committed kernel-patches/*.patch to a copy of the pristine
# files they touch and check that every project file the series carries
# (gen-kernel-patches.py --list-files) comes out byte-identical.
#
#   kernel-check-apply.sh PRISTINE [PROJECT]

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
pristine=$(cd "${1:?usage: $0 PRISTINE [PROJECT]}" && pwd)
project=$(cd "${2:-$(dirname "$here")}" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kernel-check-apply.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$here/kernel-tree.sh" apply "$project/kernel-patches" "$pristine" "$tmp/tree"

bad=0 n=0
while read -r src dst; do
	n=$((n + 1))
	got=$tmp/tree/$dst
	# a file the series leaves alone must equal the pristine one
	[ -e "$got" ] || got=$pristine/$dst
	if ! cmp -s "$project/$src" "$got"; then
		echo "kernel-check-apply: $src differs from $dst in the patched tree"
		diff -u "$got" "$project/$src" | head -20 || true
		bad=$((bad + 1))
	fi
done < <(python3 "$here/gen-kernel-patches.py" --project "$project" --list-files)

if [ $bad -ne 0 ]; then
	echo "kernel-check-apply: $bad of $n file(s) differ" >&2
	exit 1
fi
echo "kernel-check-apply: $n file(s) byte-identical after applying" \
     "$(ls "$project"/kernel-patches/*.patch 2>/dev/null | wc -l) patch(es)"
