#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every defect patch of the tree applies to today's sources with no fuzz.
# patch(1) accepts a hunk whose context moved or changed (fuzz 2 by
# default), so a patch can drift until it re-introduces its defect in the
# wrong place, or nothing at all, while its test still "passes" for some
# other reason.  A dry run with --fuzz=0 says which hunk drifted: refresh
# the patch (same change, today's context) when this fails.
#
# Usage: apply-exactly.sh SOURCE_DIR
set -u
src=${1:?usage: apply-exactly.sh SOURCE_DIR}
cd "$src" || exit 2
bad=0
n=0
for p in $(find tests shim fast -path '*/defects/*.patch' | sort); do
	n=$((n + 1))
	if ! out=$(patch --dry-run --fuzz=0 -s -p1 -i "$p" 2>&1); then
		echo "$p: does not apply exactly: $out"
		bad=$((bad + 1))
	fi
done
if [ "$n" -eq 0 ]; then
	echo "no defect patches found under $src"
	exit 1
fi
echo "$n defect patches, $bad do not apply exactly"
[ "$bad" -eq 0 ]
